import Foundation

/// A capture date as EXIF writes it: `DateTimeOriginal` text, the digits of `SubSecTimeOriginal`,
/// the `OffsetTimeOriginal` text.
public struct ExifDateTags: Sendable, Equatable {
    /// `YYYY:MM:DD HH:MM:SS`, local time.
    public var dateTime: String
    /// The fraction of a second's digits (`644`); nil for none.
    public var subSeconds: String?
    /// The UTC offset, `+02:00`; nil when unknown.
    public var offset: String?

    /// A date given as its three texts.
    public init(dateTime: String, subSeconds: String? = nil, offset: String? = nil) {
        self.dateTime = dateTime
        self.subSeconds = subSeconds
        self.offset = offset
    }
}

extension ExifBlob {
    /// The tags a capture date is written to, in the EXIF IFD: each of the original's and the
    /// digitized time's date, fraction and offset (exiftool's DateTimeOriginal and CreateDate).
    static let dateTags: [UInt16] = [0x9003, 0x9004]
    static let offsetTags: [UInt16] = [0x9011, 0x9012]
    static let subSecondTags: [UInt16] = [0x9291, 0x9292]
    /// The EXIF IFD pointer, in IFD0.
    static let exifPointerTag: UInt16 = 0x8769

    /// `blob` with its capture date set to `date`: DateTimeOriginal and DateTimeDigitized, their
    /// SubSecTime and OffsetTime tags (removed when `date` has no fraction or no offset).
    ///
    /// Every other byte stays where it was, maker notes included: when the tags already hold values
    /// of the same lengths they are overwritten in place; otherwise a new EXIF IFD (with IFD0's
    /// other entries and a pointer to it, when IFD0 had none) is appended to the block and pointed
    /// to, leaving the old one unused. The blob may start with `Exif\0\0`, HEIF's offset or bare
    /// TIFF, in either byte order; what precedes the TIFF header is kept. A nil blob, or one whose
    /// directories cannot be walked safely, gives a new block (`Exif\0\0` and big-endian TIFF)
    /// holding only the date. Setting the same date twice gives the same bytes.
    public static func settingDates(_ date: ExifDateTags, in blob: Data?) -> Data {
        let values = Self.values(for: date)
        guard let blob, let tiff = TIFFBytes(blob), var edit = TIFFEdit(tiff), edit.setExifValues(values) else { return fresh(values) }
        let edited = Data(edit.bytes)
        // A damaged block may have pointers the edit trusted (an entry's value overlapping
        // another's, a tag twice): the edit stands only when libexif reads the date back.
        return readsBack(date, from: edited) ? edited : fresh(values)
    }

    /// Whether libexif reads `date` from `blob`'s EXIF IFD, each of its three tags exactly.
    static func readsBack(_ date: ExifDateTags, from blob: Data) -> Bool {
        guard let tags = try? ExifTags(parsing: blob) else { return false }
        return tags.dateTimeOriginal == date.dateTime && tags.subSecTimeOriginal == date.subSeconds
            && tags.offsetTimeOriginal == date.offset
    }

    /// The value each date tag gets (nil: removed).
    static func values(for date: ExifDateTags) -> [(tag: UInt16, value: [UInt8]?)] {
        let ascii = { (text: String) in Array(text.utf8) + [0] }
        return dateTags.map { ($0, ascii(date.dateTime)) } + offsetTags.map { ($0, date.offset.map(ascii)) }
            + subSecondTags.map { ($0, date.subSeconds.map(ascii)) }
    }

    /// A new block: `Exif\0\0`, then big-endian TIFF with IFD0 pointing to an EXIF IFD that holds
    /// ExifVersion 0232 and the date tags.
    static func fresh(_ values: [(tag: UInt16, value: [UInt8]?)]) -> Data {
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]
        let exifIFD = 8 + 2 + 12 + 4
        tiff += [0, 1] + TIFFEntry.long(exifPointerTag, UInt32(exifIFD), bigEndian: true).raw + [0, 0, 0, 0]
        let version = TIFFEntry(tag: 0x9000, type: 7, count: 4, raw: [0x90, 0x00, 0, 7, 0, 0, 0, 4] + Array("0232".utf8))
        var directory = TIFFDirectory(entries: [version], next: 0)
        directory.set(values, bigEndian: true)
        tiff += directory.serialized(at: exifIFD, bigEndian: true)
        return Data(TIFFBytes.exifHeader + tiff)
    }
}


extension ExifBlob {
    /// Where the TIFF header (`II*\0` or `MM\0*`) starts in `blob`, after any `Exif\0\0` or HEIF
    /// offset before it; nil when there is none near the start.
    public static func tiffHeaderOffset(in blob: Data) -> Int? { TIFFBytes(blob)?.tiffStart }
}
