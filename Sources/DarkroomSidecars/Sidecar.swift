/// A sidecar found for a media file: what kind it is, its file name in the same folder, and how it
/// was matched, in words for the run's report.
public struct Sidecar: Hashable, Sendable {
    /// The kinds of sidecar Darkroom reads.
    public enum Kind: String, Hashable, Sendable {
        /// Google Takeout's JSON (`TakeoutMetadata`).
        case takeoutJSON
        /// An XMP sidecar from Lightroom, darktable, digiKam, Capture One... (`XMPSidecar`).
        case xmp
    }

    /// What kind of sidecar it is.
    public var kind: Kind
    /// Its file name, as listed in the folder.
    public var name: String
    /// How it was matched (`Google Takeout metadata, named after IMG_1.jpg with .supplemental-metadata, cut to 46 characters`).
    public var reason: String

    /// A sidecar of `kind` named `name`, matched as `reason` says.
    public init(kind: Kind, name: String, reason: String) {
        self.kind = kind
        self.name = name
        self.reason = reason
    }
}

/// What a file that is not a photo or video is, among the sidecars of a folder: every `.json` and
/// `.xmp` ends in one of these, with a reason a user can read.
public enum SidecarRole: Hashable, Sendable {
    /// Google Takeout metadata of these media files: the file it was written for first, then
    /// edited copies or same-named files that share it.
    case takeout(of: [String])
    /// The XMP sidecar of these media files (`photo.xmp` serves `photo.cr2` and `photo.jpg` alike).
    case xmp(of: [String])
    /// A Takeout album's `metadata.json` (or its translation): the album's title and description.
    case albumMetadata
    /// Takeout's account-wide JSON (`print-subscriptions.json`, `shared_album_comments.json`,
    /// `user-generated-memory-titles.json`).
    case takeoutAccountData
    /// A JSON file that matches no photo or video of its folder; `looksLikeMetadataOf` is the media
    /// name its own name points at, when it points at one.
    case unmatchedJSON(looksLikeMetadataOf: String?)
    /// An XMP file that matches no photo or video of its folder.
    case unmatchedXMP

    /// The role in words (`Google Takeout metadata of IMG_1.jpg`).
    public var reason: String {
        switch self {
        case .takeout(let media): return "Google Takeout metadata of \(Self.list(media))"
        case .xmp(let media): return "XMP sidecar of \(Self.list(media))"
        case .albumMetadata: return "Google Takeout album metadata (the album's title and description), not a photo's"
        case .takeoutAccountData: return "Google Takeout account data, not a photo's metadata"
        case .unmatchedJSON(let media?):
            return "JSON that matches no photo or video in its folder (its name points at \(media), which is not there)"
        case .unmatchedJSON(nil): return "JSON that matches no photo or video in its folder"
        case .unmatchedXMP: return "XMP sidecar that matches no photo or video in its folder"
        }
    }

    private static func list(_ names: [String]) -> String {
        names.count <= 1 ? names.first ?? "" : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    }
}
