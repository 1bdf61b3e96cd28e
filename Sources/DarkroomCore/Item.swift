import Foundation
import DarkroomLibrary
import DarkroomModel

/// One input file and what the pipeline has learned about it so far.
///
/// An item is handled by one thread: the runner makes it on the worker thread that passes it
/// through the steps in order, so it is not `Sendable`.
public final class Item {
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
    /// Where it was taken, when the file says (EXIF GPS, a video's ISO 6709 location).
    public var location: GeoLocation?
    /// What a video is (duration, codec, HDR): nil for photos.
    public var video: VideoFacts?
    /// Apple's Live Photo identifier (a still's maker note, a MOV's QuickTime key), when known.
    public var contentIdentifier: String?
    /// What the steps learned for finding near-duplicates and bursts: the thumbnail's fingerprint and
    /// sharpness (`thumbnail`), the burst the camera wrote (`exif-date`).
    public var similarity = SimilarityFacts()
    /// What the survey read in the file's header while it had the file open (see `SourceProber`):
    /// nil when it did not look (the pipeline pairs nothing, or the catalog remembered the answer).
    public internal(set) var probe: ProbedSource?
    /// For a Live Photo's video published as its still's motion part: the still's content hash.
    /// Such an item takes the still's id and capture date, and runs only the steps that take motion parts.
    public internal(set) var motionOf: String?
    /// Files beside it that say more about it (Takeout JSON, XMP sidecars), as discovery matched
    /// them, the most trusted of each kind first.
    public var sidecars: [AttachedSidecar] = []
    /// Files published for this item during this run.
    public internal(set) var outputs: [PublishedOutput] = []

    /// Values stages hand to later stages (such as the decoded image); dropped when the item is done.
    public var attachments = Attachments()

    /// An item for `source`; its id is derived from `contentHash` unless given (a motion part takes its still's).
    public init(source: URL, relativePath: String, contentHash: String, fileSize: Int64, modificationDate: Date, id: UUID? = nil) {
        self.source = source
        self.relativePath = relativePath
        self.contentHash = contentHash
        self.id = id ?? ContentHash.uuid(fromHex: contentHash)
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

extension ItemRecord {
    /// What a run learnt of `item`, found at `path` (the survey's string, shared rather than copied), for the collection steps.
    init(_ item: Item, foundAt path: String) {
        self.init(sourcePath: path, relativePath: item.relativePath, contentHash: item.contentHash, id: item.id,
                  captureDate: item.captureDate, pixelWidth: item.pixelWidth, pixelHeight: item.pixelHeight,
                  contentIdentifier: item.contentIdentifier)
    }
}
