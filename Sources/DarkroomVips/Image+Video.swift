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
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        let result = darkroom_vips_jpegload_shrink(path, &out, Int32(shrink),
                                                   sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM, failOn.c)
        return try wrap(result, out, "jpegload")
    }
}
