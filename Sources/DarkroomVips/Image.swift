internal import CVips
import Foundation

/// An immutable libvips image. Owns its `VipsImage*` and unrefs it in `deinit`.
///
/// Operations return new images; pixels are computed lazily when an image is written. Nothing
/// changes a `VipsImage` once an `Image` holds it: an operation that would work in place (drawing,
/// setting metadata) works on a fresh copy, because `vips_image_copy_memory` and friends hand back the
/// same object when they can, and another thread may be reading it.
// Sendable: a VipsImage is immutable once made (see above) and libvips documents reading one from
// several threads as safe.
public final class Image: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<CVips.VipsImage>
    /// The file this image was decoded from and how, if any: a failed operation's reason is found by
    /// loading it again alone (see `Vips.failure(of:source:)`).
    let source: Source?

    init(taking pointer: UnsafeMutablePointer<CVips.VipsImage>, source: Source? = nil) {
        self.pointer = pointer
        self.source = source
    }

    deinit { darkroom_vips_unref(pointer) }

    /// How strict decoding is: `.warning` turns truncated or corrupt data into errors.
    public enum FailOn: Sendable {
        case none, truncated, error, warning

        var c: VipsFailOn {
            switch self {
            case .none: return VIPS_FAIL_ON_NONE
            case .truncated: return VIPS_FAIL_ON_TRUNCATED
            case .error: return VIPS_FAIL_ON_ERROR
            case .warning: return VIPS_FAIL_ON_WARNING
            }
        }
    }

    /// Which region a cropping thumbnail keeps.
    public enum Crop: String, Sendable, CaseIterable, Codable {
        case none, centre, attention, entropy

        var c: VipsInteresting {
            switch self {
            case .none: return VIPS_INTERESTING_NONE
            case .centre: return VIPS_INTERESTING_CENTRE
            case .attention: return VIPS_INTERESTING_ATTENTION
            case .entropy: return VIPS_INTERESTING_ENTROPY
            }
        }
    }

    /// Opens a file lazily: reads the header and metadata, decodes no pixels until they are needed.
    /// A TIFF's EXIF (which libvips 8.14 does not read) is attached as `exif-data`.
    public static func open(_ path: String, sequential: Bool = false, failOn: FailOn = .error) throws -> Image {
        try Vips.requireStarted("load")
        try Vips.checkLoader(for: path, operation: "load")
        let source = Source(path: path, load: .open(sequential: sequential, failOn: failOn))
        guard let p = Vips.calling({ source.reload() }) else { throw Vips.failure(of: "load", source: source) }
        attachTIFFExif(to: p, path: path)
        return Image(taking: p, source: source)
    }

    /// Shrink-on-load thumbnail of a file: fits inside `width` x `height` (cropping when `crop` is not
    /// `.none`), never upscales, and auto-rotates by EXIF orientation unless `autoRotate` is false.
    /// `exportProfile` ("srgb", "p3" or an ICC file) converts colour on purpose; nil keeps the profile.
    /// Pass one only for a file that carries a profile (`ColourHandling.exportProfile(for:)` decides):
    /// libvips 8.14 shifts the colours of untagged pixels it is asked to export (sRGB 30,60,220 came
    /// out as 78,47,221), where leaving them alone keeps them as they are, sRGB.
    public static func thumbnail(_ path: String, width: Int, height: Int, crop: Crop = .none,
                                 failOn: FailOn = .error, autoRotate: Bool = true,
                                 exportProfile: String? = nil) throws -> Image {
        try Vips.requireStarted("thumbnail")
        try Vips.checkLoader(for: path, operation: "thumbnail")
        let source = Source(path: path, load: .thumbnail(width: width, height: height, crop: crop, failOn: failOn,
                                                          autoRotate: autoRotate, exportProfile: exportProfile))
        guard let out = Vips.calling({ source.reload() }) else { throw Vips.failure(of: "thumbnail", source: source) }
        attachTIFFExif(to: out, path: path)
        return Image(taking: out, source: source)
    }

    /// Gives a TIFF just loaded from `path` (no other holder yet) its EXIF block, which libvips 8.14's
    /// tiffload leaves out (see `TIFFExif`); other formats and TIFFs without EXIF are left as they are.
    private static func attachTIFFExif(to image: UnsafeMutablePointer<CVips.VipsImage>, path: String) {
        guard let loader = darkroom_vips_loader(image), String(cString: loader) == "tiffload",
              darkroom_vips_has_field(image, "exif-data") == 0, let block = TIFFExif.block(ofFile: path) else { return }
        block.withUnsafeBytes { darkroom_vips_set_blob_copy(image, "exif-data", $0.baseAddress, $0.count) }
    }

    /// The image a libvips operation made (`result` 0), or its failure (see `Vips.failure(of:source:)`).
    static func wrap(_ result: Int32, _ out: UnsafeMutablePointer<CVips.VipsImage>?, _ operation: String,
                     source: Source? = nil) throws -> Image {
        guard result == 0, let out else {
            if let out { darkroom_vips_unref(out) }
            throw Vips.failure(of: operation, source: source)
        }
        return Image(taking: out, source: source)
    }

    /// Runs a libvips operation that produces one image from this one.
    func derive(_ operation: String, _ body: (UnsafeMutablePointer<CVips.VipsImage>, UnsafeMutablePointer<UnsafeMutablePointer<CVips.VipsImage>?>) -> Int32) throws -> Image {
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        let result = Vips.calling { body(pointer, &out) }
        return try Image.wrap(result, out, operation, source: source)
    }

    // MARK: Header

    /// Width in pixels.
    public var width: Int { Int(vips_image_get_width(pointer)) }
    /// Height in pixels.
    public var height: Int { Int(vips_image_get_height(pointer)) }
    /// Number of bands (3 for RGB, 4 with alpha, 1 for grey).
    public var bands: Int { Int(vips_image_get_bands(pointer)) }
    /// Whether the last band is alpha.
    public var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }
    /// Whether samples are 8-bit unsigned.
    public var isEightBit: Bool { vips_image_get_format(pointer) == VIPS_FORMAT_UCHAR }
    /// EXIF orientation 1...8 as libvips reports it (1 when absent or already applied).
    public var orientation: Int {
        var value: Int32 = 1
        if darkroom_vips_has_field(pointer, "orientation") != 0 {
            _ = vips_image_get_int(pointer, "orientation", &value)
        }
        return (1...8).contains(Int(value)) ? Int(value) : 1
    }
    /// The loader libvips chose (`jpegload`, `heifload`, `pngload`, `webpload`, ...).
    public var loader: String? { darkroom_vips_loader(pointer).map { String(cString: $0) } }

    /// A binary metadata field such as `exif-data`, `xmp-data` or `icc-profile-data`.
    public func blob(_ name: String) -> Data? {
        guard darkroom_vips_has_field(pointer, name) != 0 else { return nil }
        var data: UnsafeRawPointer?
        var length = 0
        guard darkroom_vips_get_blob(pointer, name, &data, &length) == 0, let data, length > 0 else { return nil }
        return Data(bytes: data, count: length)
    }

    /// A string metadata field, if present.
    public func string(_ name: String) -> String? {
        guard darkroom_vips_has_field(pointer, name) != 0 else { return nil }
        var value: UnsafePointer<CChar>?
        guard darkroom_vips_get_string(pointer, name, &value) == 0, let value else { return nil }
        return String(cString: value)
    }

    /// The raw EXIF block (starting `Exif\0\0`), as found in JPEG, HEIC, PNG, WebP and AVIF files.
    public var exifData: Data? { blob("exif-data") }
    /// The raw XMP packet.
    public var xmpData: Data? { blob("xmp-data") }
    /// The embedded ICC colour profile.
    public var iccProfile: Data? { blob("icc-profile-data") }
}
