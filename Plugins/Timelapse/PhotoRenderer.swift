import DarkroomCore
import DarkroomImaging
import DarkroomVideo
import DarkroomVips
import Foundation

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
    /// without alpha. Pixels are computed when read.
    func decode(_ item: ItemRecord, width: Int, height: Int) throws -> Image {
        do {
            let header = try ImageLoader.header(of: item.source, pixelLimit: pixelLimit)
            let cover = options.fit == .cover
            let crop = cover ? options.crop.vips : .none
            var image = try shrunkOnLoad(item.source, header: header, width: width, height: height, crop: crop)
            image = try image.eightBitRGB()
            if image.hasAlpha {
                image = try image.flattened(red: options.background.red, green: options.background.green, blue: options.background.blue)
            }
            // Shrink-on-load never enlarges: a photo smaller than the frame is scaled up here.
            let tooSmall = cover ? (image.width < width || image.height < height) : (image.width < width && image.height < height)
            if tooSmall { image = try image.thumbnail(width: width, height: height, crop: crop, upscale: true) }
            return image
        } catch let error as VipsError {
            throw StageError("cannot decode image: \(error)")
        }
    }

    /// Decodes at about the size needed. `vips_thumbnail` keeps a factor of two in hand for its
    /// resampler, so a 12 MP JPEG for a 1080p frame would decode in full; a JPEG is instead loaded at
    /// the largest 1/2, 1/4 or 1/8 scale that still covers the frame, then resampled (Lanczos 3).
    private func shrunkOnLoad(_ url: URL, header: Image, width: Int, height: Int, crop: Image.Crop) throws -> Image {
        let profile = ColourHandling.srgb.exportProfile(for: header)
        let turned = header.orientation >= 5
        let (sourceWidth, sourceHeight) = turned ? (header.height, header.width) : (header.width, header.height)
        let (across, down) = (Double(sourceWidth) / Double(width), Double(sourceHeight) / Double(height))
        let shrink = Image.jpegShrink(forScale: crop == .none ? max(across, down) : min(across, down))
        guard header.loader == "jpegload", shrink > 1 else {
            return try ImageLoader.decode(url, width: width, height: height, crop: crop, exportProfile: profile)
        }
        var image = try Image.jpeg(url.path, shrink: shrink, sequential: header.orientation == 1, failOn: ImageLoader.strictness)
        if header.orientation != 1 { image = try image.autorotated() }
        if let profile { image = try image.converted(toProfile: profile) }
        return try image.thumbnail(width: width, height: height, crop: crop)
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
            return try image.withPixelBytes { pixels in
                try converter.convert(rgb: pixels, bytesPerRow: width * 3)
            }
        } catch let error as VipsError {
            throw StageError("cannot decode image: \(error)")
        }
    }
}
