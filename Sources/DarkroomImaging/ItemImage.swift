import DarkroomCore
import DarkroomRaw
import DarkroomVips
import Foundation
import DarkroomModel

/// The decoded image a stage leaves for the next (`resize` sets it, `heic-encode` reads it).
public enum CurrentImage: AttachmentKey {
    public typealias Value = Image
}

/// The source file opened for its header and metadata only (no pixels decoded).
enum SourceHeader: AttachmentKey {
    typealias Value = Image
}

/// A RAW source file opened with LibRaw (headers and metadata; pixels when first asked for).
enum OpenRawSource: AttachmentKey {
    typealias Value = RawSource
}

extension Item {
    /// The current decoded image, if a stage has produced one.
    public var image: Image? {
        get { attachments[CurrentImage.self] }
        set { attachments[CurrentImage.self] = newValue }
    }

    /// The source file's header and metadata (EXIF, XMP, ICC), opened once per item and checked
    /// against the run's pixel limit. Decodes no pixels.
    public func sourceHeader(settings: RunSettings) throws -> Image {
        if let header = attachments[SourceHeader.self] { return header }
        let header = try ImageLoader.header(of: source, pixelLimit: settings.pixelLimit)
        attachments[SourceHeader.self] = header
        if pixelWidth == nil {
            let turned = header.orientation >= 5
            pixelWidth = turned ? header.height : header.width
            pixelHeight = turned ? header.width : header.height
        }
        orientation = header.orientation
        return header
    }

    /// Whether the source is a RAW photo (by its extension: the formats LibRaw decodes).
    public var isRaw: Bool { MediaKind.isRawPhoto(source.path) }

    /// The RAW source, opened once per item and checked against the run's pixel limit.
    func rawSource(settings: RunSettings) throws -> RawSource {
        if let open = attachments[OpenRawSource.self] { return open }
        let raw = try RawSource(source, pixelLimit: settings.pixelLimit)
        attachments[OpenRawSource.self] = raw
        return raw
    }

    /// A shrink-on-load decode of the source that fits inside `width` x `height` (cropping when
    /// asked), auto-oriented; the header checked once per item against the pixel limit is reused.
    /// A RAW is rendered as `raw` says (its first rendition is kept for the item's smaller outputs).
    /// `warn` hears of anything worked around (an unreadable embedded thumbnail or RAW preview).
    public func thumbnail(width: Int, height: Int, crop: Image.Crop = .none, settings: RunSettings,
                          colour: ColourHandling, raw: RawRendering = .auto, warn: (String) -> Void = { _ in }) throws -> Image {
        if isRaw {
            return try rawSource(settings: settings).image(DecodeSize(width: width, height: height, crop: crop),
                                                           rendering: raw, colour: colour, warn: warn)
        }
        let header = try sourceHeader(settings: settings)
        return try ImageLoader.decode(source, header: header, size: DecodeSize(width: width, height: height, crop: crop),
                                      exportProfile: colour.exportProfile(for: header), warn: warn)
    }
}

/// Opens images safely: the header is checked against a pixel limit before any decoding, and
/// truncated or corrupt data is an error rather than a grey half-image.
public enum ImageLoader {
    /// How strict decoding is everywhere in Darkroom.
    public static let strictness: Image.FailOn = .error

    /// Opens `url` for its header, refusing images with more than `pixelLimit` pixels.
    public static func header(of url: URL, pixelLimit: Int) throws -> Image {
        let header: Image
        do {
            header = try Image.open(url.path, failOn: strictness)
        } catch let error as VipsError {
            throw StageError.image("cannot read image", error)
        }
        try checkPixelLimit(width: header.width, height: header.height, limit: pixelLimit)
        return header
    }

    /// Throws when `width` x `height` is over `limit` pixels.
    public static func checkPixelLimit(width: Int, height: Int, limit: Int) throws {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > limit {
            let megapixels = Double(width) * Double(height) / 1_000_000
            throw StageError(String(format: "image is %dx%d (%.0f MP), over the limit of %.0f MP; refused before decoding",
                                    width, height, megapixels, Double(limit) / 1_000_000), kind: .overPixelLimit)
        }
    }

    /// A photo decoded at the size it is needed (see `decode(_:header:size:exportProfile:)`), its
    /// header first checked against `pixelLimit`, its colour handled as `colour` says.
    public static func decode(_ url: URL, size: DecodeSize, pixelLimit: Int, colour: ColourHandling) throws -> Image {
        let header = try header(of: url, pixelLimit: pixelLimit)
        return try decode(url, header: header, size: size, exportProfile: colour.exportProfile(for: header))
    }

    /// Darkroom's one decode-for-size, for a file whose `header` has passed the pixel limit: decoded
    /// at about the size needed (libjpeg scales by 1/2, 1/4, 1/8 while decoding; HEIC and WebP
    /// decode their thumbnail or a reduced image where they can), upright (EXIF orientation and HEIF
    /// `irot`/`imir` applied once), converted to `exportProfile` when given, then resampled to
    /// `size`. Pixels are decoded when first read; call `materialized()` to surface errors at once
    /// (HEIF results are decoded already: see `heifShrunkOnLoad`). `warn` hears of workarounds.
    public static func decode(_ url: URL, header: Image, size: DecodeSize, exportProfile: String?,
                              warn: (String) -> Void = { _ in }) throws -> Image {
        do {
            var image = try header.loader == "heifload"
                ? heifShrunkOnLoad(url, header: header, size: size, exportProfile: exportProfile, warn: warn)
                : shrunkOnLoad(url, header: header, size: size, exportProfile: exportProfile)
            let filling = size.crop != .none
            let (smallestWidth, smallestHeight) = (Double(size.width) / size.slack, Double(size.height) / size.slack)
            let small = filling ? (Double(image.width) < smallestWidth || Double(image.height) < smallestHeight)
                                : (Double(image.width) < smallestWidth && Double(image.height) < smallestHeight)
            // Shrink-on-load never enlarges: a photo smaller than its box is scaled up only when asked.
            if size.enlarge && small {
                image = try image.thumbnail(width: size.width, height: size.height, crop: size.crop, upscale: true)
            }
            return image
        } catch let error as VipsError {
            throw StageError.image("cannot decode image", error)
        }
    }

    /// `vips_thumbnail` keeps a factor of two in hand for its resampler, so a 12 MP JPEG wanted at
    /// 1080p decodes in full; with `closestJPEGScale` a JPEG is instead loaded at the largest 1/2,
    /// 1/4 or 1/8 scale that still covers the box (shrunk by `slack`), then resampled (Lanczos 3) when
    /// larger than the box.
    private static func shrunkOnLoad(_ url: URL, header: Image, size: DecodeSize, exportProfile: String?) throws -> Image {
        let turned = header.orientation >= 5
        let (sourceWidth, sourceHeight) = turned ? (header.height, header.width) : (header.width, header.height)
        let (across, down) = (Double(sourceWidth) / Double(size.width), Double(sourceHeight) / Double(size.height))
        let shrink = Image.jpegShrink(forScale: (size.crop == .none ? max(across, down) : min(across, down)) * size.slack)
        guard size.closestJPEGScale, header.loader == "jpegload", shrink > 1 || size.slack > 1 else {
            return try Image.thumbnail(url.path, width: size.width, height: size.height, crop: size.crop,
                                       failOn: strictness, exportProfile: exportProfile)
        }
        let image = try Image.jpeg(url.path, shrink: shrink, sequential: header.orientation == 1, failOn: strictness)
        return try fitted(image, header: header, size: size, exportProfile: exportProfile)
    }

    /// A HEIF file through `vips_thumbnail`, which reads the embedded thumbnail item instead of the
    /// main image whenever the item is larger than the box (Darkroom's own HEICs carry one of 320 px,
    /// phones' 240 to 512 px). The result is small, so it is decoded at once: libheif 1.15 rejects
    /// some phones' thumbnail items ("bad image dimensions on decode"), and then the main image is
    /// decoded instead, with a warning, rather than failing the photo.
    private static func heifShrunkOnLoad(_ url: URL, header: Image, size: DecodeSize, exportProfile: String?,
                                         warn: (String) -> Void) throws -> Image {
        let shrunk = try Image.thumbnail(url.path, width: size.width, height: size.height, crop: size.crop,
                                         failOn: strictness, exportProfile: exportProfile)
        do {
            return try shrunk.materialized()
        } catch let thumbnailError as VipsError {
            let main = try fitted(try Image.open(url.path, failOn: strictness), header: header, size: size,
                                  exportProfile: exportProfile).materialized()
            warn("embedded thumbnail unreadable (\(thumbnailError)); made from the full image instead")
            return main
        }
    }

    /// An opened (or shrunk-on-load) photo made upright, converted to `exportProfile` and fitted to `size`.
    private static func fitted(_ loaded: Image, header: Image, size: DecodeSize, exportProfile: String?) throws -> Image {
        var image = loaded
        if header.orientation != 1 { image = try image.autorotated() }
        if let exportProfile { image = try image.converted(toProfile: exportProfile) }
        return try image.thumbnail(width: size.width, height: size.height, crop: size.crop)
    }
}

/// The box a photo is decoded into.
public struct DecodeSize: Sendable, Hashable {
    /// The box, in pixels.
    public var width: Int
    public var height: Int
    /// `.none` fits the whole photo inside the box; any other crop fills the box and cuts the rest.
    public var crop: Image.Crop
    /// Scale a photo smaller than the box up to it (frames and collage cells must be filled).
    public var enlarge: Bool
    /// Load a JPEG at the closest libjpeg scale instead of `vips_thumbnail`'s choice: faster when the
    /// box is a large fraction of the photo (video frames), slightly softer.
    public var closestJPEGScale: Bool
    /// With `closestJPEGScale`: how much smaller than the box the decode may be (1 or more). A JPEG
    /// scale between the box divided by `slack` and the box is kept as it is, not resampled: for a caller
    /// that resamples the picture again anyway (a warp), so the photo is resampled once.
    public var slack: Double

    /// A box of `width` x `height`, fitted (or filled with `crop`), by default never enlarged.
    public init(width: Int, height: Int, crop: Image.Crop = .none, enlarge: Bool = false, closestJPEGScale: Bool = false,
                slack: Double = 1) {
        self.width = width; self.height = height; self.crop = crop
        self.enlarge = enlarge; self.closestJPEGScale = closestJPEGScale; self.slack = max(1, slack)
    }
}
