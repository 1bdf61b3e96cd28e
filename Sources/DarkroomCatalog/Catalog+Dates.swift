import DarkroomCore
import Foundation
import GRDB
import DarkroomLibrary
import DarkroomModel

extension Catalog: CorrectableCatalog {
    /// Every photo or video the selector picks, as the catalog stores it, ordered by original path.
    public func assets(_ selector: AssetSelector) throws -> [AssetFacts] {
        let (condition, argument) = Catalog.condition(selector)
        return try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT content_hash, original_path, file_size, capture_json, width, height, orientation, camera,
                       latitude, longitude, altitude, duration, video_codec, bit_depth, hdr_transfer, audio_codec,
                       content_identifier, motion_of
                FROM assets WHERE \(condition) ORDER BY original_path, content_hash
                """, arguments: [argument]).map(Catalog.assetFacts)
        }
    }

    /// The pipeline names runs recorded, the most recently used first, each once.
    public func recordedPipelines() throws -> [String] {
        try database.read { db in
            try String.fetchAll(db, sql: "SELECT pipeline FROM runs GROUP BY pipeline ORDER BY max(id) DESC")
        }
    }

    /// The WHERE clause for a selector, with its one argument (`?1`).
    private static func condition(_ selector: AssetSelector) -> (String, String) {
        switch selector {
        case .contentHash(let hash): return ("content_hash = ?1", hash)
        case .id(let id): return ("id = ?1", id.uuidString.lowercased())
        case .originalPath(let path): return ("original_path = ?1", path)
        case .folder(let folder): return ("substr(original_path, 1, length(?1)) = ?1", folder + "/")
        case .camera(let camera): return ("lower(camera) = lower(?1)", camera)
        case .motionParts(let still): return ("motion_of = ?1", still)
        }
    }

    private static func assetFacts(_ row: Row) -> AssetFacts {
        let json: String? = row["capture_json"]
        let hash: String = row["content_hash"]
        var facts = AssetFacts(contentHash: hash, id: ContentHash.uuid(fromHex: hash),
                               originalPath: row["original_path"], fileSize: row["file_size"],
                               captureDate: json.flatMap { try? JSONDecoder().decode(CaptureDate.self, from: Data($0.utf8)) },
                               width: row["width"], height: row["height"], orientation: row["orientation"], camera: row["camera"],
                               contentIdentifier: row["content_identifier"], motionOf: row["motion_of"])
        if let latitude: Double = row["latitude"], let longitude: Double = row["longitude"] {
            facts.location = GeoLocation(latitude: latitude, longitude: longitude, altitude: row["altitude"])
        }
        if let codec: String = row["video_codec"] {
            facts.video = VideoFacts(duration: row["duration"] ?? 0, codec: codec, bitDepth: row["bit_depth"] ?? 8,
                                     hdrTransfer: (row["hdr_transfer"] as String?).flatMap(VideoFacts.Transfer.init(rawValue:)),
                                     audioCodec: row["audio_codec"])
        }
        return facts
    }
}
