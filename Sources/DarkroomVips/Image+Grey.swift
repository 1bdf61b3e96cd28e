internal import CVips
import Foundation

extension Image {
    /// The image's own pixels in grey (0...255, row by row, `width` x `height` of them): alpha
    /// flattened onto white, grey taken as Rec. 601 luma of the 8-bit sRGB pixels, as
    /// `greyPixels(width:height:)` gives them at the image's own size, without its resample.
    /// A sequentially decoded image must be `materialized()` first (see `greyPixels(width:height:)`).
    public func greyPixels() throws -> [UInt8] {
        try eightBitRGB().flattened().luma(operation: "grey copy")
    }

    /// The image as `width` x `height` grey pixels (0...255, row by row): squeezed to exactly that
    /// size whatever its aspect ratio (libvips' thumbnail with `size=force`: a box shrink, then a
    /// Lanczos-3 resample), alpha flattened onto white, grey taken as Rec. 601 luma of the 8-bit
    /// sRGB pixels. Perceptual hashes and sharpness are computed on such a copy of a thumbnail.
    /// It reads the image's pixels: a thumbnail decoded from a file (sequentially) that is also
    /// written must be `materialized()` first, or the second read fails ("out of order read").
    public func greyPixels(width: Int, height: Int) throws -> [UInt8] {
        guard width > 0, height > 0 else {
            throw VipsError(operation: "thumbnail_image", message: "a grey copy needs a positive size, got \(width)x\(height)")
        }
        let rgb = try eightBitRGB().flattened()
        let squeezed = try rgb.derive("thumbnail_image") {
            darkroom_vips_thumbnail_image($0, $1, Int32(width), Int32(height), VIPS_INTERESTING_NONE, VIPS_SIZE_FORCE)
        }
        guard squeezed.width == width, squeezed.height == height else {
            throw VipsError(operation: "thumbnail_image", message: "expected \(width)x\(height), got \(squeezed.width)x\(squeezed.height)")
        }
        return try squeezed.luma(operation: "thumbnail_image")
    }

    /// Rec. 601 luma of an 8-bit, three-band (RGB) image's pixels, in fixed point (weights sum to
    /// 1024), rounded; `operation` names the caller in the error for any other image.
    private func luma(operation: String) throws -> [UInt8] {
        guard bands == 3, isEightBit else {
            throw VipsError(operation: operation, message: "expected 8-bit RGB, got \(bands) bands")
        }
        let bytes = try pixelBytes()
        return bytes.withUnsafeBytes { raw in
            (0..<width * height).map { pixel in
                let (r, g, b) = (Int(raw[3 * pixel]), Int(raw[3 * pixel + 1]), Int(raw[3 * pixel + 2]))
                return UInt8((306 * r + 601 * g + 117 * b + 512) >> 10)
            }
        }
    }
}
