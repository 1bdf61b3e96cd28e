internal import CLibRaw
import DarkroomVips
import Foundation

/// The preview a camera embeds in its RAW file (usually a full-size or 1/4-size JPEG of the camera's
/// own rendering), stored as the sensor lies: turn it by `orientation` to show it upright.
public struct RawPreview: Sendable {
    /// How the preview is stored.
    public enum Encoding: Sendable, Equatable {
        /// A JPEG file's bytes.
        case jpeg
        /// Packed 8-bit pixels, `bands` samples each.
        case bitmap(bands: Int)
    }

    let storage: ProcessedImage
    /// JPEG or a bitmap.
    public let encoding: Encoding
    /// The preview's width as stored (before turning by `orientation`), from its JPEG frame header.
    public let width: Int
    /// The preview's height as stored (before turning by `orientation`).
    public let height: Int
    /// The RAW's orientation, which applies to the preview too (1, 3, 6 or 8).
    public let orientation: Int

    /// The JPEG bytes or packed pixels (a copy).
    public var data: Data { storage.withBytes { Data($0) } }

    /// The preview as a libvips image carrying `orientation` (so `autorotated()` turns it upright).
    /// A JPEG is decoded lazily at 1/`shrink` scale (1, 2, 4 or 8) by libjpeg; a bitmap ignores `shrink`.
    /// A damaged JPEG fails when its pixels are first read, with libvips' reason.
    public func image(shrink: Int = 1) throws -> Image {
        let image: Image
        switch encoding {
        case .jpeg:
            image = try storage.withBytes { try Image.jpeg(copying: $0, shrink: shrink) }
        case .bitmap(let bands):
            image = try storage.withBytes { bytes in
                try Image.pixels(copying: bytes, width: width, height: height, bands: bands, bitsPerSample: 8, profile: nil)
            }
        }
        return try image.withOrientation(orientation)
    }
}

extension RawFile {
    /// Extracts the embedded preview (reading only its bytes, not the sensor data).
    ///
    /// Throws `RawError` with `.noPreview` when the file has none, `.previewUnsupported` for LibRaw's
    /// rarer layouts, and `.previewCorrupt` when the JPEG has no readable frame header.
    public func preview() throws -> RawPreview {
        try reopenIfNeeded()
        log.reset()
        let code = libraw_unpack_thumb(handle)
        noteFatal(code)
        if code == LIBRAW_NO_THUMBNAIL.rawValue { throw RawError(path: path, reason: .noPreview) }
        if code == LIBRAW_UNSUPPORTED_THUMBNAIL.rawValue {
            throw RawError(path: path, reason: .previewUnsupported(Self.thumbnailFormatName(handle.pointee.thumbnail.tformat)))
        }
        if code == LIBRAW_IO_ERROR.rawValue || code == LIBRAW_DATA_ERROR.rawValue || log.problem(path: path) != nil {
            throw RawError(path: path, reason: .previewCorrupt("the file ends before the preview does"),
                           libraryDetail: "\(LibRawCode.name(code)) from libraw_unpack_thumb")
        }
        guard code == 0 else { throw RawError(path: path, code: code, function: "libraw_unpack_thumb") }
        var status: Int32 = 0
        guard let made = libraw_dcraw_make_mem_thumb(handle, &status), status == 0 else {
            throw RawError(path: path, code: status == 0 ? 12 : status, function: "libraw_dcraw_make_mem_thumb")
        }
        let storage = ProcessedImage(taking: made)
        if storage.isJPEG {
            guard let size = storage.withBytes({ JPEGFrameSize.read($0) }) else {
                throw RawError(path: path, reason: .previewCorrupt("the JPEG has no frame header"))
            }
            return RawPreview(storage: storage, encoding: .jpeg, width: size.width, height: size.height, orientation: info.orientation)
        }
        guard storage.bits == 8, storage.bands >= 1, storage.width > 0, storage.height > 0,
              storage.byteCount >= storage.width * storage.height * storage.bands else {
            throw RawError(path: path, reason: .previewCorrupt(
                "a \(storage.width)x\(storage.height) bitmap of \(storage.bands) bands holds \(storage.byteCount) bytes"))
        }
        return RawPreview(storage: storage, encoding: .bitmap(bands: storage.bands), width: storage.width, height: storage.height,
                          orientation: info.orientation)
    }

    static func thumbnailFormatName(_ format: LibRaw_thumbnail_formats) -> String {
        switch format {
        case LIBRAW_THUMBNAIL_BITMAP16: return "16-bit bitmap"
        case LIBRAW_THUMBNAIL_LAYER: return "Foveon layers"
        case LIBRAW_THUMBNAIL_ROLLEI: return "Rollei"
        default: return "unknown"
        }
    }
}

/// The width and height in a JPEG's first frame header (SOF0...SOF15), found by walking its segments.
enum JPEGFrameSize {
    static func read(_ bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var at = 2
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { return nil }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }  // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { at += 2; continue }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2 else { return nil }
            let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrame {
                guard at + 9 <= bytes.count else { return nil }
                let height = Int(bytes[at + 5]) << 8 | Int(bytes[at + 6])
                let width = Int(bytes[at + 7]) << 8 | Int(bytes[at + 8])
                return width > 0 && height > 0 ? (width, height) : nil
            }
            if marker == 0xDA || marker == 0xD9 { return nil }  // scan data before any frame header
            at += 2 + length
        }
        return nil
    }
}
