import DarkroomCore
import Foundation
import PostgresNIO
import DarkroomLibrary
import DarkroomModel

extension PostgresCatalog: CorrectableCatalog {
    /// Every photo or video the selector picks, as the catalog stores it, ordered by original path
    /// (byte order, as SQLite's).
    public func assets(_ selector: AssetSelector) throws -> [AssetFacts] {
        let (before, value, after) = PostgresCatalog.condition(selector)
        return try session.query("""
            SELECT content_hash, original_path, file_size, capture_json, width, height, orientation, camera,
                   latitude, longitude, altitude, duration, video_codec, bit_depth, hdr_transfer, audio_codec,
                   content_identifier, motion_of
            FROM assets WHERE \(unescaped: before)\(value)\(unescaped: after) ORDER BY original_path COLLATE "C", content_hash COLLATE "C"
            """).map(PostgresCatalog.assetFacts)
    }

    /// The pipeline names runs recorded, the most recently used first, each once.
    public func recordedPipelines() throws -> [String] {
        try session.query("SELECT pipeline FROM runs GROUP BY pipeline ORDER BY max(id) DESC").map { try $0.decode(String.self) }
    }

    /// The WHERE clause for a selector: the SQL before and after its one bound value.
    private static func condition(_ selector: AssetSelector) -> (String, String, String) {
        switch selector {
        case .contentHash(let hash): return ("content_hash = ", hash, "")
        case .id(let id): return ("id = ", id.uuidString.lowercased(), "")
        case .originalPath(let path): return ("original_path = ", path, "")
        case .folder(let folder): return ("starts_with(original_path, ", folder + "/", ")")
        case .camera(let camera): return ("lower(camera) = lower(", camera, ")")
        case .motionParts(let still): return ("motion_of = ", still, "")
        }
    }

    private static func assetFacts(_ row: PostgresRow) throws -> AssetFacts {
        let cells = row.makeRandomAccess()
        func value<T: PostgresDecodable>(_ column: String, _ type: T.Type) throws -> T { try cells[column].decode(T.self) }
        let hash = try value("content_hash", String.self)
        let json = try value("capture_json", String?.self)
        var facts = AssetFacts(contentHash: hash, id: ContentHash.uuid(fromHex: hash), originalPath: try value("original_path", String.self),
                               fileSize: try value("file_size", Int64.self),
                               captureDate: json.flatMap { try? JSONDecoder().decode(CaptureDate.self, from: Data($0.utf8)) },
                               width: try value("width", Int?.self), height: try value("height", Int?.self),
                               orientation: try value("orientation", Int?.self), camera: try value("camera", String?.self),
                               contentIdentifier: try value("content_identifier", String?.self),
                               motionOf: try value("motion_of", String?.self))
        if let latitude = try value("latitude", Double?.self), let longitude = try value("longitude", Double?.self) {
            facts.location = GeoLocation(latitude: latitude, longitude: longitude, altitude: try value("altitude", Double?.self))
        }
        if let codec = try value("video_codec", String?.self) {
            facts.video = VideoFacts(duration: try value("duration", Double?.self) ?? 0, codec: codec,
                                     bitDepth: try value("bit_depth", Int?.self) ?? 8,
                                     hdrTransfer: try value("hdr_transfer", String?.self).flatMap(VideoFacts.Transfer.init(rawValue:)),
                                     audioCodec: try value("audio_codec", String?.self))
        }
        return facts
    }
}
