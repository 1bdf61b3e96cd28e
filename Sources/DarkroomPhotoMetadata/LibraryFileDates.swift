import DarkroomExif
import DarkroomISOBMFF
import DarkroomModel
import DarkroomXMP
import Foundation

/// Sets the capture date a library file carries, without re-encoding anything: in a HEIC, the
/// Exif item's DateTimeOriginal, OffsetTimeOriginal, SubSecTimeOriginal (and the digitized time's)
/// and the XMP item's `exif:DateTimeOriginal`, `xmp:CreateDate`, `photoshop:DateCreated`, each item
/// added when the file has none; in an XMP sidecar, the same XMP properties. Setting the date a
/// file already carries gives back the same bytes.
public enum LibraryFileDates {
    /// The file extensions of the library files that carry a capture date.
    public static let heifExtensions: Set<String> = ["heic", "heif", "hif", "avif"]
    public static let xmpExtension = "xmp"

    /// Whether the library file at `path` carries a capture date this rewrites (by its extension).
    public static func carriesDate(_ path: String) -> Bool {
        let ext = (path as NSString).pathExtension.lowercased()
        return heifExtensions.contains(ext) || ext == xmpExtension
    }

    /// The file `bytes` (a HEIF file, or an XMP sidecar, told by `path`'s extension) carrying `date`.
    /// Throws `LibraryFileDatesError` naming the file when it cannot be rewritten.
    public static func rewriting(_ bytes: [UInt8], path: String, to date: CaptureDate) throws -> [UInt8] {
        do {
            if (path as NSString).pathExtension.lowercased() == xmpExtension {
                var packet = try XMPPacket(data: Data(bytes))
                packet.setCaptureDate(date)
                return [UInt8](packet.serialized())
            }
            return try rewritingHEIF(bytes, to: date)
        } catch let error as ISOBMFFError {
            throw LibraryFileDatesError(path: path, reason: error.reason)
        } catch let error as XMPError {
            throw LibraryFileDatesError(path: path, reason: "not a readable XMP packet: \(error)")
        }
    }

    /// A HEIF file's Exif and XMP items carrying `date`.
    static func rewritingHEIF(_ bytes: [UInt8], to date: CaptureDate) throws -> [UInt8] {
        let boxes = try ISOBox.topLevel(of: bytes)
        guard let meta = try HEIFMeta.read(from: bytes, boxes: boxes) else { throw ISOBMFFError(reason: "not a HEIF file: no 'meta' box") }
        let exifItem = try meta.exifItem.map { try meta.data(of: $0.id, in: bytes, limit: UInt64(ByteFile.maximumRead)) }
        var xmp = try meta.xmpItem.map { XMPPacket(lenient: try meta.data(of: $0.id, in: bytes, limit: HEIFMeta.maximumXMP)) } ?? XMPPacket()
        xmp.setCaptureDate(date)
        return try HEIFMetadataPatch.apply(to: bytes, exif: HEIFExifItem.settingDates(date.exifTags, in: exifItem),
                                           xmp: [UInt8](xmp.serialized()))
    }
}

/// A library file whose dates cannot be rewritten: the file and why.
public struct LibraryFileDatesError: Error, CustomStringConvertible, Sendable {
    /// The file, as named to the rewrite.
    public var path: String
    /// Why.
    public var reason: String
    /// `path: cannot set its dates: reason`.
    public var description: String { "\(path): cannot set its capture date: \(reason)" }
}

/// A HEIF Exif item: a 4-byte big-endian offset from its end to the TIFF header, then the block
/// (usually `Exif\0\0` and TIFF).
enum HEIFExifItem {
    /// The item `item` (nil: a new one) with its dates set to `date`.
    static func settingDates(_ date: ExifDateTags, in item: [UInt8]?) -> [UInt8] {
        let body = item.flatMap { $0.count > 4 ? Data($0.dropFirst(4)) : nil }
        let edited = ExifBlob.settingDates(date, in: body)
        let offset = ExifBlob.tiffHeaderOffset(in: edited) ?? 0
        return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: offset >> $0) } + [UInt8](edited)
    }
}
