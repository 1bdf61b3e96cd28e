internal import CVips
import Foundation

extension Image {
    /// The largest JPEG shrink-on-load factor (1, 2, 4 or 8) not above `scale`, the source size divided
    /// by the size needed, so the decoded image is never smaller than needed (a 4000x3000 photo
    /// letterboxed into 1920x1080: scale 2.78, shrink 2).
    public static func jpegShrink(forScale scale: Double) -> Int {
        [8, 4, 2].first { Double($0) <= scale } ?? 1
    }

    /// Opens a JPEG decoded at 1/`shrink` scale by libjpeg (DCT scaling: much cheaper than decoding in
    /// full and resampling). `sequential` streams the decode (use it only for orientation 1: rotating
    /// needs random access). Pixels are decoded when first read.
    public static func jpeg(_ path: String, shrink: Int, sequential: Bool, failOn: FailOn = .error) throws -> Image {
        guard [1, 2, 4, 8].contains(shrink) else {
            throw VipsError(operation: "jpegload", message: "shrink must be 1, 2, 4 or 8, got \(shrink)")
        }
        try Vips.requireStarted("jpegload")
        let source = Source(path: path, load: .jpeg(shrink: shrink, sequential: sequential, failOn: failOn))
        guard let out = Vips.calling({ source.reload() }) else { throw Vips.failure(of: "jpegload", source: source) }
        return Image(taking: out, source: source)
    }
}

extension Image {
    /// An sRGB image of packed 8-bit R'G'B' pixels (`height` rows of `width * 3` bytes, no padding),
    /// copied into libvips: how a decoded video frame becomes an image.
    public static func rgb(_ bytes: Data, width: Int, height: Int) throws -> Image {
        try Vips.requireStarted("new from memory")
        guard width > 0, height > 0, bytes.count == width * height * 3 else {
            throw VipsError(operation: "new from memory", message: "expected \(width)x\(height) RGB pixels (\(max(0, width * height * 3)) bytes), got \(bytes.count) bytes")
        }
        let made = bytes.withUnsafeBytes { raw in
            Vips.calling { vips_image_new_from_memory_copy(raw.baseAddress, raw.count, Int32(width), Int32(height), 3, VIPS_FORMAT_UCHAR) }
        }
        guard let made else { throw Vips.failure(of: "new from memory") }
        made.pointee.Type = VIPS_INTERPRETATION_sRGB
        return Image(taking: made)
    }
}
