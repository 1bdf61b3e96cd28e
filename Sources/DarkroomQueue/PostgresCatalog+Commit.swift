import DarkroomCore
import Foundation
import PostgresNIO
import DarkroomLibrary

extension PostgresCatalog {
    /// Records finished work in one transaction. Returns outputs the finished units no longer make
    /// (stale files from earlier options), which the caller deletes.
    public func commit(_ completion: UnitCompletion, run: Int64) throws -> [String] {
        try session.transaction { try record(completion, run: run) }
    }

    /// What `commit` writes, inside the caller's transaction.
    func record(_ completion: UnitCompletion, run: Int64) throws -> [String] {
        if let asset = completion.asset { try upsert(asset, run: run) }
        let subject = completion.subject
        var stale: [String] = []
        if let retired = completion.retiredSteps, !retired.isEmpty {
            try session.execute("DELETE FROM units WHERE subject = \(subject) AND step = ANY(\(retired))")
            stale += try session.query("""
                DELETE FROM outputs WHERE subject = \(subject) AND step = ANY(\(retired))
                    AND NOT (path = ANY(\(completion.outputs.map(\.path)))) RETURNING path
                """).map { try $0.decode(String.self) }
        }
        let units = PostgresCatalog.lastOfEach(completion.units, by: \.step)
        if !units.isEmpty {
            let steps = units.map(\.step)
            try session.execute("""
                INSERT INTO units (step, subject, unit_key, run_id)
                SELECT step, \(subject), key, \(run) FROM unnest(\(steps), \(units.map(\.key))) AS u(step, key)
                ON CONFLICT (step, subject) DO UPDATE SET unit_key = EXCLUDED.unit_key, run_id = EXCLUDED.run_id
                """)
            stale += try session.query("""
                DELETE FROM outputs
                WHERE subject = \(subject) AND step = ANY(\(steps)) AND NOT (path = ANY(\(completion.outputs.map(\.path))))
                RETURNING path
                """).map { try $0.decode(String.self) }.sorted()
        }
        let outputs = PostgresCatalog.lastOfEach(completion.outputs, by: \.path)
        if !outputs.isEmpty {
            let paths = outputs.map(\.path)
            try session.execute("""
                INSERT INTO outputs (path, step, subject, size, sha256, run_id)
                SELECT path, step, \(subject), size, sha256, \(run)
                FROM unnest(\(paths), \(outputs.map(\.step)), \(outputs.map(\.size)), \(outputs.map(\.sha256)))
                    AS o(path, step, size, sha256)
                ON CONFLICT (path) DO UPDATE SET step = EXCLUDED.step, subject = EXCLUDED.subject,
                    size = EXCLUDED.size, sha256 = EXCLUDED.sha256, run_id = EXCLUDED.run_id
                """)
            // The files are recorded: neither they nor the old bytes they replaced (kept aside) are to be undone.
            let settled = paths + paths.map(LibraryFiles.keptAsidePath(of:))
            try session.execute("DELETE FROM pending_outputs WHERE path = ANY(\(settled))")
        }
        return stale
    }

    /// Inserts a photo, or updates what this run learned about it: a new capture date replaces the
    /// old one as a whole, other facts only when known; its id, original path and first run stay.
    private func upsert(_ asset: AssetFacts, run: Int64) throws {
        let date = asset.captureDate
        let json = try date.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try session.execute("""
            INSERT INTO assets (content_hash, id, original_path, file_size, capture_local, capture_utc_offset,
                                capture_source, capture_tz_source, capture_confidence, capture_json,
                                width, height, orientation, camera, first_run, last_run,
                                media_kind, latitude, longitude, altitude, duration, video_codec, bit_depth, hdr_transfer,
                                audio_codec, content_identifier, motion_of)
            VALUES (\(asset.contentHash), \(asset.id.uuidString.lowercased()), \(asset.originalPath), \(asset.fileSize),
                    \(date?.local.description), \(date?.utcOffsetSeconds), \(date?.source.rawValue),
                    \(date?.timeZoneSource.rawValue), \(date?.confidence.rawValue), \(json),
                    \(asset.width), \(asset.height), \(asset.orientation), \(asset.camera), \(run), \(run),
                    \(asset.mediaKind.rawValue), \(asset.location?.latitude), \(asset.location?.longitude), \(asset.location?.altitude),
                    \(asset.video?.duration), \(asset.video?.codec), \(asset.video?.bitDepth), \(asset.video?.hdrTransfer?.rawValue),
                    \(asset.video?.audioCodec), \(asset.contentIdentifier), \(asset.motionOf))
            ON CONFLICT (content_hash) DO UPDATE SET
                capture_local = CASE WHEN EXCLUDED.capture_json IS NULL THEN assets.capture_local ELSE EXCLUDED.capture_local END,
                capture_utc_offset = CASE WHEN EXCLUDED.capture_json IS NULL THEN assets.capture_utc_offset ELSE EXCLUDED.capture_utc_offset END,
                capture_source = CASE WHEN EXCLUDED.capture_json IS NULL THEN assets.capture_source ELSE EXCLUDED.capture_source END,
                capture_tz_source = CASE WHEN EXCLUDED.capture_json IS NULL THEN assets.capture_tz_source ELSE EXCLUDED.capture_tz_source END,
                capture_confidence = CASE WHEN EXCLUDED.capture_json IS NULL THEN assets.capture_confidence ELSE EXCLUDED.capture_confidence END,
                capture_json = COALESCE(EXCLUDED.capture_json, assets.capture_json),
                width = COALESCE(EXCLUDED.width, assets.width),
                height = COALESCE(EXCLUDED.height, assets.height),
                orientation = COALESCE(EXCLUDED.orientation, assets.orientation),
                camera = COALESCE(EXCLUDED.camera, assets.camera),
                latitude = CASE WHEN EXCLUDED.latitude IS NULL THEN assets.latitude ELSE EXCLUDED.latitude END,
                longitude = CASE WHEN EXCLUDED.latitude IS NULL THEN assets.longitude ELSE EXCLUDED.longitude END,
                altitude = CASE WHEN EXCLUDED.latitude IS NULL THEN assets.altitude ELSE EXCLUDED.altitude END,
                duration = COALESCE(EXCLUDED.duration, assets.duration),
                video_codec = COALESCE(EXCLUDED.video_codec, assets.video_codec),
                bit_depth = COALESCE(EXCLUDED.bit_depth, assets.bit_depth),
                hdr_transfer = CASE WHEN EXCLUDED.video_codec IS NULL THEN assets.hdr_transfer ELSE EXCLUDED.hdr_transfer END,
                audio_codec = CASE WHEN EXCLUDED.video_codec IS NULL THEN assets.audio_codec ELSE EXCLUDED.audio_codec END,
                content_identifier = COALESCE(EXCLUDED.content_identifier, assets.content_identifier),
                motion_of = EXCLUDED.motion_of,
                last_run = EXCLUDED.last_run
            """)
    }
}
