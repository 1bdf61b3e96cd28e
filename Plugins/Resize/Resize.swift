import DarkroomCore
import DarkroomImaging
import DarkroomVips
import Foundation

/// `resize`: decodes the photo at the size it is needed (shrink-on-load), upright, with its long
/// edge at most `long-edge` pixels. Never upscales. Keeps the colour profile unless told to convert.
public struct Resize: Stage {
    public static let name = "resize"
    public static let summary = "Decode upright with the long edge at most N pixels (never upscaled), keeping the colour profile."
    public static let writes: Set<ItemAspect> = [.image]

    public struct Options: StageOptions {
        /// The longest side of the result, in pixels.
        public var longEdge: Int
        /// `keep` the embedded profile (Display P3 stays P3) or convert to `srgb`.
        public var colour: ColourHandling

        public static let fields = [
            OptionField("long-edge", "Longest side in pixels; smaller photos are left as they are.", default: "2048"),
            OptionField("colour", "keep: keep the embedded ICC profile; srgb: convert to sRGB.", default: "keep"),
        ]

        public init(longEdge: Int = 2048, colour: ColourHandling = .keep) {
            self.longEdge = longEdge
            self.colour = colour
        }

        public init(from decoder: Decoder) throws {
            let reader = try OptionsReader(decoder)
            longEdge = try reader.value("long-edge", default: 2048, where: { (1...65_535).contains($0) },
                                        expected: "a positive integer up to 65535")
            colour = try reader.choice("colour", default: .keep)
        }
    }

    let options: Options

    public init(options: Options) {
        self.options = options
    }

    public func process(_ item: Item, context: StageContext) throws {
        let header = try item.sourceHeader(settings: context.settings)
        let image = try item.thumbnail(width: options.longEdge, height: options.longEdge, settings: context.settings,
                                       colour: options.colour)
        do {
            // Decode now, so a corrupt file fails here with its reason, not in a later step.
            item.image = try image.materialized()
        } catch let error as VipsError {
            throw StageError("cannot decode image: \(error)")
        }
        item.pixelWidth = header.orientation >= 5 ? header.height : header.width
        item.pixelHeight = header.orientation >= 5 ? header.width : header.height
    }
}
