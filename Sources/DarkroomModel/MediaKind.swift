import Foundation

/// Whether a file is a still photo or a video, told by its extension. A per-item step runs only on
/// the kinds its stage takes (`Stage.media`); a file of a kind no step takes is passed over.
public enum MediaKind: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case photo
    case video

    /// Extensions of the video containers a camera roll holds (QuickTime, MPEG-4, 3GPP, AVCHD, AVI,
    /// Matroska, WebM), lower case.
    public static let videoExtensions: Set<String> = ["mov", "mp4", "m4v", "3gp", "mts", "m2ts", "avi", "mkv", "webm"]

    /// Extensions of the RAW photo formats Darkroom decodes (LibRaw 0.20, Debian 12's build), lower
    /// case. Sigma's X3F is left out: Debian's LibRaw 0.20 is built without X3F support
    /// (`libraw_open_file` says "unsupported"), although its dates can be read.
    public static let rawPhotoExtensions: [String] = [
        "cr2", "cr3", "crw",            // Canon
        "nef", "nrw",                   // Nikon
        "arw", "sr2", "srf",            // Sony
        "dng",                          // Adobe DNG: Leica, Pentax, Ricoh, iPhone ProRAW, Google Pixel...
        "raf",                          // Fujifilm
        "orf",                          // Olympus / OM System
        "rw2", "rwl",                   // Panasonic, Leica
        "pef",                          // Pentax
        "srw",                          // Samsung
        "3fr", "fff",                   // Hasselblad
        "iiq",                          // Phase One
        "mrw",                          // Minolta
        "kdc", "dcr",                   // Kodak
        "erf",                          // Epson
        "mef",                          // Mamiya
        "mos",                          // Leaf
        "raw",                          // Panasonic and Leica before RW2, Kyocera (Contax N Digital)
    ]

    /// Extensions of RAW formats whose metadata Darkroom reads (`RawMetadata`) but Debian 12's LibRaw
    /// does not decode, lower case: Sigma's X3F.
    public static let undecodedRawPhotoExtensions: Set<String> = ["x3f"]

    /// The kind of a file named `fileName` (a name or a path), by its extension.
    public init(fileName: String) {
        self = MediaKind.videoExtensions.contains(MediaKind.fileExtension(of: fileName)) ? .video : .photo
    }

    /// Whether a file named `fileName` (a name or a path) is a RAW photo, by its extension (any case).
    public static func isRawPhoto(_ fileName: String) -> Bool { rawPhotoExtensionSet.contains(fileExtension(of: fileName)) }

    private static let rawPhotoExtensionSet = Set(rawPhotoExtensions)

    /// The extension of a file named `fileName` (a name or a path), lower case, without the dot; ""
    /// when it has none (a dot file's name is not an extension). Read from the name's last bytes:
    /// asked of every file of every run, where `NSString.pathExtension` showed in profiles.
    public static func fileExtension(of fileName: String) -> String {
        let bytes = fileName.utf8
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), !bytes[dot...].contains(UInt8(ascii: "/")),
              dot != bytes.startIndex, bytes[bytes.index(before: dot)] != UInt8(ascii: "/") else { return "" }
        return String(decoding: bytes[bytes.index(after: dot)...], as: UTF8.self).lowercased()
    }

    public var description: String { rawValue }

    /// "photos", "videos".
    public var plural: String { rawValue + "s" }
}
