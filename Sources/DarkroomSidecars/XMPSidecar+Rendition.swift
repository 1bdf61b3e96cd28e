import DarkroomXMP
import Foundation

extension XMPSidecar {
    /// Properties that describe the original file's pixels, not the photo: wrong in a converted
    /// copy whose pixels are upright and resized (a viewer would rotate it twice).
    static let pixelProperties: [XMPName] = [
        XMPName(XMPNamespace.tiff, "Orientation"), XMPName(XMPNamespace.tiff, "ImageWidth"), XMPName(XMPNamespace.tiff, "ImageLength"),
        XMPName(XMPNamespace.exif, "PixelXDimension"), XMPName(XMPNamespace.exif, "PixelYDimension"),
    ]

    /// The XMP of a converted copy of the photo (a library HEIC): the photo's own packet
    /// (`embedded`, read leniently: a damaged one keeps what it could) with every property of the
    /// sidecar added, the sidecar winning (ratings, keywords, titles, descriptions, people survive),
    /// and without the properties of the original's pixels. Throws `SidecarError` when the sidecar
    /// is not a readable packet.
    public static func mergedForRendition(embedded: Data?, sidecar: Data) throws -> Data {
        let newer = try packet(sidecar, what: "XMP sidecar")
        var merged = embedded.map { XMPPacket(lenient: [UInt8]($0)) }?.merging(newer) ?? newer
        for name in pixelProperties { merged[name] = nil }
        return merged.serialized()
    }
}
