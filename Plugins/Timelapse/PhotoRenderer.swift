import DarkroomCore
import DarkroomImaging
import DarkroomVideo
import DarkroomVips
import Foundation
import DarkroomModel

/// Turns one photo into one video frame: shrink-on-load decode at the size the frame needs,
/// upright, converted to sRGB on purpose (the converter then makes BT.709 Y'CbCr), fitted to the
/// frame (letterboxed or cropped), brightness-corrected, captioned.
struct PhotoRenderer {
    let options: TimelapseOptions
    let pixelLimit: Int
    let caption: Caption?

    init(options: TimelapseOptions, pixelLimit: Int) {
        self.options = options
        self.pixelLimit = pixelLimit
        caption = options.caption ? Caption(options: options) : nil
    }

    /// The photo decoded to fit (contain) or fill (cover) `width` x `height`, upright, in 8-bit sRGB,
    /// without alpha, scaled up when smaller than the frame. Pixels are computed when read.
    func decode(_ item: ItemRecord, width: Int, height: Int) throws -> Image {
        let header = try ImageLoader.header(of: item.source, pixelLimit: pixelLimit)
        let crop = options.fit == .cover ? options.crop.vips : .none
        let size = DecodeSize(width: width, height: height, crop: crop, enlarge: true, closestJPEGScale: true)
        do {
            var image = try ImageLoader.decode(item.source, header: header, size: size,
                                               exportProfile: ColourHandling.srgb.exportProfile(for: header))
            image = try image.eightBitRGB()
            if image.hasAlpha {
                image = try image.flattened(red: options.background.red, green: options.background.green, blue: options.background.blue)
            }
            return image
        } catch let error as VipsError {
            throw StageError.image("cannot decode image", error)
        }
    }

    /// The finished frame for `item`, brightness scaled by `gain`, converted by `converter`.
    func render(_ item: ItemRecord, gain: Double, converter: FrameConverter) throws -> VideoFrame {
        let (width, height) = (options.size.width, options.size.height)
        do {
            var image = try decode(item, width: width, height: height)
            if abs(gain - 1) > 0.001 { image = try image.linear(multiply: [gain], add: [0]) }
            if image.width != width || image.height != height {
                image = try image.embedded(x: (width - image.width) / 2, y: (height - image.height) / 2,
                                           width: width, height: height, background: options.background)
            }
            if let caption, let date = item.captureDate?.local {
                image = try caption.draw(caption.text(for: date), on: image)
                if image.hasAlpha { image = try image.flattened() }
            }
            guard image.bands == 3, image.width == width, image.height == height else {
                throw StageError("internal: frame is \(image.width)x\(image.height) with \(image.bands) bands, expected \(width)x\(height) RGB")
            }
            return try converter.convert(rgb: try image.pixelBytes(), bytesPerRow: width * 3)
        } catch let error as VipsError {
            throw StageError.image("cannot decode image", error)
        }
    }
}
