import DarkroomCore
import DarkroomExif
import DarkroomImaging
import DarkroomVideo
import Foundation
import DarkroomModel

/// Apple's Live Photo identifier, which ties a still to its MOV: the still's maker note (tag 0x0011,
/// exiftool's `MediaGroupUUID`) and the video's `com.apple.quicktime.content.identifier`. Headers
/// only: no pixel or frame is decoded.
public struct LivePhotoPairing: PairingReader {
    public init() {}

    public func pairingKey(of file: URL, kind: MediaKind) -> String? {
        switch kind {
        case .video:
            return (try? VideoInfo.read(path: file.path, pixelLimit: Int.max))?.metadata.contentIdentifier
        case .photo:
            return Self.stillIdentifier(of: file)
        }
    }

    /// The identifier in a still's EXIF maker note, or nil.
    static func stillIdentifier(of file: URL) -> String? {
        guard let header = try? ImageLoader.header(of: file, pixelLimit: Int.max), let exif = header.exifData else { return nil }
        return (try? ExifTags(parsing: exif))?.contentIdentifier
    }
}
