import Foundation
internal import CExif

/// A libexif `ExifData` loaded from a blob; owns the handle and frees it in `deinit`.
///
/// Not shared between threads: it lives only while `ExifTags` copies its values out.
final class ExifDocument {
    private let data: UnsafeMutablePointer<ExifData>

    /// Loads `blob` (anything `TIFFBytes` recognises) with libexif, leaving maker notes and
    /// non-conforming values as they are.
    init(_ blob: Data) throws {
        guard let tiff = TIFFBytes(blob) else { throw ExifError.noTIFFHeader(byteCount: blob.count) }
        // libexif wants `Exif\0\0` + TIFF; give it exactly that whatever the wrapping was.
        let normalised = TIFFBytes.exifHeader + tiff.tiff
        guard normalised.count <= Int(UInt32.max) else { throw ExifError.tooLarge(byteCount: blob.count) }
        guard let data = exif_data_new() else { throw ExifError.outOfMemory }
        self.data = data
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        exif_data_set_option(data, EXIF_DATA_OPTION_DONT_CHANGE_MAKER_NOTE)
        normalised.withUnsafeBufferPointer { buffer in
            exif_data_load_data(data, buffer.baseAddress, UInt32(buffer.count))
        }
        let ifds: [ExifIfd] = [EXIF_IFD_0, EXIF_IFD_EXIF, EXIF_IFD_GPS]
        guard ifds.contains(where: { (darkroom_exif_ifd(data, $0)?.pointee.count ?? 0) > 0 }) else {
            throw ExifError.noEntries(byteCount: blob.count)
        }
    }

    /// An empty document (no entry in any IFD), to be filled with `setString`: EXIF for a photo
    /// whose own had none, or had one libexif could not read.
    init() throws {
        guard let data = exif_data_new() else { throw ExifError.outOfMemory }
        self.data = data
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
    }

    deinit { exif_data_unref(data) }

    /// Where a tag lives.
    enum Directory {
        case ifd0, exif, gps, thumbnail

        var ifd: ExifIfd {
            switch self {
            case .ifd0: return EXIF_IFD_0
            case .exif: return EXIF_IFD_EXIF
            case .gps: return EXIF_IFD_GPS
            case .thumbnail: return EXIF_IFD_1
            }
        }
    }

    // MARK: Editing

    /// Removes every entry of `directory` (libexif then writes no pointer to it).
    func removeAll(in directory: Directory) {
        guard let content = darkroom_exif_ifd(data, directory.ifd) else { return }
        while content.pointee.count > 0, let last = content.pointee.entries[Int(content.pointee.count) - 1] {
            exif_content_remove_entry(content, last)
        }
    }

    /// Removes one entry, when present.
    func remove(_ tag: UInt16, in directory: Directory) {
        guard let content = darkroom_exif_ifd(data, directory.ifd),
              let entry = exif_content_get_entry(content, ExifTag(rawValue: UInt32(tag))) else { return }
        exif_content_remove_entry(content, entry)
    }

    /// Sets an ASCII entry (DateTimeOriginal, OffsetTimeOriginal...) to `text`, replacing it when present.
    func setString(_ text: String, for tag: UInt16, in directory: Directory) throws {
        guard darkroom_exif_set_ascii(data, directory.ifd, ExifTag(rawValue: UInt32(tag)), text) == 0 else { throw ExifError.outOfMemory }
    }

    /// Removes the thumbnail: IFD1 and the JPEG it points to.
    func removeThumbnail() {
        removeAll(in: .thumbnail)
        darkroom_exif_drop_thumbnail(data)
    }

    /// The document serialised by libexif: `Exif\0\0` followed by TIFF, as libvips' `exif-data`.
    func serialized(sourceByteCount: Int) throws -> Data {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        exif_data_save_data(data, &bytes, &size)
        guard let bytes, size > 0 else { throw ExifError.unwritable(byteCount: sourceByteCount) }
        defer { free(bytes) }
        return Data(bytes: bytes, count: Int(size))
    }

    /// An ASCII value cut at its first NUL and trimmed of whitespace; nil when absent or blank.
    func string(_ tag: UInt16, in directory: Directory) -> String? {
        guard let entry = entry(tag, in: directory), entry.format == EXIF_FORMAT_ASCII || entry.format == EXIF_FORMAT_UNDEFINED,
              let bytes = entry.data else { return nil }
        let raw = UnsafeBufferPointer(start: bytes, count: Int(entry.size))
        let text = raw.prefix(while: { $0 != 0 })
        let decoded = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return decoded.isEmpty ? nil : decoded
    }

    /// The raw value bytes of an entry of any format (a maker note, say), as stored; nil when absent.
    func bytes(_ tag: UInt16, in directory: Directory) -> Data? {
        guard let entry = entry(tag, in: directory), let bytes = entry.data, entry.size > 0 else { return nil }
        return Data(bytes: bytes, count: Int(entry.size))
    }

    /// The first value of a SHORT entry (or LONG, which some writers use instead).
    func integer(_ tag: UInt16, in directory: Directory) -> Int? {
        guard let entry = entry(tag, in: directory), entry.components >= 1, let bytes = entry.data else { return nil }
        let order = exif_data_get_byte_order(data)
        switch entry.format {
        case EXIF_FORMAT_SHORT where entry.size >= 2:
            return Int(exif_get_short(bytes, order))
        case EXIF_FORMAT_LONG where entry.size >= 4:
            return Int(exif_get_long(bytes, order))
        default:
            return nil
        }
    }

    /// The values of a RATIONAL (or SRATIONAL) entry, nil for any with a zero denominator.
    func rationals(_ tag: UInt16, in directory: Directory) -> [Double?] {
        guard let entry = entry(tag, in: directory), let bytes = entry.data else { return [] }
        let order = exif_data_get_byte_order(data)
        let count = min(Int(entry.components), Int(entry.size) / 8)
        guard count > 0 else { return [] }
        return (0..<count).map { index -> Double? in
            let at = bytes + 8 * index
            switch entry.format {
            case EXIF_FORMAT_RATIONAL:
                let value = exif_get_rational(at, order)
                return value.denominator == 0 ? nil : Double(value.numerator) / Double(value.denominator)
            case EXIF_FORMAT_SRATIONAL:
                let value = exif_get_srational(at, order)
                return value.denominator == 0 ? nil : Double(value.numerator) / Double(value.denominator)
            default:
                return nil
            }
        }
    }

    private func entry(_ tag: UInt16, in directory: Directory) -> ExifEntry? {
        guard let content = darkroom_exif_ifd(data, directory.ifd),
              let entry = exif_content_get_entry(content, ExifTag(rawValue: UInt32(tag))) else { return nil }
        return entry.pointee
    }
}
