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
    public struct Column: @unchecked Sendable {  // key paths and closures over them, never changed
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

    /// Every column, in the table's order.
    public static let columns: [Column] = [
        text("content_hash", \.contentHash), text("id", \.id), text("original_path", \.originalPath),
        integer("file_size", \.fileSize), text("capture_local", \.captureLocal), integer("capture_utc_offset", \.captureUTCOffset),
        text("capture_source", \.captureSource), text("capture_tz_source", \.captureTimeZoneSource),
        text("capture_confidence", \.captureConfidence), text("capture_json", \.captureJSON),
        integer("width", \.width), integer("height", \.height), integer("orientation", \.orientation), text("camera", \.camera),
        integer("first_run", \.firstRun), integer("last_run", \.lastRun), text("media_kind", \.mediaKind),
        real("latitude", \.latitude), real("longitude", \.longitude), real("altitude", \.altitude), real("duration", \.duration),
        text("video_codec", \.videoCodec), integer("bit_depth", \.bitDepth), text("hdr_transfer", \.hdrTransfer),
        text("audio_codec", \.audioCodec), text("content_identifier", \.contentIdentifier), text("motion_of", \.motionOf),
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

    private static func text(_ name: String, _ path: WritableKeyPath<AssetRow, String?>) -> Column {
        Column(name: name, kind: .text, required: false, get: { .text($0[keyPath: path]) }, set: { row, value in
            guard case .text(let text) = value else { throw BadValue(column: name) }
            row[keyPath: path] = text
        })
    }

    private static func text(_ name: String, _ path: WritableKeyPath<AssetRow, String>) -> Column {
        Column(name: name, kind: .text, required: true, get: { .text($0[keyPath: path]) }, set: { row, value in
            guard case .text(let text?) = value else { throw BadValue(column: name) }
            row[keyPath: path] = text
        })
    }

    private static func integer(_ name: String, _ path: WritableKeyPath<AssetRow, Int64?>) -> Column {
        Column(name: name, kind: .integer, required: false, get: { .integer($0[keyPath: path]) }, set: { row, value in
            guard case .integer(let number) = value else { throw BadValue(column: name) }
            row[keyPath: path] = number
        })
    }

    private static func integer(_ name: String, _ path: WritableKeyPath<AssetRow, Int64>) -> Column {
        Column(name: name, kind: .integer, required: true, get: { .integer($0[keyPath: path]) }, set: { row, value in
            guard case .integer(let number?) = value else { throw BadValue(column: name) }
            row[keyPath: path] = number
        })
    }

    private static func real(_ name: String, _ path: WritableKeyPath<AssetRow, Double?>) -> Column {
        Column(name: name, kind: .real, required: false, get: { .real($0[keyPath: path]) }, set: { row, value in
            guard case .real(let number) = value else { throw BadValue(column: name) }
            row[keyPath: path] = number
        })
    }
}
