import DarkroomCore
import DarkroomImaging
import DarkroomVips
import Foundation
import DarkroomModel
import DarkroomOptions

/// `thumbnail`: small JPEGs or WebPs made straight from the source file with shrink-on-load
/// (libjpeg decodes at 1/2, 1/4, 1/8 scale), upright, converted to sRGB, metadata stripped.
/// Several sizes come from one decode: the largest is decoded, the others are made from it.
/// A video's thumbnail is its poster frame (`Item.posterFrame`): a frame about a second in, upright
/// and in SDR, then fitted or cropped as a photo is. A photo's fitted thumbnail is also measured for
/// near-duplicates and bursts (`Item.similarity`: its fingerprint and sharpness), from the same decode.
public struct Thumbnail: Stage {
    /// Starts libvips, FFmpeg and libheif for the run, before any worker thread.
    public static func prepare(_ settings: RunSettings) throws { try ImagingSetup.configure(for: settings) }

    public static let name = "thumbnail"
    public static let summary = "Small sRGB JPEGs or WebPs from the source file (shrink-on-load, one decode for all sizes) or a video's poster frame: fit the long edge, or a square crop. A fitted photo's fingerprint and sharpness are recorded for near-duplicates and bursts."
    public static let reads: Set<ItemAspect> = [.captureDate]
    public static let media: Set<MediaKind> = [.photo, .video]

    /// How the thumbnail is shaped.
    public enum Mode: String, Codable, Sendable, CaseIterable {
        /// The whole photo, long edge = size.
        case fit
        /// A size x size square, cropped.
        case square
    }

    /// Which part of the photo a square keeps.
    public enum SquareCrop: String, Codable, Sendable, CaseIterable {
        /// The middle.
        case centre
        /// The most interesting region (libvips' attention strategy).
        case attention

        var crop: Image.Crop { self == .centre ? .centre : .attention }
    }

    /// The file format written.
    public enum Format: String, Codable, Sendable, CaseIterable {
        case jpeg, webp

        var fileExtensions: [String] { self == .jpeg ? ["jpg", "jpeg"] : ["webp"] }
    }

    public struct Options: StageOptions {
        /// The sizes to make, largest first.
        public var sizes: [Int]
        public var mode: Mode
        /// Which part a square keeps: `centre` or `attention` (the most interesting region).
        public var crop: Image.Crop
        public var format: Format
        public var quality: Int
        public var output: PathTemplate

        static let sizeOption = StageOption<Int?>.custom(
            "size", as: Int.self, default: nil, shown: "200", accepts: "a positive integer up to 10000",
            "Long edge (fit) or side (square) in pixels.") { (1...10_000).contains($0) ? $0 : nil }
        static let sizesOption = StageOption<[Int]?>.custom(
            "sizes", as: [Int].self, default: nil, shown: "", accepts: "a list of positive integers up to 10000",
            "Several sizes from one decode, e.g. [200, 1024]; the output then needs {size}.") { sizes in
            !sizes.isEmpty && sizes.allSatisfy { (1...10_000).contains($0) } ? sizes : nil
        }
        static let modeOption = StageOption.choice(
            "mode", default: Mode.fit,
            "fit: the whole photo; square: a cropped square (photos then get no fingerprint or sharpness for darkroom duplicates).")
        static let cropOption = StageOption.choice("crop", default: SquareCrop.attention,
                                              "Which part a square keeps: the middle, or the most interesting region.")
        static let formatOption = StageOption.choice("format", default: Format.jpeg, "The file format written.")
        static let qualityOption = StageOption.integer("quality", default: 80, in: 1...100, "Encoder quality.")
        static let outputOption = StageOption.template(
            "output", default: "Thumbnails/{yyyy}/{MM}/{id}.jpg", shown: "Thumbnails/{yyyy}/{MM}/{id}.jpg (.webp for webp)",
            fields: PathTemplate.fields + ["size"],
            "Path template inside the library (fields as for every template, plus {size}); its extension must match the format.")
        public static let options: [any OptionDeclaration] = [
            sizeOption, sizesOption, modeOption, cropOption, formatOption, qualityOption, outputOption,
        ]

        public init(from decoder: Decoder) throws {
            // Named in the key as they always were (`sizes`), so libraries keep their work.
            let reader = try OptionsReader(decoder, declaring: Self.options, keyNames: .camelCase)
            let single = reader.read(Self.sizeOption)
            let several = reader.read(Self.sizesOption)
            if single != nil && several != nil { reader.reject(Self.sizesOption, expected: "either size or sizes", got: "both") }
            sizes = Array(Set(several ?? [single ?? 200])).sorted(by: >)
            reader.key("sizes", sizes, for: Self.sizeOption, Self.sizesOption)
            mode = reader.read(Self.modeOption)
            let square = reader.read(Self.cropOption)
            // Under fit nothing is cropped: the option is kept at its default, so editing it rebuilds nothing.
            crop = mode == .square ? square.crop : SquareCrop.attention.crop
            reader.key("crop", crop, for: Self.cropOption)
            format = reader.read(Self.formatOption)
            quality = reader.read(Self.qualityOption)
            let defaultOutput = (sizes.count > 1 ? "Thumbnails/{size}/{yyyy}/{MM}/{id}." : "Thumbnails/{yyyy}/{MM}/{id}.") + format.fileExtensions[0]
            output = reader.read(Self.outputOption, default: try PathTemplate(defaultOutput, allowedFields: PathTemplate.fields + ["size"]))
            if sizes.count > 1 && !output.fieldsUsed.contains("size") {
                reader.reject(Self.outputOption, expected: "a template with {size} when several sizes are made", got: "'\(output.template)'")
            }
            reader.requireExtension(Self.outputOption, of: output, in: format.fileExtensions, why: "for format \(format.rawValue)")
            try reader.finish()
        }
    }

    let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// Date fields in the output need `exif-date` first; a template without them (`{dir}/{name}.jpg`) does not.
    public var needs: Set<ItemAspect> { options.output.usesDateFields ? [.captureDate] : [] }

    public func process(_ item: Item, context: StageContext) throws {
        let crop: Image.Crop = options.mode == .square ? options.crop : .none
        let largest = item.mediaKind == .video
            ? try item.posterFrame(width: options.sizes[0], height: options.sizes[0], crop: crop, settings: context.settings)
            : try item.thumbnail(width: options.sizes[0], height: options.sizes[0], crop: crop, settings: context.settings, colour: .srgb,
                                 warn: { context.warn($0) })
        let format: ImageFormat = options.format == .jpeg ? .jpeg(quality: options.quality) : .webp(quality: options.quality)
        var values = PathTemplate.values(for: item)
        let measured = measuresSimilarity(of: item)
        do {
            // One decode: with several sizes, or when the thumbnail is also measured for near-duplicates,
            // the largest is decoded once into memory and read again (a sequential decode cannot be).
            let decoded = options.sizes.count > 1 || measured ? try largest.materialized() : largest
            if measured { measureSimilarity(of: decoded, for: item, context: context) }
            for size in options.sizes {
                let image = size == options.sizes[0] ? decoded : try decoded.thumbnail(width: size, height: size, crop: crop)
                values["size"] = String(size)
                try context.publish(try options.output.render(values)) { url in
                    try image.write(to: url.path, as: format, stripMetadata: true)
                }
            }
        } catch let error as VipsError {
            throw StageError.image("cannot decode image", error)
        }
    }
}
