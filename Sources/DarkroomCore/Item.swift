import Foundation

/// One input file and what the pipeline has learned about it so far.
///
/// An item is handled by one thread at a time: the runner passes it through the steps in order.
public final class Item: @unchecked Sendable {
    /// The input file (absolute, symlinks not followed).
    public let source: URL
    /// The path below the input folder it was found in, for reports and `{name}` in templates.
    public let relativePath: String
    /// SHA-256 of the photo's bytes, lower-case hex: the file's own, or for a file that is one of the
    /// library's outputs (a HEIC read to regenerate thumbnails), that of the original it was made from.
    public let contentHash: String
    /// A stable UUID derived from the content hash: the same photo always gets the same id.
    public let id: UUID
    /// Size of the file in bytes.
    public let fileSize: Int64
    /// The file's modification time.
    public let modificationDate: Date

    /// When the photo was taken (set by `exif-date`).
    public var captureDate: CaptureDate?
    /// Pixel size after orientation is applied, when a stage has looked.
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    /// EXIF orientation found in the file (1...8).
    public var orientation: Int?
    /// The camera, `Make Model`, when known.
    public var camera: String?
    /// Description of the embedded colour profile (e.g. "Display P3"), when known.
    public var colourProfile: String?
    /// Files published for this item during this run.
    public internal(set) var outputs: [PublishedOutput] = []

    /// Values stages hand to later stages (such as the decoded image); dropped when the item is done.
    public var attachments = Attachments()

    public init(source: URL, relativePath: String, contentHash: String, fileSize: Int64, modificationDate: Date) {
        self.source = source
        self.relativePath = relativePath
        self.contentHash = contentHash
        self.id = ContentHash.uuid(fromHex: contentHash)
        self.fileSize = fileSize
        self.modificationDate = modificationDate
    }

    /// The file name without its folder.
    public var fileName: String { source.lastPathComponent }
    /// A photo or a video.
    public var mediaKind: MediaKind { MediaKind(fileName: source.lastPathComponent) }
}

/// A key for a value carried on an item between stages, in the style of SwiftUI's environment keys.
public protocol AttachmentKey {
    associatedtype Value
}

/// Type-keyed storage for values stages pass along an item.
public struct Attachments {
    private var values: [ObjectIdentifier: Any] = [:]

    public init() {}

    public subscript<Key: AttachmentKey>(_ key: Key.Type) -> Key.Value? {
        get { values[ObjectIdentifier(key)] as? Key.Value }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// Drops every value (the runner does this when an item is finished, to release pixels).
    public mutating func removeAll() { values.removeAll() }
}

/// A file a stage published into the library.
public struct PublishedOutput: Codable, Sendable, Hashable {
    /// The step that made it.
    public var step: String
    /// Path relative to the library root.
    public var path: String
    /// Bytes written.
    public var size: Int64
    /// SHA-256 of the bytes, lower-case hex (what `catalog verify` checks).
    public var sha256: String

    public init(step: String, path: String, size: Int64, sha256: String) {
        self.step = step
        self.path = path
        self.size = size
        self.sha256 = sha256
    }
}
