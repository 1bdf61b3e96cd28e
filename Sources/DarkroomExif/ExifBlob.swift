import Foundation

/// Edits on a raw EXIF blob that leave every other byte as it was.
///
/// libexif re-serialises the whole block when saving, which can move or mangle maker notes; these
/// edits patch bytes in place instead, so everything they do not touch survives exactly.
public enum ExifBlob {
    /// The TIFF tag of Orientation in IFD0.
    static let orientationTag: UInt16 = 0x0112

    /// Returns `blob` byte for byte, except that IFD0's Orientation (tag 0x0112) is set to 1.
    ///
    /// Use it when writing pixels that have already been turned upright, so viewers do not
    /// rotate them a second time. The blob may start with `Exif\0\0` or be bare TIFF, in either
    /// byte order. When there is no orientation tag, or the blob is not well-formed enough to
    /// find it safely, the blob is returned unchanged.
    public static func resettingOrientation(_ blob: Data) -> Data {
        guard var tiff = TIFFBytes(blob), let ifd = tiff.ifd0Offset,
              let count = tiff.uint16(atTIFFOffset: ifd) else { return blob }
        for index in 0..<Int(count) {
            let entry = ifd + 2 + 12 * index
            guard let tag = tiff.uint16(atTIFFOffset: entry),
                  let type = tiff.uint16(atTIFFOffset: entry + 2),
                  let components = tiff.uint32(atTIFFOffset: entry + 4) else { return blob }
            guard tag == orientationTag else { continue }
            let valueField = entry + 8
            switch (type, components) {
            case (3, 1...2):  // SHORT, stored inline in the value field
                guard tiff.setUInt16(1, atTIFFOffset: valueField) else { return blob }
            case (4, 1):  // LONG: out of specification, but seen in the wild
                guard tiff.setUInt32(1, atTIFFOffset: valueField) else { return blob }
            default:
                return blob
            }
            return Data(tiff.bytes)
        }
        return blob
    }
}
