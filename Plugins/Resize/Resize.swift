import DarkroomCore
import DarkroomImaging
import DarkroomVips
import Foundation
import DarkroomModel
import DarkroomOptions

/// `resize`: decodes the photo at the size it is needed (shrink-on-load), upright, with its long
/// edge at most `long-edge` pixels. Never upscales. Keeps the colour profile unless told to convert.
public struct Resize: Stage {
    /// Starts libvips, FFmpeg and libheif for the run, before any worker thread.
    public static func prepare(_ settings: RunSettings) throws { try ImagingSetup.configure(for: settings) }

    public static let name = "resize"
    public static let summary = "Decode upright with the long edge at most N pixels (never upscaled), keeping the colour profile."
    public static let writes: Set<ItemAspect> = [.image]

    public struct Options: StageOptions {
        /// The longest side of the result, in pixels.
        public var longEdge: Int
        /// `keep` the embedded profile (Display P3 stays P3) or convert to `srgb`.
        public var colour: ColourHandling
        /// How a RAW photo becomes pixels: its embedded preview or a development.
        public var raw: RawRendering

        static let longEdgeOption = StageOption.integer(
            "long-edge", default: 2048, in: 1...65_535, "Longest side in pixels; smaller photos are left as they are.")
        static let colourOption = StageOption.choice(
            "colour", default: ColourHandling.keep, "keep: keep the embedded ICC profile (Display P3 stays P3); srgb: convert to sRGB.")
        static let rawOption = StageOption.choice(
            "raw", default: RawRendering.auto,
            "RAW photos: auto: the camera's embedded preview when it is at least long-edge, else developed; preview: always the preview; develop: always developed from the sensor data."
        ).keyedOnlyWhenNotDefault()
        public static let options: [any OptionDeclaration] = [longEdgeOption, colourOption, rawOption]

        public init(longEdge: Int = 2048, colour: ColourHandling = .keep, raw: RawRendering = .auto) {
            self.longEdge = longEdge
            self.colour = colour
            self.raw = raw
        }

        public init(from decoder: Decoder) throws {
            // Named in the key as they always were (`longEdge`), so libraries keep their work.
            let reader = try OptionsReader(decoder, declaring: Self.options, keyNames: .camelCase)
            longEdge = reader.read(Self.longEdgeOption)
            colour = reader.read(Self.colourOption)
            raw = reader.read(Self.rawOption)
            try reader.finish()
        }
    }

    let options: Options

    public init(options: Options) {
        self.options = options
    }

    public func process(_ item: Item, context: StageContext) throws {
        let metadata = try item.sourceMetadata(settings: context.settings)
        let image = try item.thumbnail(width: options.longEdge, height: options.longEdge, settings: context.settings,
                                       colour: options.colour, raw: options.raw, warn: { context.warn($0) })
        do {
            // Decode now, so a corrupt file fails here with its reason, not in a later step.
            item.image = try image.materialized()
        } catch let error as VipsError {
            throw StageError.image("cannot decode image", error)
        }
        item.pixelWidth = metadata.width
        item.pixelHeight = metadata.height
    }
}
