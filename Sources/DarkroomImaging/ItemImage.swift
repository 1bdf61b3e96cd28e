import DarkroomCore
import DarkroomVips
import Foundation

/// The decoded image a stage leaves for the next (`resize` sets it, `heic-encode` reads it).
public enum CurrentImage: AttachmentKey {
    public typealias Value = Image
}

/// The source file opened for its header and metadata only (no pixels decoded).
enum SourceHeader: AttachmentKey {
    typealias Value = Image
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

    /// A shrink-on-load decode of the source that fits inside `width` x `height` (cropping when
    /// asked), auto-oriented; the header checked once per item against the pixel limit is reused.
    public func thumbnail(width: Int, height: Int, crop: Image.Crop = .none, settings: RunSettings,
                          colour: ColourHandling) throws -> Image {
        let header = try sourceHeader(settings: settings)
        return try ImageLoader.decode(source, width: width, height: height, crop: crop,
                                      exportProfile: colour.exportProfile(for: header))
    }
}

/// Opens images safely: the header is checked against a pixel limit before any decoding, and
/// truncated or corrupt data is an error rather than a grey half-image.
public enum ImageLoader {
    /// How strict decoding is everywhere in Darkroom.
    public static let strictness: Image.FailOn = .error

    /// Opens `url` for its header, refusing images with more than `pixelLimit` pixels.
    public static func header(of url: URL, pixelLimit: Int) throws -> Image {
        try Vips.start()
        let header: Image
        do {
            header = try Image.open(url.path, failOn: strictness)
        } catch let error as VipsError {
            throw StageError("cannot read image: \(error)")
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
                                    width, height, megapixels, Double(limit) / 1_000_000))
        }
    }

    /// A shrink-on-load decode of `url` that fits inside `width` x `height` (cropping when asked),
    /// auto-oriented, after the header passed the pixel limit. Pixels are decoded when the result
    /// is first read; call `materialized()` to surface decode errors at once.
    public static func thumbnail(of url: URL, width: Int, height: Int, crop: Image.Crop = .none,
                                 pixelLimit: Int, exportProfile: String? = nil) throws -> Image {
        _ = try header(of: url, pixelLimit: pixelLimit)
        return try decode(url, width: width, height: height, crop: crop, exportProfile: exportProfile)
    }

    /// The shrink-on-load decode itself, for a file whose header has already passed `header(of:pixelLimit:)`.
    public static func decode(_ url: URL, width: Int, height: Int, crop: Image.Crop, exportProfile: String?) throws -> Image {
        do {
            return try Image.thumbnail(url.path, width: width, height: height, crop: crop,
                                       failOn: strictness, exportProfile: exportProfile)
        } catch let error as VipsError {
            throw StageError("cannot decode image: \(error)")
        }
    }
}
