import DarkroomCore
import Foundation
import GRDB
import DarkroomLibrary
import DarkroomModel

/// What a collection stage reads of the library (`LibraryCatalog`): one query per call, the subjects
/// passed as one JSON array (`json_each`), so that a gallery of 10,000 photos asks four questions, not 40,000.
extension Catalog {
    /// The columns `assetFacts(_:)` reads.
    static let assetColumns = """
        content_hash, id, original_path, file_size, capture_json, width, height, orientation, camera,
        latitude, longitude, altitude, duration, video_codec, bit_depth, hdr_transfer, audio_codec,
        content_identifier, motion_of
        """

    public func assets(contentHashes: [String]) throws -> [AssetFacts] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(Catalog.assetColumns) FROM assets WHERE content_hash IN (SELECT value FROM json_each(?))
                ORDER BY content_hash
                """, arguments: [Catalog.jsonArray(contentHashes)]).map(Catalog.assetFacts)
        }
    }

    public func outputs(ofSubjects subjects: [String]) throws -> [CatalogOutput] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT path, step, subject, size, sha256 FROM outputs WHERE subject IN (SELECT value FROM json_each(?))
                ORDER BY path
                """, arguments: [Catalog.jsonArray(subjects)]).map(Catalog.output)
        }
    }

    public func motionParts(ofStills stills: [String]) throws -> [AssetFacts] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(Catalog.assetColumns) FROM assets WHERE motion_of IN (SELECT value FROM json_each(?))
                ORDER BY content_hash
                """, arguments: [Catalog.jsonArray(stills)]).map(Catalog.assetFacts)
        }
    }

    public func collectionOutputs() throws -> [CatalogOutput] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT path, step, subject, size, sha256 FROM outputs WHERE subject LIKE 'collection:%' ORDER BY path
                """).map(Catalog.output)
        }
    }

    private static func jsonArray(_ strings: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(strings), as: UTF8.self)
    }

    /// An asset row as the facts a run recorded (a capture date that no longer decodes reads as none).
    private static func assetFacts(_ row: Row) -> AssetFacts {
        let json: String? = row["capture_json"]
        let date = json.flatMap { try? JSONDecoder().decode(CaptureDate.self, from: Data($0.utf8)) }
        let latitude: Double? = row["latitude"], longitude: Double? = row["longitude"]
        let codec: String? = row["video_codec"]
        let transfer: String? = row["hdr_transfer"]
        let id: String = row["id"]
        return AssetFacts(
            contentHash: row["content_hash"], id: UUID(uuidString: id) ?? ContentHash.uuid(fromHex: row["content_hash"]),
            originalPath: row["original_path"], fileSize: row["file_size"], captureDate: date,
            width: row["width"], height: row["height"], orientation: row["orientation"], camera: row["camera"],
            location: latitude.flatMap { lat in longitude.flatMap { GeoLocation(latitude: lat, longitude: $0, altitude: row["altitude"]) } },
            video: codec.map { VideoFacts(duration: row["duration"] ?? 0, codec: $0, bitDepth: row["bit_depth"] ?? 8,
                                          hdrTransfer: transfer.flatMap(VideoFacts.Transfer.init(rawValue:)), audioCodec: row["audio_codec"]) },
            contentIdentifier: row["content_identifier"], motionOf: row["motion_of"])
    }
}
