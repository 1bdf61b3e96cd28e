import DarkroomCore
import Foundation
import GRDB
import DarkroomLibrary
import DarkroomModel
import DarkroomReport

/// The library's memory: which photos are in it, what was made from each, and which work units
/// (step, content hash, unit key) are done. SQLite through GRDB at
/// `<library>/.darkroom/catalog.sqlite`, WAL with synchronous=FULL, one writer.
public final class Catalog: CatalogStore, Sendable {
    let database: DatabaseQueue
    public let url: URL

    /// Opens (creating when needed) the catalog of `library`, and upgrades one an older Darkroom
    /// wrote (under the database's write lock: see `CatalogSchema`). Refuses a library on a network
    /// filesystem: SQLite's locking and WAL are not safe there (use PostgreSQL, `--catalog postgres://`).
    /// `networkFilesystem` names the network filesystem a path is on (`statfs` by default).
    public convenience init(library: URL, networkFilesystem: (String) -> String? = NetworkFilesystem.kind(of:)) throws {
        let folder = library.appendingPathComponent(".darkroom", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let kind = networkFilesystem(folder.path) {
            throw RunError("the library \(library.path) is on a network filesystem (\(kind)), where SQLite's locking is not safe; "
                           + "keep the catalog in PostgreSQL instead: --catalog postgres://... (see \"Running on many machines\" in the README)")
        }
        try self.init(url: folder.appendingPathComponent("catalog.sqlite"), readOnly: false)
        try CatalogSchema.upgrade(database)
    }

    private init(url: URL, readOnly: Bool) throws {
        self.url = url
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.readonly = readOnly
        configuration.prepareDatabase { db in
            guard !readOnly else { return }
            try Self.switchToWAL(db)
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        database = try DatabaseQueue(path: url.path, configuration: configuration)
    }

    /// Makes the catalog WAL unless it is already. Switching needs the database to itself, and when
    /// another process opens it at the same moment SQLite answers "database is locked" at once (the
    /// busy timeout does not cover it): the switch is tried again, for up to 10 s, and is not needed
    /// once the other process has made the catalog WAL.
    private static func switchToWAL(_ db: Database) throws {
        let deadline = Date().addingTimeInterval(10)
        while true {
            do {
                if try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal" { return }
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                return
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                usleep(20_000)
            }
        }
    }

    /// Opens an existing catalog (upgrading it as `init(library:)` does), or returns nil when the
    /// library has none yet.
    public static func openIfPresent(library: URL) throws -> Catalog? {
        let path = library.appendingPathComponent(".darkroom/catalog.sqlite").path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try Catalog(library: library)
    }

    /// Opens an existing catalog only to read it (what the shards of a sweep read while no one writes
    /// it), or returns nil when the library has none yet (or one still being made). Never changes
    /// it: a catalog an older Darkroom wrote is refused with the advice to upgrade it by an import.
    public static func openReadOnly(library: URL) throws -> Catalog? {
        let url = library.appendingPathComponent(".darkroom/catalog.sqlite")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let catalog = try Catalog(url: url, readOnly: true)
        switch try catalog.database.read(CatalogSchema.state(of:)) {
        case .current: return catalog
        case .empty: return nil
        case .outdated:
            throw RunError("the catalog of \(library.path) was written by an older Darkroom and needs an upgrade, which only a command "
                           + "that writes the library makes: run an import (darkroom run) into it first; this command only reads")
        }
    }

    /// Makes a catalog as an older Darkroom left it, with the migrations up to the one named
    /// `migration` only (for tests of upgrading).
    package static func createOutdated(library: URL, through migration: String) throws {
        let folder = library.appendingPathComponent(".darkroom", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let catalog = try Catalog(url: folder.appendingPathComponent("catalog.sqlite"), readOnly: false)
        try CatalogSchema.upgrade(catalog.database, through: migration)
    }

    // MARK: Runs

    /// Records the start of a run and returns its id.
    public func beginRun(pipeline: String) throws -> Int64 {
        try database.write { db in
            try db.execute(sql: "INSERT INTO runs (pipeline, started_at) VALUES (?, ?)",
                           arguments: [pipeline, Timestamp.now()])
            return db.lastInsertedRowID
        }
    }

    /// Records how a run ended, with its failures.
    public func finishRun(_ id: Int64, report: RunReport) throws {
        try database.write { db in
            try db.execute(sql: """
                UPDATE runs SET finished_at = ?, processed = ?, skipped = ?, duplicates = ?, failed = ?, status = ?
                WHERE id = ?
                """, arguments: [Timestamp.now(), report.processed, report.skipped, report.duplicates,
                                 report.failed, report.failures.isEmpty ? "ok" : "failures", id])
            for failure in report.failures {
                try db.execute(sql: "INSERT INTO failures (run_id, path, step, reason) VALUES (?, ?, ?, ?)",
                               arguments: [id, failure.path, failure.step, failure.reason])
            }
        }
    }

    // MARK: Hash cache

    /// The content hash remembered for a file whose size, mtime and inode are unchanged.
    public func cachedHash(path: String, size: Int64, mtimeNanoseconds: Int64, inode: UInt64) throws -> String? {
        try database.read { db in
            try String.fetchOne(db, sql: """
                SELECT content_hash FROM file_stats WHERE path = ? AND size = ? AND mtime_ns = ? AND inode = ?
                """, arguments: [path, size, mtimeNanoseconds, Int64(bitPattern: inode)])
        }
    }

    /// Remembers hashes so the next run need not read unchanged files.
    public func rememberHashes(_ hashes: [FileFingerprint]) throws {
        guard !hashes.isEmpty else { return }
        try database.write { db in
            for file in hashes {
                try db.execute(sql: "INSERT OR REPLACE INTO file_stats (path, size, mtime_ns, inode, content_hash) VALUES (?, ?, ?, ?, ?)",
                               arguments: [file.path, file.size, file.mtimeNanoseconds, Int64(bitPattern: file.inode), file.hash])
            }
        }
    }

    // MARK: Units and outputs

    public func state(of subject: String) throws -> SubjectState {
        try database.read { db in
            var state = SubjectState()
            for row in try Row.fetchAll(db, sql: "SELECT step, unit_key FROM units WHERE subject = ?", arguments: [subject]) {
                state.unitKeys[row["step"]] = row["unit_key"]
            }
            state.outputs = try Row.fetchAll(db, sql: "SELECT path, step, subject, size, sha256 FROM outputs WHERE subject = ?",
                                             arguments: [subject]).map(Catalog.output)
            return state
        }
    }

    /// The catalog's row for a published path, if any.
    public func output(at path: String) throws -> CatalogOutput? {
        try database.read { db in
            try Row.fetchOne(db, sql: """
                SELECT path, step, subject, size, sha256, original_path FROM outputs
                LEFT JOIN assets ON assets.content_hash = outputs.subject WHERE path = ?
                """, arguments: [path]).map(Catalog.output)
        }
    }

    /// Every published file.
    public func allOutputs() throws -> [CatalogOutput] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT path, step, subject, size, sha256 FROM outputs ORDER BY path").map(Catalog.output)
        }
    }

    static func output(_ row: Row) -> CatalogOutput {
        CatalogOutput(path: row["path"], step: row["step"], subject: row["subject"], size: row["size"], sha256: row["sha256"],
                      sourcePath: row.hasColumn("original_path") ? row["original_path"] : nil)
    }

    /// Notes, before a file is renamed into the library, that it may appear there; a crash between the
    /// rename and `commit` leaves this row, and `recoverPending` removes the orphan file.
    public func markPending(_ paths: [String], run: Int64) throws {
        guard !paths.isEmpty else { return }
        try database.write { db in
            for path in paths {
                try db.execute(sql: "INSERT OR REPLACE INTO pending_outputs (path, run_id) VALUES (?, ?)", arguments: [path, run])
            }
        }
    }

    /// Paths a crashed run may have left in the library but never recorded; clears the journal.
    public func recoverPending() throws -> [String] {
        try database.write { db in
            let orphans = try String.fetchAll(db, sql: """
                SELECT path FROM pending_outputs WHERE path NOT IN (SELECT path FROM outputs)
                """)
            try db.execute(sql: "DELETE FROM pending_outputs")
            return orphans
        }
    }

    /// Records finished work in one transaction. Returns outputs the finished units no longer
    /// produce (stale files from earlier options), which the caller deletes.
    public func commit(_ completion: UnitCompletion, run: Int64) throws -> [String] {
        try database.write { db in
            if let asset = completion.asset { try Catalog.upsert(asset, run: run, db: db) }
            var stale: [String] = []
            let fresh = Set(completion.outputs.map(\.path))
            for step in completion.retiredSteps ?? [] {
                try db.execute(sql: "DELETE FROM units WHERE step = ? AND subject = ?", arguments: [step, completion.subject])
                stale += try String.fetchAll(db, sql: "DELETE FROM outputs WHERE step = ? AND subject = ? RETURNING path",
                                             arguments: [step, completion.subject]).filter { !fresh.contains($0) }
            }
            for unit in completion.units {
                try db.execute(sql: "INSERT OR REPLACE INTO units (step, subject, unit_key, run_id) VALUES (?, ?, ?, ?)",
                               arguments: [unit.step, completion.subject, unit.key, run])
                let previous = try String.fetchAll(db, sql: "SELECT path FROM outputs WHERE subject = ? AND step = ?",
                                                   arguments: [completion.subject, unit.step])
                for path in previous where !fresh.contains(path) {
                    try db.execute(sql: "DELETE FROM outputs WHERE path = ?", arguments: [path])
                    stale.append(path)
                }
            }
            for output in completion.outputs {
                try db.execute(sql: "INSERT OR REPLACE INTO outputs (path, step, subject, size, sha256, run_id) VALUES (?, ?, ?, ?, ?, ?)",
                               arguments: [output.path, output.step, completion.subject, output.size, output.sha256, run])
                // The file is recorded: neither it nor the old bytes it replaced (kept aside) are to be undone.
                try db.execute(sql: "DELETE FROM pending_outputs WHERE path IN (?, ?)",
                               arguments: [output.path, LibraryFiles.keptAsidePath(of: output.path)])
            }
            return stale
        }
    }

    // MARK: Assets

    private static func upsert(_ asset: AssetFacts, run: Int64, db: Database) throws {
        let json = try asset.captureDate.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try db.execute(sql: """
            INSERT INTO assets (content_hash, id, original_path, file_size, capture_local, capture_utc_offset,
                                capture_source, capture_tz_source, capture_confidence, capture_json,
                                width, height, orientation, camera, first_run, last_run,
                                media_kind, latitude, longitude, altitude, duration, video_codec, bit_depth, hdr_transfer,
                                audio_codec, content_identifier, motion_of)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(content_hash) DO UPDATE SET
                capture_local = CASE WHEN excluded.capture_json IS NULL THEN capture_local ELSE excluded.capture_local END,
                capture_utc_offset = CASE WHEN excluded.capture_json IS NULL THEN capture_utc_offset ELSE excluded.capture_utc_offset END,
                capture_source = CASE WHEN excluded.capture_json IS NULL THEN capture_source ELSE excluded.capture_source END,
                capture_tz_source = CASE WHEN excluded.capture_json IS NULL THEN capture_tz_source ELSE excluded.capture_tz_source END,
                capture_confidence = CASE WHEN excluded.capture_json IS NULL THEN capture_confidence ELSE excluded.capture_confidence END,
                capture_json = COALESCE(excluded.capture_json, capture_json),
                width = COALESCE(excluded.width, width),
                height = COALESCE(excluded.height, height),
                orientation = COALESCE(excluded.orientation, orientation),
                camera = COALESCE(excluded.camera, camera),
                latitude = CASE WHEN excluded.latitude IS NULL THEN latitude ELSE excluded.latitude END,
                longitude = CASE WHEN excluded.latitude IS NULL THEN longitude ELSE excluded.longitude END,
                altitude = CASE WHEN excluded.latitude IS NULL THEN altitude ELSE excluded.altitude END,
                duration = COALESCE(excluded.duration, duration),
                video_codec = COALESCE(excluded.video_codec, video_codec),
                bit_depth = COALESCE(excluded.bit_depth, bit_depth),
                hdr_transfer = CASE WHEN excluded.video_codec IS NULL THEN hdr_transfer ELSE excluded.hdr_transfer END,
                audio_codec = CASE WHEN excluded.video_codec IS NULL THEN audio_codec ELSE excluded.audio_codec END,
                content_identifier = COALESCE(excluded.content_identifier, content_identifier),
                motion_of = excluded.motion_of,
                last_run = excluded.last_run
            """, arguments: [asset.contentHash, asset.id.uuidString.lowercased(), asset.originalPath, asset.fileSize,
                             asset.captureDate?.local.description, asset.captureDate?.utcOffsetSeconds,
                             asset.captureDate?.source.rawValue, asset.captureDate?.timeZoneSource.rawValue,
                             asset.captureDate?.confidence.rawValue, json,
                             asset.width, asset.height, asset.orientation, asset.camera, run, run,
                             asset.mediaKind.rawValue, asset.location?.latitude, asset.location?.longitude, asset.location?.altitude,
                             asset.video?.duration, asset.video?.codec, asset.video?.bitDepth, asset.video?.hdrTransfer?.rawValue,
                             asset.video?.audioCodec, asset.contentIdentifier, asset.motionOf])
    }

    /// The capture date and size the catalog remembers for a photo (for items skipped this run).
    public func rememberedFacts(contentHash: String) throws -> RememberedFacts? {
        try database.read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT capture_json, width, height, content_identifier, motion_of, media_kind FROM assets WHERE content_hash = ?
                """, arguments: [contentHash]) else { return nil }
            let json: String? = row["capture_json"]
            let date = json.flatMap { try? JSONDecoder().decode(CaptureDate.self, from: Data($0.utf8)) }
            return RememberedFacts(captureDate: date, width: row["width"], height: row["height"],
                                   contentIdentifier: row["content_identifier"], motionOf: row["motion_of"],
                                   mediaKind: MediaKind(rawValue: row["media_kind"]) ?? .photo)
        }
    }

    /// The photos and videos that carry Apple's Live Photo identifier `identifier`.
    public func assets(withContentIdentifier identifier: String) throws -> [PairedAsset] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT content_hash, original_path, motion_of FROM assets WHERE content_identifier = ? ORDER BY content_hash
                """, arguments: [identifier]).map {
                PairedAsset(contentHash: $0["content_hash"], originalPath: $0["original_path"], motionOf: $0["motion_of"])
            }
        }
    }

    /// A summary of one asset, for tests and `darkroom catalog` commands.
    public struct AssetSummary: Sendable, Codable, Hashable {
        public var id: String
        public var contentHash: String
        public var originalPath: String
        public var captureLocal: String?
        public var captureSource: String?
        public var width: Int?
        public var height: Int?
    }

    /// Every asset, ordered by capture date.
    public func assets() throws -> [AssetSummary] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, content_hash, original_path, capture_local, capture_source, width, height
                FROM assets ORDER BY capture_local, original_path
                """).map {
                AssetSummary(id: $0["id"], contentHash: $0["content_hash"], originalPath: $0["original_path"],
                             captureLocal: $0["capture_local"], captureSource: $0["capture_source"],
                             width: $0["width"], height: $0["height"])
            }
        }
    }

}
