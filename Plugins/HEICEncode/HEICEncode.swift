import DarkroomCore
import DarkroomExif
import DarkroomHEIF
import DarkroomSidecars
import DarkroomImaging
import DarkroomVips
import Foundation
import DarkroomModel
import DarkroomOptions
import DarkroomPhotoMetadata

/// `heic-encode`: writes the current image as an 8-bit 4:2:0 HEIC through libheif and x265, with
/// the x265 preset as an option. EXIF is carried with Orientation set to 1 (the pixels are already
/// upright) and the ICC profile is carried, so P3 photos keep their colours. The photo's own XMP and
/// IPTC-IIM (keywords, caption, by-line, title) go into the HEIC's XMP, its XMP sidecar merged over
/// them or written beside the HEIC (`xmp` option). The capture date the item holds, whatever source
/// decided it, is written to EXIF (DateTimeOriginal, OffsetTimeOriginal, SubSecTimeOriginal) and to
/// XMP (`exif:DateTimeOriginal`, `xmp:CreateDate`, `photoshop:DateCreated`), so other apps date the
/// HEIC as the library does. A small thumbnail item (same orientation and profile) is stored beside
/// the image, as phones do, so that thumbnails can later be made without decoding the full image.
public struct HEICEncode: Stage {
    /// Starts libvips, FFmpeg and libheif for the run, before any worker thread.
    public static func prepare(_ settings: RunSettings) throws { try ImagingSetup.configure(for: settings) }

    public static let name = "heic-encode"
    public static let summary = "Encode the image as an 8-bit 4:2:0 HEIC (x265) with an embedded thumbnail, carrying EXIF (orientation reset), XMP, IPTC, the capture date and the ICC profile."
    public static let reads: Set<ItemAspect> = [.image, .captureDate]

    public struct Options: StageOptions {
        /// libheif quality 1...100.
        public var quality: Int
        /// The x265 speed preset.
        public var preset: String
        /// Long edge of the embedded thumbnail item in pixels; 0 when off.
        public var thumbnail: Int
        /// Where the file goes in the library.
        public var output: PathTemplate
        /// What becomes of the photo's XMP sidecar.
        public var xmp: XMPHandling

        /// Chosen by `Benchmarks/heic-quality.sh` (see `HEICTuning`).
        public static let defaultQuality = HEICTuning.quality
        public static let defaultPreset = HEICTuning.preset
        /// As an iPhone's: large enough for 200 px thumbnails and list views, about 3% of the pixels of a 2048 px photo.
        public static let defaultThumbnail = 320
        public static let defaultOutput = "Photos/{yyyy}/{MM}/{id}.heic"

        static let qualityOption = StageOption.integer(
            "quality", default: defaultQuality, in: 1...100, "libheif quality (x265 CRF = (100 - quality) / 2).")
        static let presetOption = StageOption.oneOf("preset", HEIFEncodeSettings.presets, default: defaultPreset,
                                               "x265 speed preset: slower presets make smaller files of the same quality.")
        static let thumbnailOption = StageOption<Int>.custom(
            "thumbnail", as: String.self, default: defaultThumbnail, shown: String(defaultThumbnail),
            accepts: "a long edge in pixels from 32 to 1024, or off",
            "Long edge of the thumbnail stored inside the HEIC (read instead of the full image by thumbnailers), or off.") { text in
            if ["off", "false", "no", "none"].contains(text) { return 0 }
            return Int(text).flatMap { (32...1024).contains($0) ? $0 : nil }
        }.keyedOnlyWhenNotDefault()  // added after libraries were encoded, as xmp: at their defaults they keep their work
        static let outputOption = StageOption.template("output", default: defaultOutput, "Path template inside the library.")
        static let xmpOption = StageOption.choice(
            "xmp", default: XMPHandling.embed,
            "The photo's XMP sidecar (ratings, keywords, titles, descriptions, people), merged over the photo's own XMP: embed puts it in the HEIC; "
                + "sidecar writes it beside the HEIC as <output name>.xmp; none leaves it out. The photo's own XMP and IPTC go into the HEIC either way.")
            .keyedOnlyWhenNotDefault()
        public static let options: [any OptionDeclaration] = [qualityOption, presetOption, thumbnailOption, outputOption, xmpOption]

        public init(quality: Int = defaultQuality, preset: String = defaultPreset, thumbnail: Int = defaultThumbnail,
                    output: PathTemplate = try! PathTemplate(defaultOutput), xmp: XMPHandling = .embed) {
            self.quality = quality
            self.preset = preset
            self.thumbnail = thumbnail
            self.output = output
            self.xmp = xmp
        }

        public init(from decoder: Decoder) throws {
            let reader = try OptionsReader(decoder, declaring: Self.options)
            quality = reader.read(Self.qualityOption)
            preset = reader.read(Self.presetOption)
            thumbnail = reader.read(Self.thumbnailOption)
            output = reader.read(Self.outputOption)
            xmp = reader.read(Self.xmpOption)
            try reader.finish()
        }
    }

    let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// A photo's sidecars go into the unit key unless `xmp: none`: an edited sidecar makes a new HEIC.
    public var readsSidecars: Bool { options.xmp != .none }

    /// The HEIC's path, and with `xmp: sidecar` its `.xmp` when the photo has an XMP sidecar.
    public func plannedOutputs(for item: Item, settings: RunSettings) -> [String] {
        guard let path = try? options.output.render(PathTemplate.values(for: item)) else { return [] }
        let writesSidecar = options.xmp == .sidecar && item.sidecars.contains { $0.kind == ExportSidecars.xmpKind }
        return [path] + (writesSidecar ? [XMPHandling.sidecarPath(forOutput: path)] : [])
    }

    public func process(_ item: Item, context: StageContext) throws {
        guard let image = item.image else { throw StageError("no decoded image: put 'resize' before 'heic-encode'") }
        let pixels = try image.eightBitRGB()
        var exif = image.exifData.map(ExifBlob.resettingOrientation)
        if let date = item.captureDate { exif = ExifBlob.settingDates(date.exifTags, in: exif) }
        let settings = HEIFEncodeSettings(quality: options.quality, preset: options.preset,
                                          x265Options: HEICTuning.x265Options(forPreset: options.preset),
                                          threads: ImagingSetup.threadsPerPhoto(for: context.settings))
        let thumbnail = try embeddedThumbnail(of: pixels)
        let path = try options.output.render(PathTemplate.values(for: item))
        let own = try item.sourceMetadata(settings: context.settings)
        if let problem = own.problems.first { throw StageError("cannot read the photo's metadata: \(problem)") }
        let xmp = options.xmp.packets(for: item, own: own, copy: (own.isHEIF ? 1 : own.orientation, pixels.width, pixels.height))
        try context.publish(path) { url in
            try HEIFEncoder.encode(try pixels.rgbPixels(), iccProfile: pixels.iccProfile, exif: exif, settings: settings,
                                   to: url.path, xmp: xmp.heic, thumbnail: thumbnail)
        }
        if let beside = xmp.beside {
            try context.publish(XMPHandling.sidecarPath(forOutput: path)) { url in try beside.write(to: url) }
        }
    }

    /// The thumbnail item's pixels: the image scaled to the option's long edge (Lanczos 3), none when
    /// the option is off or the image is no larger.
    func embeddedThumbnail(of pixels: Image) throws -> RGBPixels? {
        let size = options.thumbnail
        guard size > 0, max(pixels.width, pixels.height) > size else { return nil }
        do {
            return try pixels.thumbnail(width: size, height: size).rgbPixels()
        } catch let error as VipsError {
            throw StageError("cannot make the embedded thumbnail: \(error)")
        }
    }
}

extension Image {
    /// The packed 8-bit samples libheif takes (call on an `eightBitRGB()` image).
    func rgbPixels() throws -> RGBPixels {
        RGBPixels(bytes: try pixelBytes(), width: width, height: height, hasAlpha: hasAlpha)
    }
}
