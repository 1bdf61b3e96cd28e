import DarkroomCore
import DarkroomExif
import DarkroomHEIF
import DarkroomImaging
import DarkroomVips
import Foundation

/// `heic-encode`: writes the current image as an 8-bit 4:2:0 HEIC through libheif and x265, with
/// the x265 preset as an option. EXIF is carried with Orientation set to 1 (the pixels are already
/// upright) and the ICC profile is carried, so P3 photos keep their colours.
public struct HEICEncode: Stage {
    public static let name = "heic-encode"
    public static let summary = "Encode the image as an 8-bit 4:2:0 HEIC (x265), carrying EXIF (orientation reset) and the ICC profile."
    public static let reads: Set<ItemAspect> = [.image, .captureDate]

    public struct Options: StageOptions {
        /// libheif quality 1...100.
        public var quality: Int
        /// The x265 speed preset.
        public var preset: String
        /// Where the file goes in the library.
        public var output: PathTemplate

        /// Chosen by `Benchmarks/heic-quality.sh`: visually high quality (SSIM against the resized
        /// source) at a file size below a JPEG at quality 80 of the same pixels.
        public static let defaultQuality = 50
        public static let defaultPreset = "medium"
        public static let defaultOutput = "Photos/{yyyy}/{MM}/{id}.heic"

        public static let fields = [
            OptionField("quality", "libheif quality 1-100 (x265 CRF = (100 - quality) / 2).", default: "\(defaultQuality)"),
            OptionField("preset", "x265 preset: " + HEIFEncodeSettings.presets.joined(separator: ", ") + ".", default: defaultPreset),
            OptionField("output", "Path template inside the library.", default: defaultOutput),
        ]

        public init(quality: Int = defaultQuality, preset: String = defaultPreset,
                    output: PathTemplate = try! PathTemplate(defaultOutput)) {
            self.quality = quality
            self.preset = preset
            self.output = output
        }

        public init(from decoder: Decoder) throws {
            let reader = try OptionsReader(decoder)
            quality = try reader.value("quality", default: Options.defaultQuality, where: { (1...100).contains($0) },
                                       expected: "an integer from 1 to 100")
            preset = try reader.oneOf("preset", HEIFEncodeSettings.presets, default: Options.defaultPreset)
            output = try reader.value("output", default: try PathTemplate(Options.defaultOutput))
        }
    }

    let options: Options

    public init(options: Options) {
        self.options = options
    }

    public func process(_ item: Item, context: StageContext) throws {
        guard let image = item.image else { throw StageError("no decoded image: put 'resize' before 'heic-encode'") }
        let pixels = try image.eightBitRGB()
        let exif = image.exifData.map(ExifBlob.resettingOrientation)
        let settings = HEIFEncodeSettings(quality: options.quality, preset: options.preset)
        let path = try options.output.render(PathTemplate.values(for: item))
        try context.publish(path) { url in
            try HEIFEncoder.encode(RGBPixels(bytes: try pixels.pixelBytes(), width: pixels.width, height: pixels.height,
                                             hasAlpha: pixels.hasAlpha),
                                   iccProfile: pixels.iccProfile, exif: exif, settings: settings, to: url.path)
        }
    }
}
