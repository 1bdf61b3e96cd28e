import Foundation

/// What kind of file each photo becomes.
public enum ExportFormat: String, Sendable, Codable, CaseIterable {
    /// For people: JPEG q85, long edge at most `longEdge`, upright, sRGB, no location.
    case jpeg
    /// The library's HEIC (re-encoded only when it must shrink or lose its location).
    case heic
    /// The original file's bytes as imported, with an XMP sidecar of what the library knows.
    case original
}

/// How exported files are named.
public enum ExportNaming: String, Sendable, Codable, CaseIterable {
    /// By capture time, as the photographer's clock showed it: `2024-05-01 18.30.12.jpg`.
    case date
    /// By the original file's name: `IMG_4520.jpg`.
    case original
    /// By position in capture order: `0001.jpg`.
    case sequence
}

/// Where the files go.
public enum ExportDestination: Sendable, Hashable {
    /// A folder (made when missing).
    case folder(URL)
    /// A ZIP archive, written streaming (ZIP64 past 4 GiB).
    case zip(URL)

    /// The folder or archive, for messages.
    public var url: URL {
        switch self {
        case .folder(let url), .zip(let url): return url
        }
    }
}

/// How photos and videos are exported.
public struct ExportSettings: Sendable, Hashable {
    /// What each photo becomes.
    public var format: ExportFormat
    /// The longest side of an exported JPEG or HEIC, in pixels; never enlarged.
    public var longEdge: Int
    /// Keep where the photos were taken (EXIF GPS, XMP location fields, maker notes, video location tags).
    public var keepLocation: Bool
    /// How files are named.
    public var naming: ExportNaming
    /// Export a Live Photo's video (or a motion photo's) beside its still, under the same name.
    public var motion: Bool
    /// Photos worked on at once.
    public var jobs: Int
    /// Images over this many pixels are refused before decoding.
    public var pixelLimit: Int

    /// JPEG quality of photos exported for people.
    public static let jpegQuality = 85
    /// The longest side of videos exported for people (1080p).
    public static let videoLongEdge = 1920
    /// x265 quality of HEICs that must be encoded again (the import's).
    public static let heicQuality = 50

    /// The defaults of `darkroom export`: JPEG, 2048 px, location removed, named by date.
    public init(format: ExportFormat = .jpeg, longEdge: Int = 2048, keepLocation: Bool = false, naming: ExportNaming = .date,
                motion: Bool = false, jobs: Int = ProcessInfo.processInfo.activeProcessorCount, pixelLimit: Int = 100_000_000) {
        self.format = format
        self.longEdge = longEdge
        self.keepLocation = keepLocation
        self.naming = naming
        self.motion = motion
        self.jobs = jobs
        self.pixelLimit = pixelLimit
    }

    /// What makes two exports of a photo the same files: a photo recorded under another key is
    /// exported again (its files replaced). Naming and jobs are not part of it.
    var key: String {
        var parts = [format.rawValue]
        if format != .original { parts.append("\(longEdge)px") }
        if format == .jpeg { parts.append("q\(Self.jpegQuality)") }
        parts.append(keepLocation ? "location" : "no-location")
        if motion { parts.append("motion") }
        return parts.joined(separator: " ")
    }

    /// The extension of a photo exported from `original` (its own, lower-cased, for `.original`).
    func photoExtension(original: String) -> String {
        switch format {
        case .jpeg: return "jpg"
        case .heic: return "heic"
        case .original: return URL(fileURLWithPath: original).pathExtension.lowercased()
        }
    }
}
