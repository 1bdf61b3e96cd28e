import DarkroomHEIF
import DarkroomVips
import Foundation

extension Collage.Format {
    /// Encodes a rendered collage (8-bit sRGB) to `url`.
    func write(_ image: Image, to url: URL, quality: Int) throws {
        switch self {
        case .jpeg: try image.write(to: url.path, as: .jpeg(quality: quality), stripMetadata: true)
        case .png: try image.write(to: url.path, as: .png, stripMetadata: true)
        case .webp: try image.write(to: url.path, as: .webp(quality: quality), stripMetadata: true)
        case .heic:
            let pixels = try image.eightBitRGB()
            try HEIFEncoder.encode(RGBPixels(bytes: try pixels.pixelBytes(), width: pixels.width, height: pixels.height,
                                             hasAlpha: pixels.hasAlpha),
                                   iccProfile: nil, exif: nil, settings: HEIFEncodeSettings(quality: quality, preset: "medium"),
                                   to: url.path)
        }
    }
}
