import DarkroomCore
import DarkroomModel
import DarkroomISOBMFF
import DarkroomVips
import Foundation

/// What the photo's own file says beyond its EXIF: its XMP packet and its IPTC-IIM block.
///
/// libvips reads both for JPEG, PNG, WebP and TIFF (`xmp-data`, `iptc-data`); for HEIF files
/// (HEIC, AVIF) libvips 8.14 gives no XMP, so it is read from the file's XMP item through the
/// `meta` box.
struct OwnMetadata {
    /// The XMP packet, if the file has one.
    var xmp: Data?
    /// The IPTC-IIM block (or the Photoshop resource block holding it), if the file has one.
    var iptc: Data?
    /// Whether the file is a HEIF file, whose orientation libheif has already applied when the
    /// pixels were decoded.
    var isHEIF: Bool

    /// Reads what the source file of `header` (opened by libvips, pixels not decoded) carries.
    init(source: URL, header: Image) throws {
        iptc = header.blob("iptc-data")
        isHEIF = header.loader == "heifload"
        xmp = header.xmpData
        guard xmp == nil, isHEIF else { return }
        do {
            xmp = try HEIFMeta.xmpPacket(ofFileAt: source.path).map { Data($0) }
        } catch let error as ISOBMFFError {
            throw StageError("cannot read the photo's XMP: \(error.reason)")
        }
    }
}
