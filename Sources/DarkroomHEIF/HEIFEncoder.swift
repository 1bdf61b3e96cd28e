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
    /// x265 options applied over the preset, passed through libheif as `x265:NAME` (e.g. `sao: "1"`).
    public var x265Options: [String: String]
    /// Threads x265 may use for this image. 1 runs the whole encode on one thread (no worker pool, no
    /// wavefront rows), which is the cheapest per photo when other photos keep the other cores busy.
    public var threads: Int

    /// The x265 presets, fastest first.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]

    public init(quality: Int, preset: String, chroma: String = "420", x265Options: [String: String] = [:], threads: Int = 1) {
        self.quality = quality
        self.preset = preset
        self.chroma = chroma
        self.x265Options = x265Options
        self.threads = max(1, threads)
    }

    /// The x265 options libheif receives: the tuning, then the thread layout (one frame, so one frame
    /// thread; a pool only when more than one thread is allowed).
    var x265Parameters: [(name: String, value: String)] {
        var parameters = x265Options.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        parameters.append((name: "frame-threads", value: "1"))
        parameters.append((name: "pools", value: threads == 1 ? "none" : String(threads)))
        return parameters
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
    /// `Exif\0\0` prefix), the ICC profile `iccProfile` and an `xmp` packet when given. With
    /// `thumbnail`, those pixels (already scaled, same orientation) are stored as the image's thumbnail
    /// item, encoded with the same settings and ICC profile, so readers that show the thumbnail show
    /// the same colours.
    public static func encode(_ pixels: RGBPixels, iccProfile: Data?, exif: Data?,
                              settings: HEIFEncodeSettings, to path: String, xmp: Data? = nil,
                              thumbnail: RGBPixels? = nil) throws {
        let context = try HEIFContext()
        let image = try HEIFImage(pixels, iccProfile: iccProfile)
        let encoder = try HEIFEncoderHandle(context: context, settings: settings)
        let options = try HEIFEncodingOptions(alpha: pixels.hasAlpha)

        var handle: OpaquePointer?
        try HEIFError.check(heif_context_encode_image(context.pointer, image.pointer, encoder.pointer, options.pointer, &handle), "encode")
        defer { heif_image_handle_release(handle) }

        if let thumbnail {
            let small = try HEIFImage(thumbnail, iccProfile: iccProfile)
            var thumbnailHandle: OpaquePointer?
            try HEIFError.check(heif_context_encode_image(context.pointer, small.pointer, encoder.pointer, options.pointer, &thumbnailHandle),
                                "encode thumbnail")
            defer { heif_image_handle_release(thumbnailHandle) }
            // libheif 1.15 hands its two handles to HeifContext::assign_thumbnail in the reverse order of
            // the declaration (master, thumbnail): passed as declared, the photo became the thumbnail's
            // thumbnail. EmbeddedThumbnailTests reads the relation back, so a libheif that fixes it shows.
            try HEIFError.check(heif_context_assign_thumbnail(context.pointer, thumbnailHandle, handle), "thumbnail")
            // Encoding an image makes it the primary one only when it is the first; say so anyway.
            try HEIFError.check(heif_context_set_primary_image(context.pointer, handle), "primary image")
        }

        if let exif, !exif.isEmpty {
            try exif.withUnsafeBytes { raw in
                try HEIFError.check(heif_context_add_exif_metadata(context.pointer, handle, raw.baseAddress, Int32(raw.count)), "exif")
            }
        }
        if let xmp, !xmp.isEmpty { try addXMP(xmp, to: context, image: handle) }
        try HEIFError.check(heif_context_write_to_file(context.pointer, path), "write")
    }
}

/// Owns a `heif_encoder*` for HEVC, configured with `settings`.
final class HEIFEncoderHandle {
    let pointer: OpaquePointer

    init(context: HEIFContext, settings: HEIFEncodeSettings) throws {
        var encoder: OpaquePointer?
        try HEIFError.check(heif_context_get_encoder_for_format(context.pointer, heif_compression_HEVC, &encoder), "HEVC encoder")
        guard let encoder else { throw HEIFError(operation: "HEVC encoder", message: "no HEVC encoder in libheif") }
        pointer = encoder
        try HEIFError.check(heif_encoder_set_lossy_quality(encoder, Int32(settings.quality)), "quality")
        try HEIFError.check(heif_encoder_set_parameter_string(encoder, "preset", settings.preset), "preset \(settings.preset)")
        try HEIFError.check(heif_encoder_set_parameter_string(encoder, "chroma", settings.chroma), "chroma \(settings.chroma)")
        for (name, value) in settings.x265Parameters {
            try HEIFError.check(heif_encoder_set_parameter_string(encoder, "x265:" + name, value), "x265 option \(name)=\(value)")
        }
    }

    deinit { heif_encoder_release(pointer) }
}

/// Owns a `heif_encoding_options*`.
final class HEIFEncodingOptions {
    let pointer: UnsafeMutablePointer<heif_encoding_options>

    init(alpha: Bool) throws {
        guard let options = heif_encoding_options_alloc() else { throw HEIFError(operation: "encode", message: "out of memory") }
        pointer = options
        options.pointee.save_alpha_channel = alpha ? 1 : 0
    }

    deinit { heif_encoding_options_free(pointer) }
}

/// Owns a `heif_image*` filled from packed RGB(A) rows, with the ICC profile attached when given.
final class HEIFImage {
    let pointer: OpaquePointer

    init(_ pixels: RGBPixels, iccProfile: Data?) throws {
        let bytesPerPixel = pixels.hasAlpha ? 4 : 3
        guard pixels.width > 0, pixels.height > 0, pixels.bytes.count >= pixels.width * pixels.height * bytesPerPixel else {
            throw HEIFError(operation: "encode", message: "pixel buffer does not match \(pixels.width)x\(pixels.height)")
        }
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
        let rowBytes = pixels.width * bytesPerPixel
        pixels.bytes.withUnsafeBytes { raw in
            guard let source = raw.baseAddress else { return }
            for row in 0..<pixels.height {
                (plane + row * Int(stride)).update(from: source.advanced(by: row * rowBytes).assumingMemoryBound(to: UInt8.self),
                                                   count: rowBytes)
            }
        }
        if let iccProfile, !iccProfile.isEmpty {
            try iccProfile.withUnsafeBytes { raw in
                try HEIFError.check(heif_image_set_raw_color_profile(image, "prof", raw.baseAddress, raw.count), "colour profile")
            }
        }
    }

    deinit { heif_image_release(pointer) }
}
