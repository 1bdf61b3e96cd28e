import DarkroomCore
import DarkroomImaging
import DarkroomVips
import Foundation

/// `thumbnail`: a small JPEG or WebP made straight from the source file with shrink-on-load
/// (libjpeg decodes at 1/2, 1/4, 1/8 scale), upright, converted to sRGB, metadata stripped.
public struct Thumbnail: Stage {
    public static let name = "thumbnail"
    public static let summary = "A small sRGB JPEG or WebP from the source file (shrink-on-load): fit the long edge, or a square crop."
    public static let reads: Set<ItemAspect> = [.captureDate]

    /// How the thumbnail is shaped.
    public enum Mode: String, Codable, Sendable, CaseIterable {
        /// The whole photo, long edge = size.
        case fit
        /// A size x size square, cropped.
        case square
    }

    /// The file format written.
    public enum Format: String, Codable, Sendable, CaseIterable {
        case jpeg, webp

        var fileExtensions: [String] { self == .jpeg ? ["jpg", "jpeg"] : ["webp"] }
    }

    public struct Options: StageOptions {
        public var size: Int
        public var mode: Mode
        /// Which part a square keeps: `centre` or `attention` (the most interesting region).
        public var crop: Image.Crop
        public var format: Format
        public var quality: Int
        public var output: PathTemplate

        public static let fields = [
            OptionField("size", "Long edge (fit) or side (square) in pixels.", default: "200"),
            OptionField("mode", "fit: whole photo; square: cropped square.", default: "fit"),
            OptionField("crop", "For square: centre or attention.", default: "attention"),
            OptionField("format", "jpeg or webp.", default: "jpeg"),
            OptionField("quality", "Encoder quality 1-100.", default: "80"),
            OptionField("output", "Path template inside the library; its extension must match the format.",
                        default: "Thumbnails/{yyyy}/{MM}/{id}.jpg (.webp for webp)"),
        ]

        public init(from decoder: Decoder) throws {
            let reader = try OptionsReader(decoder)
            size = try reader.value("size", default: 200, where: { (1...10_000).contains($0) }, expected: "a positive integer up to 10000")
            mode = try reader.choice("mode", default: .fit)
            crop = try reader.choice("crop", default: .attention)
            if crop == .none { throw reader.invalid("crop", expected: "centre, attention or entropy", got: "'none'") }
            format = try reader.choice("format", default: .jpeg)
            quality = try reader.value("quality", default: 80, where: { (1...100).contains($0) }, expected: "an integer from 1 to 100")
            let defaultOutput = "Thumbnails/{yyyy}/{MM}/{id}.\(format.fileExtensions[0])"
            output = try reader.value("output", default: try PathTemplate(defaultOutput))
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

    public func process(_ item: Item, context: StageContext) throws {
        let header = try item.sourceHeader(settings: context.settings)
        let image = try ImageLoader.thumbnail(of: item.source, width: options.size, height: options.size,
                                              crop: options.mode == .square ? options.crop : .none,
                                              pixelLimit: context.settings.pixelLimit,
                                              exportProfile: ColourHandling.srgb.exportProfile(for: header))
        let format: ImageFormat = options.format == .jpeg ? .jpeg(quality: options.quality) : .webp(quality: options.quality)
        let path = try options.output.render(PathTemplate.values(for: item))
        try context.publish(path) { url in
            do { try image.write(to: url.path, as: format, stripMetadata: true) }
            catch let error as VipsError { throw StageError("cannot decode image: \(error)") }
        }
    }
}
