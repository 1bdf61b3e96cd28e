import DarkroomCore
import DarkroomModel
import DarkroomRaw
import DarkroomVips
import Foundation

/// How a RAW photo becomes the pixels of its outputs (`resize`'s `raw` option).
public enum RawRendering: String, Codable, Sendable, CaseIterable {
    /// The camera's embedded JPEG preview when it is at least the size asked for (it is the camera's own
    /// rendering, and decoding it is fast); otherwise the RAW is developed.
    case auto
    /// Always the embedded preview, at whatever size the camera stored it; developed only when there is
    /// no usable preview.
    case preview
    /// Always developed from the sensor data (LibRaw: camera white balance, half-size demosaic when that
    /// is large enough).
    case develop
}

/// A RAW photo opened once for its item: LibRaw's identification, the capture metadata read from the
/// RAW's own structures, the embedded preview, and the development once one is made. The first
/// rendition chosen (the preview or a development) is kept, so that the smaller outputs made after it
/// (the thumbnail after the 2048 px image) show the same rendering and decode nothing again.
///
/// Used on the item's thread only (a `RawFile` is not shareable).
final class RawSource {
    private let file: RawFile
    /// The capture metadata (nil when the RAW's structures could not be read: `metadataProblem` says why).
    let metadata: RawMetadata?
    let metadataProblem: String?
    private var preview: Result<RawPreview, Error>?
    private var developed: Image?
    private var chosen: Rendition?

    private enum Rendition { case preview, developed }

    /// Opens `url` with LibRaw (headers only) and reads its metadata; refuses a sensor over `pixelLimit`.
    init(_ url: URL, pixelLimit: Int) throws {
        do {
            file = try RawFile.open(url.path, maximumPixels: pixelLimit)
            try file.verifySensorDataPresent()
        } catch let error as RawError {
            throw StageError(raw: error)
        }
        do {
            metadata = try RawMetadata.read(path: url.path)
            metadataProblem = nil
        } catch {
            metadata = nil
            metadataProblem = "\(url.path): RAW metadata not read: \(error)"
        }
    }

    /// The photo's upright size at full resolution (what a development at full size makes).
    var width: Int { file.info.outputWidth }
    var height: Int { file.info.outputHeight }
    /// How the camera was held (EXIF 1, 3, 6 or 8), from the RAW's own metadata.
    var orientation: Int { file.info.orientation }

    /// The photo upright, fitted into `size` (never enlarged), carrying the RAW's EXIF and XMP; converted
    /// to sRGB when `colour` asks. Decoded now, so a damaged preview is caught here and replaced by a
    /// development (with a warning through `warn`).
    func image(_ size: DecodeSize, rendering: RawRendering, colour: ColourHandling, warn: (String) -> Void) throws -> Image {
        do {
            let image = try fittedRendition(size, rendering: rendering, colour: colour, warn: warn)
            var blobs: [String: Data] = [:]
            if let metadata { blobs["exif-data"] = metadata.exifBlock }
            if let xmp = metadata?.xmpPacket { blobs["xmp-data"] = xmp }
            return try image.withMetadata(blobs)
        } catch let error as RawError {
            throw StageError(raw: error)
        } catch let error as VipsError {
            throw StageError.image("cannot decode the RAW photo", error)
        }
    }

    private func fittedRendition(_ size: DecodeSize, rendering: RawRendering, colour: ColourHandling,
                                 warn: (String) -> Void) throws -> Image {
        if chosen != .developed, rendering != .develop {
            switch usablePreview(for: size, rendering: rendering) {
            case .success(let preview):
                do {
                    let image = try fitted(try preview.image(shrink: shrink(of: preview, for: size)).autorotated(),
                                           size: size, colour: colour).materialized()
                    chosen = .preview
                    return image
                } catch let error as VipsError {
                    self.preview = .failure(RawError(path: file.path, reason: .previewCorrupt(error.message)))
                    warn("the embedded preview is damaged (\(error.message)); developed from the RAW data instead")
                }
            case .failure(let reason):
                if let reason = reason.reason { warn("\(reason); developed from the RAW data instead") }
            }
        }
        chosen = .developed
        return try fitted(try development(for: size, colour: colour), size: size, colour: colour).materialized()
    }

    /// The embedded preview when `rendering` lets it stand for the photo at `size`; otherwise why not
    /// (nil when there is nothing to warn about: `auto` develops a preview smaller than the size asked).
    private func usablePreview(for size: DecodeSize, rendering: RawRendering) -> Result<RawPreview, Unusable> {
        if preview == nil { preview = Result { try file.preview() } }
        switch preview! {
        case .failure(let error as RawError) where error.reason == .noPreview:
            return .failure(Unusable(rendering == .preview ? "the RAW file has no embedded preview" : nil))
        case .failure(let error as RawError):
            return .failure(Unusable(error.reason.text))
        case .failure(let error):
            return .failure(Unusable("the embedded preview is unreadable: \(error)"))
        case .success(let found):
            let (previewLong, previewShort) = (max(found.width, found.height), min(found.width, found.height))
            let (photoLong, photoShort) = (max(width, height), min(width, height))
            let previewAspect = Double(previewLong) / Double(max(1, previewShort))
            let photoAspect = Double(photoLong) / Double(max(1, photoShort))
            if abs(previewAspect - photoAspect) > 0.02 * photoAspect {
                return .failure(Unusable("the embedded preview is \(found.width)x\(found.height), not the shape of the "
                                         + "\(width)x\(height) photo"))
            }
            if rendering == .auto, previewLong < photoLong, !covers(previewLong, photoLong, size) { return .failure(Unusable(nil)) }
            return .success(found)
        }
    }

    /// Why the preview does not stand for the photo, in words (nil: no warning is due).
    private struct Unusable: Error {
        let reason: String?
        init(_ reason: String?) { self.reason = reason }
    }

    /// Whether a rendition with long edge `long`, of a photo whose long edge is `photoLong`, fills
    /// `size` without being enlarged.
    private func covers(_ long: Int, _ photoLong: Int, _ size: DecodeSize) -> Bool {
        let scale = Double(long) / Double(photoLong)
        let (renditionWidth, renditionHeight) = (Double(width) * scale, Double(height) * scale)
        let (across, down) = (renditionWidth / Double(size.width), renditionHeight / Double(size.height))
        let fit = size.crop == .none ? max(across, down) : min(across, down)
        return fit >= 0.995
    }

    /// The libjpeg scale (1, 2, 4 or 8) that decodes the preview at the least size still covering `size`.
    private func shrink(of preview: RawPreview, for size: DecodeSize) -> Int {
        guard preview.encoding == .jpeg else { return 1 }
        let turned = preview.orientation >= 5
        let (across, down) = (Double(turned ? preview.height : preview.width) / Double(size.width),
                              Double(turned ? preview.width : preview.height) / Double(size.height))
        return Image.jpegShrink(forScale: size.crop == .none ? max(across, down) : min(across, down))
    }

    /// The development (made once): at half size when that still covers `size`, in Display P3 when the
    /// colours are kept (wide-gamut greens and reds survive) and in sRGB otherwise.
    private func development(for size: DecodeSize, colour: ColourHandling) throws -> Image {
        if let developed { return developed }
        let halfSize = covers(max(width, height) / 2, max(width, height), size)
        let made = try file.develop(halfSize: halfSize, colourSpace: colour == .keep ? .displayP3 : .sRGB).image()
        developed = made
        return made
    }

    private func fitted(_ image: Image, size: DecodeSize, colour: ColourHandling) throws -> Image {
        let converted = colour == .srgb && image.needsConversionToSRGB ? try image.converted(toProfile: "srgb") : image
        return try converted.thumbnail(width: size.width, height: size.height, crop: size.crop)
    }
}

extension StageError {
    /// A RAW file's failure, with the kind its reason names (the runner names the file).
    init(raw error: RawError) {
        self.init(error.reason.text + (error.libraryDetail.map { " (\($0))" } ?? ""), kind: FailureKind(raw: error.reason))
    }
}

extension FailureKind {
    /// The kind of a RAW failure (nil for a reason of no particular kind).
    init?(raw reason: RawError.Reason) {
        switch reason {
        case .imageDataMissing: self = .truncated
        case .imageDataCorrupt, .previewCorrupt, .metadataCorrupt: self = .corrupt
        case .unsupportedFormat, .unknownContainer: self = .notAPhotoOrVideo
        case .tooManyPixels: self = .overPixelLimit
        case .unreadable: self = .unreadable
        default: return nil
        }
    }
}
