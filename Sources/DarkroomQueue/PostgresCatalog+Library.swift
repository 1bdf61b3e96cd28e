import DarkroomCore
import Foundation
import PostgresNIO
import DarkroomLibrary
import DarkroomModel

/// What a collection stage reads of the library (`LibraryCatalog`), as the SQLite `Catalog` answers
/// it: one query per call, the subjects bound as one array.
extension PostgresCatalog {
    /// The columns `assetFacts(_:)` reads.
    static let assetColumns = """
        content_hash, id, original_path, file_size, capture_json, width, height, orientation, camera,
        latitude, longitude, altitude, duration, video_codec, bit_depth, hdr_transfer, audio_codec,
        content_identifier, motion_of
        """

    public func assets(contentHashes: [String]) throws -> [AssetFacts] {
        try session.query("""
            SELECT \(unescaped: PostgresCatalog.assetColumns) FROM assets WHERE content_hash = ANY(\(contentHashes)) ORDER BY content_hash
            """).map(PostgresCatalog.assetFacts)
    }

    public func outputs(ofSubjects subjects: [String]) throws -> [CatalogOutput] {
        try session.query("""
            SELECT path, step, subject, size, sha256 FROM outputs WHERE subject = ANY(\(subjects)) ORDER BY path
            """).map(PostgresCatalog.output)
    }

    public func motionParts(ofStills stills: [String]) throws -> [AssetFacts] {
        try session.query("""
            SELECT \(unescaped: PostgresCatalog.assetColumns) FROM assets WHERE motion_of = ANY(\(stills)) ORDER BY content_hash
            """).map(PostgresCatalog.assetFacts)
    }

    public func collectionOutputs() throws -> [CatalogOutput] {
        try session.query("""
            SELECT path, step, subject, size, sha256 FROM outputs WHERE subject LIKE 'collection:%' ORDER BY path
            """).map(PostgresCatalog.output)
    }

    /// An asset row as the facts a run recorded (a capture date that no longer decodes reads as none).
    private static func assetFacts(_ row: PostgresRow) throws -> AssetFacts {
        let cells = row.makeRandomAccess()
        func value<T: PostgresDecodable>(_ name: String, _ type: T.Type) throws -> T { try cells[name].decode(T.self, context: .default) }
        let hash = try value("content_hash", String.self)
        let date = try value("capture_json", String?.self).flatMap { try? JSONDecoder().decode(CaptureDate.self, from: Data($0.utf8)) }
        let latitude = try value("latitude", Double?.self), longitude = try value("longitude", Double?.self)
        let altitude = try value("altitude", Double?.self)
        let transfer = try value("hdr_transfer", String?.self)
        let duration = try value("duration", Double?.self), bitDepth = try value("bit_depth", Int?.self)
        let audio = try value("audio_codec", String?.self)
        return AssetFacts(
            contentHash: hash, id: UUID(uuidString: try value("id", String.self)) ?? ContentHash.uuid(fromHex: hash),
            originalPath: try value("original_path", String.self), fileSize: try value("file_size", Int64.self), captureDate: date,
            width: try value("width", Int?.self), height: try value("height", Int?.self),
            orientation: try value("orientation", Int?.self), camera: try value("camera", String?.self),
            location: latitude.flatMap { lat in longitude.flatMap { GeoLocation(latitude: lat, longitude: $0, altitude: altitude) } },
            video: try value("video_codec", String?.self).map {
                VideoFacts(duration: duration ?? 0, codec: $0, bitDepth: bitDepth ?? 8,
                           hdrTransfer: transfer.flatMap(VideoFacts.Transfer.init(rawValue:)), audioCodec: audio)
            },
            contentIdentifier: try value("content_identifier", String?.self), motionOf: try value("motion_of", String?.self))
    }
}
