import DarkroomCore
import DarkroomExif
import DarkroomImaging
import DarkroomVideo
import DarkroomVips
import Foundation
import DarkroomModel

/// Apple's Live Photo identifier, which ties a still to its MOV: the still's maker note (tag 0x0011,
/// exiftool's `MediaGroupUUID`) and the video's `com.apple.quicktime.content.identifier`. Read by
/// the survey from the file it has open to hash: headers only (a MOV's container header, a still's
/// EXIF through libvips), no pixel or frame decoded, and nothing kept but the identifier.
public struct LivePhotoPairing: SourceProber {
    public init() {}

    public func probe(_ file: OpenSource) -> ProbedSource {
        switch file.kind {
        case .video:
            return ProbedSource(pairingKey: (try? VideoHeader.read(descriptor: file.descriptor, path: file.url.path))?.metadata.contentIdentifier)
        case .photo:
            let header = try? Image.openHeader(descriptor: file.descriptor, path: file.url.path, failOn: ImageLoader.strictness)
            return ProbedSource(pairingKey: header.flatMap { Self.identifier(inEXIF: $0.exifData) })
        }
    }

    /// The identifier in a still's EXIF maker note, or nil (opens the file for its header).
    static func stillIdentifier(of file: URL) -> String? {
        guard let header = try? ImageLoader.header(of: file, pixelLimit: Int.max) else { return nil }
        return identifier(inEXIF: header.exifData)
    }

    private static func identifier(inEXIF exif: Data?) -> String? {
        exif.flatMap { try? ExifTags(parsing: $0) }?.contentIdentifier
    }
}
