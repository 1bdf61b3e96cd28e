import DarkroomISOBMFF
import Foundation

/// Motion photos: a still with a short video in the same file, as Google (XMP `GCamera` and
/// `Container` markers) and Samsung (a trailer after JPEGs, an `mpvd` box in HEIC) write them.
///
/// Only markers and headers are read (JPEG segment headers and the XMP packet, the last blocks of
/// a Samsung trailer, HEIF box headers and the `meta` box), never the whole file. Hostile or
/// truncated files give `.none` or `.promisedButMissing`, never a crash.
public enum MotionPhoto {
    /// Where the video of the motion photo at `path` is, or that there is none, or that markers
    /// promise one that is not there. Every claim is checked: the bytes must lie inside the file
    /// and start with an MP4 `ftyp` box. Throws only when the file cannot be opened or read.
    public static func locate(path: String) throws -> MotionPhotoLocation {
        try reading(path) {
            let file = try ByteFile(path: path)
            var refusals: [String] = []
            for claim in try claims(in: file) {
                switch try claim.verified(in: file) {
                case .success(let location): return location
                case .failure(let refusal): refusals.append(refusal.reason)
                }
            }
            return refusals.isEmpty ? .none : .promisedButMissing(reason: refusals.joined(separator: "; "))
        }
    }

    /// Every claim the file's markers make about a video, the most precise first: a HEIF `mpvd`
    /// box, then a Samsung trailer, then Google's XMP.
    static func claims(in file: ByteFile) throws -> [VideoClaim] {
        let header = try file.read(at: 0, count: 16)
        if JPEGSegments.isJPEG(header) {
            let xmp = try JPEGSegments.xmpPacket(in: file).map(MotionPhotoXMP.init(parsing:))
            return [try SamsungTrailer.videoClaim(in: file)].compactMap { $0 } + (xmp?.claims(fileSize: file.size) ?? [])
        }
        if ISOBox.isISOBMFF(header) {
            let boxes = try ISOBox.topLevel(of: file)
            let xmp = try HEIFMeta.xmpPacket(of: file, boxes: boxes).map(MotionPhotoXMP.init(parsing:))
            return [mpvdClaim(boxes, fileSize: file.size), try SamsungTrailer.videoClaim(in: file)].compactMap { $0 }
                + (xmp?.claims(fileSize: file.size) ?? [])
        }
        return []
    }

    /// The top-level `mpvd` box wrapping the video of a HEIF motion photo.
    static func mpvdClaim(_ boxes: [ISOBox], fileSize: UInt64) -> VideoClaim? {
        guard let box = boxes.first(where: { $0.type == "mpvd" }) else { return nil }
        let source = "HEIF 'mpvd' box at offset \(box.offset)"
        guard box.end <= fileSize else {
            return VideoClaim(kind: .samsungHEIF, source: source, extent: .unusable(
                "it declares \(box.size) bytes but the file ends \(fileSize - box.offset) bytes after its start (truncated?)"))
        }
        return VideoClaim(kind: .samsungHEIF, source: source, extent: .bytes(offset: box.payloadOffset, length: box.payloadLength))
    }
}
