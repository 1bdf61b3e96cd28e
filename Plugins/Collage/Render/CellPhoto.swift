import DarkroomImaging
import DarkroomVips
import Foundation

/// Decodes a photo for one cell: shrink-on-load at the cell's size, upright, cover fit with an
/// attention crop, converted to sRGB, 8-bit RGB without alpha, exactly `width` x `height`.
enum CellPhoto {
    static func decode(_ url: URL, width: Int, height: Int, pixelLimit: Int) throws -> Image {
        var image = try ImageLoader.thumbnail(of: url, width: width, height: height, crop: .attention,
                                              pixelLimit: pixelLimit, exportProfile: "srgb")
        // Pixels are decoded here, so a truncated or corrupt file fails now, for this photo only.
        image = try image.materialized()
        if image.width != width || image.height != height {
            // A photo smaller than its cell is scaled up (shrink-on-load never enlarges).
            image = try image.thumbnail(width: width, height: height, crop: .attention, upscale: true)
        }
        return try image.eightBitRGB().flattened()
    }
}
