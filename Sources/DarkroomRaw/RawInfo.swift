internal import CLibRaw
import Foundation

/// What LibRaw identified in a RAW file before decoding any pixel.
///
/// Camera names are LibRaw's (`Nikon` `D70`, cleaned of the makers' spellings); the file's own
/// EXIF strings (`NIKON CORPORATION` `NIKON D70`) are in `RawMetadata`.
public struct RawInfo: Sendable, Equatable {
    /// The maker, as LibRaw names it (`Canon`, `Nikon`, `Fujifilm`).
    public var make: String
    /// The model, as LibRaw names it (`EOS 350D`, `D70`).
    public var model: String
    /// The lens LibRaw found (EXIF LensModel or the maker notes), if any.
    public var lens: String?
    /// The sensor data's width, masked borders included.
    public var rawWidth: Int
    /// The sensor data's height, masked borders included.
    public var rawHeight: Int
    /// The width of a full-size development, upright (after `orientation` and the pixel aspect ratio).
    public var outputWidth: Int
    /// The height of a full-size development, upright.
    public var outputHeight: Int
    /// How the camera was held, as an EXIF orientation: 1, 3 (180°), 6 (90° clockwise) or 8 (90°
    /// anticlockwise); LibRaw's `sizes.flip`. Developed pixels come out upright already; a preview
    /// needs turning by this.
    public var orientation: Int
    /// The ISO speed, when the file records it.
    public var iso: Double?
    /// Colour channels of the sensor (3 for RGB Bayer and X-Trans, 4 for CMYG, 1 for monochrome).
    public var colours: Int
    /// The DNG version (e.g. 0x01040000), or nil for a camera maker's own format.
    public var dngVersion: Int?
    /// The width of the embedded preview LibRaw chose, as the file's header says (0 when unknown).
    public var previewWidth: Int
    /// The height of the embedded preview, as the file's header says (0 when unknown).
    public var previewHeight: Int
    /// Whether the file's header names an embedded preview (`preview()` tells whether it is readable).
    public var hasPreview: Bool

    init(_ handle: UnsafeMutablePointer<libraw_data_t>) {
        make = String(cString: darkroom_libraw_make(handle))
        model = String(cString: darkroom_libraw_model(handle))
        let lensName = String(cString: darkroom_libraw_lens(handle)).trimmingCharacters(in: .whitespaces)
        lens = lensName.isEmpty ? nil : lensName
        let sizes = handle.pointee.sizes
        rawWidth = Int(sizes.raw_width)
        rawHeight = Int(sizes.raw_height)
        orientation = RawInfo.exifOrientation(flip: Int(sizes.flip))
        var width = Int(sizes.width), height = Int(sizes.height)
        let aspect = Double(sizes.pixel_aspect)
        if aspect > 0, aspect < 0.995 { height = Int((Double(height) / aspect).rounded()) }
        if aspect > 1.005 { width = Int((Double(width) * aspect).rounded()) }
        (outputWidth, outputHeight) = [5, 6, 7, 8].contains(orientation) ? (height, width) : (width, height)
        let speed = handle.pointee.other.iso_speed
        iso = speed > 0 ? Double(speed) : nil
        colours = Int(handle.pointee.idata.colors)
        let dng = handle.pointee.idata.dng_version
        dngVersion = dng > 0 ? Int(dng) : nil
        let thumbnail = handle.pointee.thumbnail
        previewWidth = Int(thumbnail.twidth)
        previewHeight = Int(thumbnail.theight)
        hasPreview = thumbnail.tlength > 0
    }

    /// LibRaw's `flip` (dcraw's code: bit 0 mirrors horizontally, bit 1 vertically, bit 2 transposes)
    /// as the EXIF orientation that displays the sensor data upright.
    static func exifOrientation(flip: Int) -> Int {
        // dcraw reads EXIF orientation o as flip "50132467"[o & 7]; this is its inverse.
        let table = [0: 1, 1: 2, 2: 4, 3: 3, 4: 5, 5: 8, 6: 6, 7: 7]
        return table[flip & 7] ?? 1
    }
}
