internal import CVips
import Foundation

extension Image {
    /// Applies EXIF orientation to the pixels and removes the tag (so nothing rotates twice).
    public func autorotated() throws -> Image {
        try derive("autorot") { darkroom_vips_autorot($0, $1) }
    }

    /// Fits inside `width` x `height` (cropping with `crop`), never upscaling unless `upscale`.
    public func thumbnail(width: Int, height: Int, crop: Crop = .none, upscale: Bool = false) throws -> Image {
        try derive("thumbnail_image") {
            darkroom_vips_thumbnail_image($0, $1, Int32(width), Int32(height), crop.c,
                                          upscale ? VIPS_SIZE_BOTH : VIPS_SIZE_DOWN)
        }
    }

    /// Converts to an ICC profile (`"srgb"`, `"p3"` or a profile file), importing with the embedded
    /// profile (sRGB when there is none). The result carries the new profile.
    public func converted(toProfile profile: String) throws -> Image {
        try derive("icc_transform") { darkroom_vips_icc_transform($0, $1, profile) }
    }

    /// Eight-bit sRGB-interpreted pixels (grey, 16-bit and CMYK inputs are converted); keeps alpha.
    public func eightBitRGB() throws -> Image {
        var image = self
        if image.bands < 3 || !image.isEightBit || vips_image_get_interpretation(pointer) != VIPS_INTERPRETATION_sRGB {
            image = try image.derive("colourspace") { darkroom_vips_colourspace($0, $1, VIPS_INTERPRETATION_sRGB) }
        }
        if !image.isEightBit {
            image = try image.derive("cast") { darkroom_vips_cast($0, $1, VIPS_FORMAT_UCHAR) }
        }
        return image
    }

    /// Composites alpha over a solid background colour (0...255 per channel); a no-op without alpha.
    public func flattened(red: Double = 255, green: Double = 255, blue: Double = 255) throws -> Image {
        guard hasAlpha else { return self }
        return try derive("flatten") { darkroom_vips_flatten($0, $1, red, green, blue) }
    }

    /// Scales by a factor in each direction.
    public func resized(horizontal: Double, vertical: Double) throws -> Image {
        try derive("resize") { darkroom_vips_resize($0, $1, horizontal, vertical) }
    }

    /// Cuts out a rectangle.
    public func cropped(left: Int, top: Int, width: Int, height: Int) throws -> Image {
        try derive("crop") { darkroom_vips_crop($0, $1, Int32(left), Int32(top), Int32(width), Int32(height)) }
    }

    /// One band as a single-band image.
    public func extractBand(_ band: Int) throws -> Image {
        try derive("extract_band") { darkroom_vips_extract_band($0, $1, Int32(band), 1) }
    }

    /// Decodes all pixels into memory now (so later reads are cheap and errors surface here).
    ///
    /// The copy owns its metadata: libvips 8.14's heifload attaches the ICC profile without copying
    /// it, so once the loader is released the profile would point at freed memory. An image already
    /// in memory is returned as it is (libvips hands back the same object): nothing is set on it,
    /// since other threads may be reading it.
    public func materialized() throws -> Image {
        let copy = Vips.computesInCallingThread
            ? try derive("copy_memory") { darkroom_vips_copy_memory_in_thread($0, $1) }
            : try derive("copy_memory") { darkroom_vips_copy_memory($0, $1) }
        if copy.pointer == pointer { return copy }
        copy.takeOwnership(ofMetadataOf: self)
        return copy
    }

    /// A copy of the pixels in a buffer of its own, always new (unlike `materialized()`), with its own
    /// metadata: the only kind of image that may be drawn on.
    func privateCopy() throws -> Image {
        let copy = try derive("copy_memory") { darkroom_vips_copy_memory_new($0, $1) }
        copy.takeOwnership(ofMetadataOf: self)
        return copy
    }

    /// Gives this image, which nobody else holds yet, its own copies of `source`'s metadata blobs.
    private func takeOwnership(ofMetadataOf source: Image) {
        for name in Image.ownedBlobNames {
            guard let data = source.blob(name) else { continue }
            data.withUnsafeBytes { darkroom_vips_set_blob_copy(pointer, name, $0.baseAddress, $0.count) }
        }
    }

    static let ownedBlobNames = ["icc-profile-data", "exif-data", "xmp-data"]

    /// The mean of all bands of all pixels (0...255 for 8-bit images).
    public func average() throws -> Double {
        var value = 0.0
        guard Vips.calling({ darkroom_vips_avg(pointer, &value) }) == 0 else { throw Vips.failure(of: "avg", source: source) }
        return value
    }

    /// The band values of one pixel.
    public func pixel(x: Int, y: Int) throws -> [Double] {
        var vector: UnsafeMutablePointer<Double>?
        var count: Int32 = 0
        guard Vips.calling({ darkroom_vips_getpoint(pointer, &vector, &count, Int32(x), Int32(y)) }) == 0, let vector else {
            throw Vips.failure(of: "getpoint", source: source)
        }
        defer { darkroom_g_free(vector) }
        return Array(UnsafeBufferPointer(start: vector, count: Int(count)))
    }

    /// Computes every pixel and returns them packed, row by row, `bands` bytes a pixel.
    /// Call on an 8-bit image (see `eightBitRGB()`).
    public func pixelBytes() throws -> Data {
        var length = 0
        let memory = Vips.calling {
            Vips.computesInCallingThread ? darkroom_vips_write_to_memory_in_thread(pointer, &length)
                                         : vips_image_write_to_memory(pointer, &length)
        }
        guard let memory else { throw Vips.failure(of: "write_to_memory", source: source) }
        return Data(bytesNoCopy: memory, count: length, deallocator: .custom { p, _ in darkroom_g_free(p) })
    }

}

/// An output encoding libvips writes.
public enum ImageFormat: Sendable, Equatable {
    case jpeg(quality: Int)
    case webp(quality: Int)
    case png

    /// The usual file extension.
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .webp: return "webp"
        case .png: return "png"
        }
    }
}

extension Image {
    /// Encodes to `path` (which must not be a symlink; callers write to a fresh temp file).
    /// `stripMetadata` drops EXIF and XMP but keeps the ICC profile.
    public func write(to path: String, as format: ImageFormat, stripMetadata: Bool = false) throws {
        let strip: gboolean = stripMetadata ? 1 : 0
        // JPEG has no alpha: flatten onto white first.
        let saved = if case .jpeg = format { try flattened() } else { self }
        let result = withExtendedLifetime(saved) {
            Vips.calling {
                switch format {
                case .jpeg(let quality): darkroom_vips_jpegsave(saved.pointer, path, Int32(quality), strip)
                case .webp(let quality): darkroom_vips_webpsave(saved.pointer, path, Int32(quality), strip)
                case .png: darkroom_vips_pngsave(saved.pointer, path, strip)
                }
            }
        }
        guard result == 0 else { throw Vips.failure(of: "save", source: source) }
    }

    /// The image encoded as a JPEG file in memory (flattened onto white; EXIF and XMP dropped when
    /// `stripMetadata`), as a PDF embeds it.
    public func jpegData(quality: Int, stripMetadata: Bool = true) throws -> Data {
        let opaque = try flattened()
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status = withExtendedLifetime(opaque) {
            Vips.calling { darkroom_vips_jpegsave_buffer(opaque.pointer, &buffer, &length, Int32(quality), stripMetadata ? 1 : 0) }
        }
        guard status == 0, let buffer else { throw Vips.failure(of: "jpegsave", source: source) }
        return Data(bytesNoCopy: buffer, count: length, deallocator: .custom { p, _ in darkroom_g_free(p) })
    }
}
