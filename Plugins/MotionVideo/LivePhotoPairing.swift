import DarkroomCore
import DarkroomExif
import DarkroomImaging
import DarkroomVideo
import DarkroomVips
import Foundation
import DarkroomModel

/// What ties a still to its parts, read by the survey from the file it has open to hash:
/// - Apple's Live Photo identifier, which ties a still to its MOV: the still's maker note (tag 0x0011,
///   exiftool's `MediaGroupUUID`) and the video's `com.apple.quicktime.content.identifier`;
/// - the camera and capture time of a still and of a RAW (EXIF Make, Model, DateTimeOriginal,
///   SubSecTimeOriginal), which tie a RAW to the camera's JPEG of the same shot.
/// Headers only (a MOV's container header, a still's EXIF through libvips, a RAW's own structures),
/// no pixel or frame decoded, and nothing kept but the identifier and the shot.
public struct LivePhotoPairing: SourceProber {
    public init() {}

    public func probe(_ file: OpenSource) -> ProbedSource {
        switch file.kind {
        case .video:
            return ProbedSource(pairingKey: (try? VideoHeader.read(descriptor: file.descriptor, path: file.url.path))?.metadata.contentIdentifier)
        case .photo where MediaKind.isRawPhoto(file.url.lastPathComponent):
            return ProbedSource(shot: CameraShot.ofRaw(at: file.url))
        case .photo:
            let header = try? Image.openHeader(descriptor: file.descriptor, path: file.url.path, failOn: ImageLoader.strictness)
            let exif = header?.exifData.flatMap { try? ExifTags(parsing: $0) }
            return ProbedSource(pairingKey: exif?.contentIdentifier,
                                shot: exif.flatMap { CameraShot(make: $0.make, model: $0.model, dateTimeOriginal: $0.dateTimeOriginal,
                                                                subSeconds: $0.subSecTimeOriginal) })
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
