internal import CHeif
import Foundation

/// Settings for HEVC-in-HEIF encoding through libheif and x265.
public struct HEIFEncodeSettings: Sendable, Equatable {
    /// libheif quality 1...100 (x265 CRF = (100 - quality) / 2).
    public var quality: Int
    /// x265 speed preset: ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow.
    public var preset: String
    /// Chroma subsampling: "420" is what every device decodes.
    public var chroma: String

    /// The x265 presets, fastest first.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]

    public init(quality: Int, preset: String, chroma: String = "420") {
        self.quality = quality
        self.preset = preset
        self.chroma = chroma
    }
}

/// Pixels to encode: 8-bit interleaved RGB or RGBA rows, tightly packed (as `Image.pixelBytes()`
/// returns them, without a copy).
public struct RGBPixels: Sendable {
    /// The packed samples (`width * height * (hasAlpha ? 4 : 3)` bytes).
    public var bytes: Data
    public var width: Int
    public var height: Int
    public var hasAlpha: Bool

    public init(bytes: Data, width: Int, height: Int, hasAlpha: Bool) {
        self.bytes = bytes
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
    }
}

/// Encodes still images to HEIC (8-bit HEVC) with libheif directly, so the x265 preset can be chosen.
public enum HEIFEncoder {
    /// Encodes `pixels` to a new file at `path`, carrying `exif` (a TIFF block, optionally with the
    /// `Exif\0\0` prefix), the ICC profile `iccProfile` and an `xmp` packet when given.
    public static func encode(_ pixels: RGBPixels, iccProfile: Data?, exif: Data?,
                              settings: HEIFEncodeSettings, to path: String, xmp: Data? = nil) throws {
        let bytesPerPixel = pixels.hasAlpha ? 4 : 3
        guard pixels.width > 0, pixels.height > 0,
              pixels.bytes.count >= pixels.width * pixels.height * bytesPerPixel else {
            throw HEIFError(operation: "encode", message: "pixel buffer does not match \(pixels.width)x\(pixels.height)")
        }
        let context = try HEIFContext()
        let image = try HEIFImage(pixels)
        if let iccProfile, !iccProfile.isEmpty {
            try iccProfile.withUnsafeBytes { raw in
                try HEIFError.check(heif_image_set_raw_color_profile(image.pointer, "prof", raw.baseAddress, raw.count),
                                    "colour profile")
            }
        }

        let encoder = try HEIFEncoderHandle(context: context)
        try HEIFError.check(heif_encoder_set_lossy_quality(encoder.pointer, Int32(settings.quality)), "quality")
        try HEIFError.check(heif_encoder_set_parameter_string(encoder.pointer, "preset", settings.preset), "preset \(settings.preset)")
        try HEIFError.check(heif_encoder_set_parameter_string(encoder.pointer, "chroma", settings.chroma), "chroma \(settings.chroma)")

        guard let options = heif_encoding_options_alloc() else {
            throw HEIFError(operation: "encode", message: "out of memory")
        }
        defer { heif_encoding_options_free(options) }
        options.pointee.save_alpha_channel = pixels.hasAlpha ? 1 : 0

        var handle: OpaquePointer?
        try HEIFError.check(heif_context_encode_image(context.pointer, image.pointer, encoder.pointer, options, &handle), "encode")
        defer { heif_image_handle_release(handle) }

        if let exif, !exif.isEmpty {
            try exif.withUnsafeBytes { raw in
                try HEIFError.check(heif_context_add_exif_metadata(context.pointer, handle, raw.baseAddress, Int32(raw.count)), "exif")
            }
        }
        if let xmp, !xmp.isEmpty { try addXMP(xmp, to: context, image: handle) }
        try HEIFError.check(heif_context_write_to_file(context.pointer, path), "write")
    }
}

/// Owns a `heif_encoder*` for HEVC.
private final class HEIFEncoderHandle {
    let pointer: OpaquePointer

    init(context: HEIFContext) throws {
        var encoder: OpaquePointer?
        try HEIFError.check(heif_context_get_encoder_for_format(context.pointer, heif_compression_HEVC, &encoder), "HEVC encoder")
        guard let encoder else { throw HEIFError(operation: "HEVC encoder", message: "no HEVC encoder in libheif") }
        pointer = encoder
    }

    deinit { heif_encoder_release(pointer) }
}

/// Owns a `heif_image*` filled from packed RGB(A) rows.
private final class HEIFImage {
    let pointer: OpaquePointer

    init(_ pixels: RGBPixels) throws {
        var image: OpaquePointer?
        let chroma = pixels.hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        try HEIFError.check(heif_image_create(Int32(pixels.width), Int32(pixels.height), heif_colorspace_RGB, chroma, &image), "image")
        guard let image else { throw HEIFError(operation: "image", message: "out of memory") }
        pointer = image
        try HEIFError.check(heif_image_add_plane(image, heif_channel_interleaved, Int32(pixels.width), Int32(pixels.height), 8), "plane")
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
            throw HEIFError(operation: "plane", message: "no interleaved plane")
        }
        let rowBytes = pixels.width * (pixels.hasAlpha ? 4 : 3)
        pixels.bytes.withUnsafeBytes { raw in
            guard let source = raw.baseAddress else { return }
            for row in 0..<pixels.height {
                (plane + row * Int(stride)).update(from: source.advanced(by: row * rowBytes).assumingMemoryBound(to: UInt8.self),
                                                   count: rowBytes)
            }
        }
    }

    deinit { heif_image_release(pointer) }
}
