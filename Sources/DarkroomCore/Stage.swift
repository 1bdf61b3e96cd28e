import Foundation
import Logging
import DarkroomModel
import DarkroomOptions

/// A per-item step of a pipeline: reads an `Item`, may add facts, attachments and published files.
///
/// How an item flows through a pipeline:
///
///     input file ──▶ [exif-date] ──▶ [resize] ──▶ [heic-encode] ──▶ [thumbnail] ──▶ catalog
///                      writes          writes        reads image      reads the
///                      .captureDate    .image        publishes .heic  source file,
///                                                                     publishes .jpg
///
/// The runner skips a step whose work unit (step, content hash, options hash, and the units of
/// the steps it reads from) is already in the catalog; a step that a pending step reads from runs
/// again to provide its value. So `reads` and `writes` must be honest.
public protocol Stage: Sendable {
    /// The stage's options, decoded and validated from the pipeline file.
    associatedtype Options: StageOptions

    /// The name used in pipeline files (`exif-date`).
    static var name: String { get }
    /// One line for `darkroom stages`.
    static var summary: String { get }
    /// What the stage needs earlier steps to have put on the item.
    static var reads: Set<ItemAspect> { get }
    /// What the stage puts on the item for later steps.
    static var writes: Set<ItemAspect> { get }
    /// The kinds of media it works on (photos, by default); other items pass it by.
    static var media: Set<MediaKind> { get }
    /// Whether it also works on a still's motion part: a Live Photo's video joined to its still,
    /// which runs only the steps that take motion parts, under the still's id and capture date
    /// (false by default).
    static var takesMotionParts: Bool { get }
    /// Reads, while the survey has each file open, what tells which files are parts of one asset (a
    /// Live Photo's still and video), for a stage that publishes motion parts; nil by default.
    static var prober: (any SourceProber)? { get }
    /// Matches sidecars (Takeout JSON, XMP) to the photos of each folder, for a stage that reads
    /// them; nil by default. Discovery then hands each photo's sidecars to the runner.
    static var sidecars: (any SidecarMatcher)? { get }

    /// Makes the stage from validated options (throw `StageSetupError` for anything left to check).
    init(options: Options) throws

    /// Starts the native libraries the stage uses (libvips, FFmpeg, libheif...), for a run with
    /// `settings`. The runner calls it on the thread that starts the run, before any worker thread,
    /// for every step of the pipeline; it must be idempotent. Nothing by default.
    static func prepare(_ settings: RunSettings) throws

    /// What this configured stage actually needs (defaults to `reads`; a stage whose output
    /// template uses no date fields, say, can need less).
    var needs: Set<ItemAspect> { get }
    /// Whether this configured stage reads a photo's sidecars (`Item.sidecars`): its unit key then
    /// includes their hashes (defaults to whether the stage matches sidecars).
    var readsSidecars: Bool { get }
    /// Where the stage would publish `item`'s files (library-relative paths), for `darkroom
    /// explain`; empty by default.
    func plannedOutputs(for item: Item, settings: RunSettings) -> [String]

    /// Does the work for one item. Throwing fails this item only; the batch goes on.
    func process(_ item: Item, context: StageContext) throws
}

extension Stage {
    public static var reads: Set<ItemAspect> { [] }
    public static var writes: Set<ItemAspect> { [] }
    public static var media: Set<MediaKind> { [.photo] }
    public static var takesMotionParts: Bool { false }
    public static var prober: (any SourceProber)? { nil }
    public static var sidecars: (any SidecarMatcher)? { nil }
    public static func prepare(_ settings: RunSettings) throws {}
    public var needs: Set<ItemAspect> { Self.reads }
    public var readsSidecars: Bool { Self.sidecars != nil }
    public func plannedOutputs(for item: Item, settings: RunSettings) -> [String] { [] }
}

/// A step that consumes all items of a run, in capture-date order, and produces outputs
/// (a time-lapse, collages). It must stream: memory may not grow with the number of items.
public protocol CollectionStage: Sendable {
    associatedtype Options: StageOptions

    static var name: String { get }
    static var summary: String { get }
    /// What the stage needs per-item steps to have put on the items (usually `.captureDate`).
    static var reads: Set<ItemAspect> { get }
    /// The kinds of media it takes (photos, by default); the runner passes it only those items.
    static var media: Set<MediaKind> { get }
    /// Whether what it makes depends on the library's catalog beyond its items (a gallery lists the
    /// outputs of other pipelines): such a step runs on every run rather than being skipped when its
    /// items are unchanged, and should publish with `CollectionContext.publishIfChanged` so that the
    /// files that come out the same are left as they are (false by default).
    static var readsLibrary: Bool { get }

    init(options: Options) throws

    /// Starts the native libraries the stage uses, before any worker thread (see `Stage.prepare`).
    static func prepare(_ settings: RunSettings) throws

    /// Consumes the items, ordered by capture date (ties by file name). Items whose per-item
    /// steps failed are not passed. Throwing fails the step, not the run's per-item work.
    func run(_ items: [ItemRecord], context: CollectionContext) throws
}

extension CollectionStage {
    public static var reads: Set<ItemAspect> { [.captureDate] }
    public static var media: Set<MediaKind> { [.photo] }
    public static var readsLibrary: Bool { false }
    public static func prepare(_ settings: RunSettings) throws {}
}

/// Something a stage can leave on an item for later stages.
public struct ItemAspect: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public init(_ name: String) { self.name = name }
    public var description: String { name }

    /// `Item.captureDate`.
    public static let captureDate = ItemAspect("capture-date")
    /// The current decoded image (an attachment).
    public static let image = ItemAspect("image")
}

/// What a collection stage learns about each item: small, so thousands fit in memory.
public struct ItemRecord: Codable, Sendable, Hashable {
    /// The file's absolute path. A run holds every photo's record at once: a path (the same string
    /// as the survey's, not a copy), where a `URL` would be an object of some 370 bytes more a photo
    /// (37 MB a run of 100,000).
    public var sourcePath: String
    public var relativePath: String
    public var contentHash: String
    public var id: UUID
    public var captureDate: CaptureDate?
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    /// Apple's Live Photo identifier, when the file has one.
    public var contentIdentifier: String?
    /// Its burst, when it is a frame of one and the step shows bursts' picks (set by the runner).
    public var burst: BurstRole?

    /// The record of the file at `sourcePath` (absolute).
    public init(sourcePath: String, relativePath: String, contentHash: String, id: UUID, captureDate: CaptureDate?,
                pixelWidth: Int? = nil, pixelHeight: Int? = nil, contentIdentifier: String? = nil) {
        self.sourcePath = sourcePath
        self.relativePath = relativePath
        self.contentHash = contentHash
        self.id = id
        self.captureDate = captureDate
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.contentIdentifier = contentIdentifier
    }

    /// The record of the file at `source`.
    public init(source: URL, relativePath: String, contentHash: String, id: UUID, captureDate: CaptureDate?,
                pixelWidth: Int? = nil, pixelHeight: Int? = nil, contentIdentifier: String? = nil) {
        self.init(sourcePath: source.path, relativePath: relativePath, contentHash: contentHash, id: id, captureDate: captureDate,
                  pixelWidth: pixelWidth, pixelHeight: pixelHeight, contentIdentifier: contentIdentifier)
    }

    /// The file, made when asked.
    public var source: URL { URL(fileURLWithPath: sourcePath, isDirectory: false) }

    /// The file name without its folder.
    public var fileName: String { Discovery.name(ofPath: sourcePath) }
    /// A photo or a video.
    public var mediaKind: MediaKind { MediaKind(fileName: fileName) }
}
