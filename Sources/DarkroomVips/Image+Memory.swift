internal import CVips
import Foundation

/// Images made from bytes another library filled (a developed RAW, an embedded preview).
extension Image {
    /// An image of packed pixels (`height` rows of `width * bands` samples, no padding; 16-bit samples
    /// in the machine's byte order), copied into libvips and interpreted as sRGB (3 bands) or grey
    /// (1 band). With `profile` ("srgb", "p3"), libvips' built-in ICC profile of that name is attached.
    public static func pixels(copying bytes: UnsafeRawBufferPointer, width: Int, height: Int, bands: Int, bitsPerSample: Int,
                              profile: String?) throws -> Image {
        guard width > 0, height > 0, [1, 3].contains(bands), [8, 16].contains(bitsPerSample) else {
            throw VipsError(operation: "new from memory", message: "cannot make a \(width)x\(height) image of \(bands) bands at \(bitsPerSample) bits")
        }
        let expected = width * height * bands * bitsPerSample / 8
        guard bytes.count >= expected, let base = bytes.baseAddress else {
            throw VipsError(operation: "new from memory", message: "expected \(expected) bytes of pixels, got \(bytes.count)")
        }
        guard let made = Vips.calling({ darkroom_vips_from_pixels(base, expected, Int32(width), Int32(height), Int32(bands),
                                                                  bitsPerSample == 16 ? 1 : 0) }) else {
            throw Vips.failure(of: "new from memory")
        }
        let image = Image(taking: made)
        if let profile, Vips.calling({ darkroom_vips_attach_profile(made, profile) }) != 0 {
            throw Vips.failure(of: "profile_load")
        }
        return image
    }

    /// A JPEG held in memory, decoded lazily at 1/`shrink` scale (1, 2, 4 or 8) by libjpeg. The bytes
    /// are copied, so the caller's buffer may be freed at once. With `failOn` `.error` (the default)
    /// truncated or corrupt data fails when the pixels are read rather than giving a grey half-image.
    public static func jpeg(copying bytes: UnsafeRawBufferPointer, shrink: Int = 1, failOn: FailOn = .error) throws -> Image {
        guard [1, 2, 4, 8].contains(shrink) else {
            throw VipsError(operation: "jpegload_source", message: "shrink must be 1, 2, 4 or 8, got \(shrink)")
        }
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw VipsError(operation: "jpegload_source", message: "no JPEG bytes")
        }
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        let result = Vips.calling { darkroom_vips_jpegload_copy(base, bytes.count, &out, Int32(shrink), failOn.c) }
        return try wrap(result, out, "jpegload_source")
    }

    /// A copy carrying EXIF orientation `orientation` (1...8) as metadata, for `autorotated()`; the
    /// pixels are not turned.
    public func withOrientation(_ orientation: Int) throws -> Image {
        guard (1...8).contains(orientation) else {
            throw VipsError(operation: "copy", message: "EXIF orientation must be 1...8, got \(orientation)")
        }
        return try derive("copy") { darkroom_vips_with_orientation($0, $1, Int32(orientation)) }
    }

    /// A copy carrying `blobs` (by libvips' names: `exif-data`, `xmp-data`...) as its metadata, for
    /// pixels made in memory that the library's outputs must describe (a RAW's preview or development
    /// with the RAW's own EXIF); the pixels are shared, not copied.
    public func withMetadata(_ blobs: [String: Data]) throws -> Image {
        let copy = try derive("copy") { darkroom_vips_with_orientation($0, $1, Int32(orientation)) }
        for (name, data) in blobs.sorted(by: { $0.key < $1.key }) {
            data.withUnsafeBytes { darkroom_vips_set_blob_copy(copy.pointer, name, $0.baseAddress, $0.count) }
        }
        return copy
    }
}
