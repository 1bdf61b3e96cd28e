import Foundation

/// One row of `assets`, column for column, as every store keeps it; `columns` lists them once for
/// the stores' SQL, with how each is stored.
public struct AssetRow: Sendable, Hashable {
    public var contentHash: String
    /// The content id (a lower-case version 8 UUID), what `{id}` in outputs' names is.
    public var id: String
    public var originalPath: String
    public var fileSize: Int64
    /// The capture date's local time (`2024-05-03T12:30:00`), for sorting; nil when undated.
    public var captureLocal: String?
    public var captureUTCOffset: Int64?
    public var captureSource: String?
    public var captureTimeZoneSource: String?
    public var captureConfidence: String?
    /// The whole capture date as JSON (`CaptureDate`): what is read back.
    public var captureJSON: String?
    public var width: Int64?
    public var height: Int64?
    public var orientation: Int64?
    public var camera: String?
    public var firstRun: Int64?
    public var lastRun: Int64?
    /// `photo` or `video`.
    public var mediaKind: String
    public var latitude: Double?
    public var longitude: Double?
    public var altitude: Double?
    public var duration: Double?
    public var videoCodec: String?
    public var bitDepth: Int64?
    public var hdrTransfer: String?
    public var audioCodec: String?
    public var contentIdentifier: String?
    public var motionOf: String?

    /// A row with its key columns; every other column empty until set.
    public init(contentHash: String, id: String, originalPath: String, fileSize: Int64, mediaKind: String) {
        self.contentHash = contentHash; self.id = id; self.originalPath = originalPath; self.fileSize = fileSize
        self.mediaKind = mediaKind
    }

    /// A column of `assets`: its name and the property it stores.
    public struct Column: @unchecked Sendable {  // closures over one property each, never changed
        /// How a store keeps a column's values.
        public enum Kind: Sendable { case text, integer, real }

        public let name: String
        public let kind: Kind
        /// Whether the column is NOT NULL.
        public let required: Bool
        fileprivate let get: (AssetRow) -> Value
        fileprivate let set: (inout AssetRow, Value) throws -> Void
    }

    /// A column's value, as a store reads or binds it.
    public enum Value: Sendable, Hashable {
        case text(String?)
        case integer(Int64?)
        case real(Double?)
    }

    /// Every column, in the table's order. Each reads and writes its property directly: key paths
    /// applied at run time showed in profiles of re-runs over 100,000 rows.
    public static let columns: [Column] = [
        requiredText("content_hash", { $0.contentHash }, { $0.contentHash = $1 }),
        requiredText("id", { $0.id }, { $0.id = $1 }),
        requiredText("original_path", { $0.originalPath }, { $0.originalPath = $1 }),
        requiredInteger("file_size", { $0.fileSize }, { $0.fileSize = $1 }),
        text("capture_local", { $0.captureLocal }, { $0.captureLocal = $1 }),
        integer("capture_utc_offset", { $0.captureUTCOffset }, { $0.captureUTCOffset = $1 }),
        text("capture_source", { $0.captureSource }, { $0.captureSource = $1 }),
        text("capture_tz_source", { $0.captureTimeZoneSource }, { $0.captureTimeZoneSource = $1 }),
        text("capture_confidence", { $0.captureConfidence }, { $0.captureConfidence = $1 }),
        text("capture_json", { $0.captureJSON }, { $0.captureJSON = $1 }),
        integer("width", { $0.width }, { $0.width = $1 }),
        integer("height", { $0.height }, { $0.height = $1 }),
        integer("orientation", { $0.orientation }, { $0.orientation = $1 }),
        text("camera", { $0.camera }, { $0.camera = $1 }),
        integer("first_run", { $0.firstRun }, { $0.firstRun = $1 }),
        integer("last_run", { $0.lastRun }, { $0.lastRun = $1 }),
        requiredText("media_kind", { $0.mediaKind }, { $0.mediaKind = $1 }),
        real("latitude", { $0.latitude }, { $0.latitude = $1 }),
        real("longitude", { $0.longitude }, { $0.longitude = $1 }),
        real("altitude", { $0.altitude }, { $0.altitude = $1 }),
        real("duration", { $0.duration }, { $0.duration = $1 }),
        text("video_codec", { $0.videoCodec }, { $0.videoCodec = $1 }),
        integer("bit_depth", { $0.bitDepth }, { $0.bitDepth = $1 }),
        text("hdr_transfer", { $0.hdrTransfer }, { $0.hdrTransfer = $1 }),
        text("audio_codec", { $0.audioCodec }, { $0.audioCodec = $1 }),
        text("content_identifier", { $0.contentIdentifier }, { $0.contentIdentifier = $1 }),
        text("motion_of", { $0.motionOf }, { $0.motionOf = $1 }),
    ]

    /// The columns' names, in order, as SQL (`content_hash, id, ...`).
    public static let columnList = columns.map(\.name).joined(separator: ", ")

    /// The row's values, in the order of `columns`.
    public var values: [Value] { Self.columns.map { $0.get(self) } }

    /// A row from its values, read by `value(column)` for each column in the order of `columns` (a
    /// NULL in a NOT NULL column is an error naming it).
    public init(reading value: (Column) throws -> Value) throws {
        self.init(contentHash: "", id: "", originalPath: "", fileSize: 0, mediaKind: "photo")
        for column in Self.columns { try column.set(&self, try value(column)) }
    }

    /// A row of `assets` whose value does not fit its column.
    public struct BadValue: Error, CustomStringConvertible {
        public var column: String
        public var description: String { "the catalog's assets table holds an unreadable value in \(column)" }
    }

    private static func text(_ name: String, _ get: @escaping @Sendable (AssetRow) -> String?,
                             _ set: @escaping @Sendable (inout AssetRow, String?) -> Void) -> Column {
        Column(name: name, kind: .text, required: false, get: { .text(get($0)) }, set: { row, value in
            guard case .text(let text) = value else { throw BadValue(column: name) }
            set(&row, text)
        })
    }

    private static func requiredText(_ name: String, _ get: @escaping @Sendable (AssetRow) -> String,
                                     _ set: @escaping @Sendable (inout AssetRow, String) -> Void) -> Column {
        Column(name: name, kind: .text, required: true, get: { .text(get($0)) }, set: { row, value in
            guard case .text(let text?) = value else { throw BadValue(column: name) }
            set(&row, text)
        })
    }

    private static func integer(_ name: String, _ get: @escaping @Sendable (AssetRow) -> Int64?,
                                _ set: @escaping @Sendable (inout AssetRow, Int64?) -> Void) -> Column {
        Column(name: name, kind: .integer, required: false, get: { .integer(get($0)) }, set: { row, value in
            guard case .integer(let number) = value else { throw BadValue(column: name) }
            set(&row, number)
        })
    }

    private static func requiredInteger(_ name: String, _ get: @escaping @Sendable (AssetRow) -> Int64,
                                        _ set: @escaping @Sendable (inout AssetRow, Int64) -> Void) -> Column {
        Column(name: name, kind: .integer, required: true, get: { .integer(get($0)) }, set: { row, value in
            guard case .integer(let number?) = value else { throw BadValue(column: name) }
            set(&row, number)
        })
    }

    private static func real(_ name: String, _ get: @escaping @Sendable (AssetRow) -> Double?,
                             _ set: @escaping @Sendable (inout AssetRow, Double?) -> Void) -> Column {
        Column(name: name, kind: .real, required: false, get: { .real(get($0)) }, set: { row, value in
            guard case .real(let number) = value else { throw BadValue(column: name) }
            set(&row, number)
        })
    }
}
