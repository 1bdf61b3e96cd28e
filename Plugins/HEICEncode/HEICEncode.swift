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

        static let qualityOption = StageOption.integer(
            "quality", default: defaultQuality, in: 1...100, "libheif quality (x265 CRF = (100 - quality) / 2).")
        static let presetOption = StageOption.oneOf("preset", HEIFEncodeSettings.presets, default: defaultPreset,
                                               "x265 speed preset: slower presets make smaller files of the same quality.")
        static let outputOption = StageOption.template("output", default: defaultOutput, "Path template inside the library.")
        public static let options: [any OptionDeclaration] = [qualityOption, presetOption, outputOption]

        public init(quality: Int = defaultQuality, preset: String = defaultPreset,
                    output: PathTemplate = try! PathTemplate(defaultOutput)) {
            self.quality = quality
            self.preset = preset
            self.output = output
        }

        public init(from decoder: Decoder) throws {
            let reader = try OptionsReader(decoder, declaring: Self.options)
            quality = reader.read(Self.qualityOption)
            preset = reader.read(Self.presetOption)
            output = reader.read(Self.outputOption)
            try reader.finish()
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
