import DarkroomAlignment
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

    /// The photo decoded to fit (contain) or fill (cover, or as `crop` says) `width` x `height`, upright, in 8-bit sRGB,
    /// without alpha, scaled up when smaller than the frame. Pixels are computed when read.
    func decode(_ item: ItemRecord, width: Int, height: Int, crop: Image.Crop? = nil, slack: Double = 1) throws -> Image {
        let header = try ImageLoader.header(of: item.source, pixelLimit: pixelLimit)
        let crop = crop ?? (options.fit == .cover ? options.crop.vips : .none)
        let size = DecodeSize(width: width, height: height, crop: crop, enlarge: true, closestJPEGScale: true, slack: slack)
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

    /// The photo decoded once for an aligned time-lapse: upright 8-bit sRGB, whole (not cropped), at a
    /// size that covers the frame with room for the common crop's zoom (`PixelSize.alignmentMargin`), never larger
    /// than the photo unless it is smaller than the frame. A JPEG scale anywhere between the frame's cover
    /// size and that is kept as decoded: the warp into the frame is then the photo's one resample. Decoded
    /// here (materialised), so that the grey copy for alignment and the frame are made from this one decode.
    func decodeForStore(_ item: ItemRecord) throws -> Image {
        let header = try ImageLoader.header(of: item.source, pixelLimit: pixelLimit)
        let turned = header.orientation >= 5
        let (width, height) = turned ? (header.height, header.width) : (header.width, header.height)
        guard width > 0, height > 0 else { throw StageError("image has no pixels (\(width)x\(height))") }
        let box = PixelSize(width: width, height: height).alignmentDecodeBox(for: options.size.pixels)
        return try decode(item, width: box.width, height: box.height, crop: Image.Crop.none,
                          slack: PixelSize.alignmentMargin).materialized()
    }

    /// The finished frame for `item`, brightness scaled by `gain`, converted by `converter`.
    func render(_ item: ItemRecord, gain: Double, converter: FrameConverter) throws -> VideoFrame {
        do {
            return try converted(try renderImage(item, gain: gain), converter: converter)
        } catch let error as VipsError {
            throw StageError.image("cannot decode image", error)
        }
    }

    /// The finished frame for `item` as an 8-bit RGB image of the frame's size, brightness scaled by
    /// `gain`. Its pixels are computed when read: a photo that fails to decode may fail then.
    func renderImage(_ item: ItemRecord, gain: Double) throws -> Image {
        do {
            return try finishedImage(try decode(item, width: options.size.width, height: options.size.height), of: item, gain: gain)
        } catch let error as VipsError {
            throw StageError.image("cannot decode image", error)
        }
    }

    /// `finishedImage` converted by `converter` into a video frame.
    func finish(_ picture: Image, of item: ItemRecord, gain: Double, converter: FrameConverter) throws -> VideoFrame {
        try converted(try finishedImage(picture, of: item, gain: gain), converter: converter)
    }

    /// A picture of `item` (the frame's size, or smaller to be letterboxed) made into the frame:
    /// brightness scaled by `gain`, centred on `background`, captioned; 8-bit RGB of the frame's size.
    func finishedImage(_ picture: Image, of item: ItemRecord, gain: Double) throws -> Image {
        let (width, height) = (options.size.width, options.size.height)
        var image = picture
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
        return image
    }

    private func converted(_ image: Image, converter: FrameConverter) throws -> VideoFrame {
        try converter.convert(rgb: try image.pixelBytes(), bytesPerRow: image.width * 3)
    }
}
