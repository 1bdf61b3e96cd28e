import DarkroomHEIF
import DarkroomVips
import Foundation

extension Collage.Format {
    /// Encodes a rendered collage (8-bit sRGB) to `url`; `preset` is x265's, for HEIC.
    func write(_ image: Image, to url: URL, quality: Int, preset: String) throws {
        switch self {
        case .jpeg: try image.write(to: url.path, as: .jpeg(quality: quality), stripMetadata: true)
        case .png: try image.write(to: url.path, as: .png, stripMetadata: true)
        case .webp: try image.write(to: url.path, as: .webp(quality: quality), stripMetadata: true)
        case .heic:
            // Tagged sRGB (the pixels already are), so viewers do not have to guess the colours.
            let pixels = try image.converted(toProfile: "srgb").eightBitRGB()
            try HEIFEncoder.encode(RGBPixels(bytes: try pixels.pixelBytes(), width: pixels.width, height: pixels.height,
                                             hasAlpha: pixels.hasAlpha),
                                   iccProfile: pixels.iccProfile, exif: nil, settings: HEIFEncodeSettings(quality: quality, preset: preset),
                                   to: url.path)
        }
    }
}
