import DarkroomCore
import DarkroomImaging
import DarkroomVips
import Foundation

/// `thumbnail`: small JPEGs or WebPs made straight from the source file with shrink-on-load
/// (libjpeg decodes at 1/2, 1/4, 1/8 scale), upright, converted to sRGB, metadata stripped.
/// Several sizes come from one decode: the largest is decoded, the others are made from it.
public struct Thumbnail: Stage {
    public static let name = "thumbnail"
    public static let summary = "Small sRGB JPEGs or WebPs from the source file (shrink-on-load, one decode for all sizes): fit the long edge, or a square crop."
    public static let reads: Set<ItemAspect> = [.captureDate]

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

        public static let fields = [
            OptionField("size", "Long edge (fit) or side (square) in pixels.", default: "200"),
            OptionField("sizes", "Several sizes from one decode, e.g. [200, 1024]; the output then needs {size}.", default: ""),
            OptionField("mode", "fit: whole photo; square: cropped square.", default: "fit"),
            OptionField("crop", "For square: centre or attention.", default: "attention"),
            OptionField("format", "jpeg or webp.", default: "jpeg"),
            OptionField("quality", "Encoder quality 1-100.", default: "80"),
            OptionField("output", "Path template inside the library (fields as for every template, plus {size}); its extension must match the format.",
                        default: "Thumbnails/{yyyy}/{MM}/{id}.jpg (.webp for webp)"),
        ]

        public init(from decoder: Decoder) throws {
            let reader = try OptionsReader(decoder)
            let validSize: (Int) -> Bool = { (1...10_000).contains($0) }
            let single = try reader.optional("size", Int.self, where: validSize, expected: "a positive integer up to 10000")
            let several = try reader.optional("sizes", [Int].self, where: { !$0.isEmpty && $0.allSatisfy(validSize) },
                                              expected: "a list of positive integers up to 10000")
            if single != nil && several != nil { throw reader.invalid("sizes", expected: "either size or sizes", got: "both") }
            sizes = Array(Set(several ?? [single ?? 200])).sorted(by: >)
            mode = try reader.choice("mode", default: .fit)
            let square: SquareCrop = try reader.choice("crop", default: .attention)
            // Under fit nothing is cropped: the option is kept at its default, so editing it rebuilds nothing.
            crop = mode == .square ? square.crop : SquareCrop.attention.crop
            format = try reader.choice("format", default: .jpeg)
            quality = try reader.value("quality", default: 80, where: { (1...100).contains($0) }, expected: "an integer from 1 to 100")
            let defaultOutput = (sizes.count > 1 ? "Thumbnails/{size}/{yyyy}/{MM}/{id}." : "Thumbnails/{yyyy}/{MM}/{id}.") + format.fileExtensions[0]
            output = try reader.template("output", default: defaultOutput, extraFields: ["size"])
            if sizes.count > 1 && !output.fieldsUsed.contains("size") {
                throw reader.invalid("output", expected: "a template with {size} when several sizes are made", got: "'\(output.template)'")
            }
            let ext = (output.template as NSString).pathExtension.lowercased()
            if !format.fileExtensions.contains(ext) {
                throw reader.invalid("output", expected: "a file name ending in .\(format.fileExtensions[0]) for format \(format.rawValue)",
                                     got: "'\(output.template)'")
            }
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
        let largest = try item.thumbnail(width: options.sizes[0], height: options.sizes[0], crop: crop,
                                         settings: context.settings, colour: .srgb)
        let format: ImageFormat = options.format == .jpeg ? .jpeg(quality: options.quality) : .webp(quality: options.quality)
        var values = PathTemplate.values(for: item)
        do {
            // One decode: with several sizes the largest is decoded once and the others made from it.
            let decoded = options.sizes.count > 1 ? try largest.materialized() : largest
            for size in options.sizes {
                let image = size == options.sizes[0] ? decoded : try decoded.thumbnail(width: size, height: size, crop: crop)
                values["size"] = String(size)
                try context.publish(try options.output.render(values)) { url in
                    try image.write(to: url.path, as: format, stripMetadata: true)
                }
            }
        } catch let error as VipsError {
            throw StageError("cannot decode image: \(error)")
        }
    }
}
