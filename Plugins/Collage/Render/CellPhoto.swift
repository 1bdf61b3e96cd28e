import DarkroomImaging
import DarkroomVips
import Foundation

/// Decodes a photo for one cell: shrink-on-load at the cell's size, upright, cover fit with an
/// attention crop, converted to sRGB, 8-bit RGB without alpha, exactly `width` x `height`.
enum CellPhoto {
    static func decode(_ url: URL, width: Int, height: Int, pixelLimit: Int) throws -> Image {
        let size = DecodeSize(width: width, height: height, crop: .attention, enlarge: true)
        // Pixels are decoded here, so a truncated or corrupt file fails now, for this photo only.
        let image = try ImageLoader.decode(url, size: size, pixelLimit: pixelLimit, colour: .srgb).materialized()
        return try image.eightBitRGB().flattened()
    }
}
