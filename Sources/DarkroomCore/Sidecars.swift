import Foundation
import DarkroomModel

/// A file beside a photo or video that says more about it (Google Takeout's JSON, an XMP sidecar),
/// matched to it by discovery and read by the steps that read sidecars.
///
/// A sidecar is part of its photo's input: the survey hashes it, and the unit key of every step
/// that reads sidecars folds its hash in, so editing a sidecar makes those steps (and the steps
/// after them) run again.
public struct AttachedSidecar: Codable, Sendable, Hashable {
    /// The sidecar file.
    public var url: URL
    /// What kind of sidecar it is, as the matcher names it (`takeout-json`, `xmp`).
    public var kind: String
    /// How it was matched to its photo, in words (`XMP sidecar named after the whole file name`).
    public var reason: String
    public var size: Int64
    public var modificationNanoseconds: Int64
    public var inode: UInt64
    /// SHA-256 of its bytes, set by the survey; nil when it could not be read (the step reading it
    /// reports why).
    public var contentHash: String?

    /// A sidecar found at `url` with the file facts `info`.
    public init(url: URL, kind: String, reason: String, info: FileInfo, contentHash: String? = nil) {
        self.url = url
        self.kind = kind
        self.reason = reason
        size = info.size
        modificationNanoseconds = info.modificationNanoseconds
        inode = info.id.inode
        self.contentHash = contentHash
    }

    /// The file name without its folder.
    public var fileName: String { url.lastPathComponent }

    /// What the unit keys of sidecar-reading steps fold in for a photo's sidecars: "" when it has
    /// none, so the keys of photos without sidecars are those of earlier versions.
    public static func digest(_ sidecars: [AttachedSidecar]) -> String {
        guard !sidecars.isEmpty else { return "" }
        return ContentHash.of(sidecars.map { "\($0.kind)=\($0.fileName)@\($0.contentHash ?? "unreadable")" }.joined(separator: ","))
    }
}

/// Matches sidecars to the photos and videos of a folder. A stage that reads sidecars supplies one
/// (`Stage.sidecars`); discovery asks it once per folder, with the folder's file names.
public protocol SidecarMatcher: Sendable {
    /// Kinds of sidecar every file of an export has (Google Takeout's JSON): when a run reads some,
    /// the photos without one are listed in its report.
    var expectedKinds: Set<String> { get }
    /// Indexes one folder's file names.
    func index(folder names: [String]) -> any FolderSidecars
}

/// The sidecars of one folder, as a `SidecarMatcher` indexed them.
public protocol FolderSidecars {
    /// The sidecars of the media file `mediaName`, the most trusted of each kind first.
    func sidecars(of mediaName: String) -> [SidecarMatch]
    /// What the file `name` is when it is a sidecar no input of the pipeline takes (an album's
    /// metadata, a JSON or XMP matching nothing, the sidecar of a RAW photo), or nil when it is no
    /// sidecar at all. `kind` counts it in the summary (`Takeout album metadata file`).
    func passedOver(_ name: String) -> (reason: String, kind: String)?
}

/// One sidecar of a media file: its name in the same folder, its kind and how it was matched.
public struct SidecarMatch: Sendable, Hashable {
    public var name: String
    public var kind: String
    public var reason: String

    /// A sidecar named `name` of `kind`, matched as `reason` says.
    public init(name: String, kind: String, reason: String) {
        self.name = name
        self.kind = kind
        self.reason = reason
    }
}
