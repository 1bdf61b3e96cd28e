import DarkroomExif
import DarkroomModel
import DarkroomXMP

extension CaptureDate {
    /// The date as EXIF writes it: `2023:12:24 16:20:00`, the fraction's digits, `+01:00`.
    public var exifTags: ExifDateTags {
        let dateTime = String(format: "%04d:%02d:%02d %02d:%02d:%02d", local.year, local.month, local.day, local.hour, local.minute, local.second)
        return ExifDateTags(dateTime: dateTime, subSeconds: fractionDigits, offset: utcOffsetSeconds.map { CaptureDate.offsetText($0) })
    }

    /// The date as XMP writes it: `2023-12-24T16:20:00.5+01:00` (no offset when it is unknown).
    public var xmpText: String {
        let base = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", local.year, local.month, local.day, local.hour, local.minute, local.second)
        return base + (fractionDigits.map { "." + $0 } ?? "") + CaptureDate.offsetText(utcOffsetSeconds)
    }

    /// The fraction of a second's digits, to the millisecond the catalog records, without trailing
    /// zeros (`5` for half a second); nil for none.
    var fractionDigits: String? {
        let milliseconds = local.nanosecond / 1_000_000
        guard milliseconds > 0 else { return nil }
        var digits = String(format: "%03d", milliseconds)
        while digits.hasSuffix("0") { digits.removeLast() }
        return digits
    }
}

extension XMPPacket {
    /// The XMP properties that hold a photo's capture date: `exif:DateTimeOriginal` (when the
    /// shutter fired), `xmp:CreateDate` (MWG's pair of EXIF's digitized time), `photoshop:DateCreated`
    /// (IPTC's date created).
    public static let captureDateProperties = [
        XMPName(XMPNamespace.exif, "DateTimeOriginal"), XMPName(XMPNamespace.xmp, "CreateDate"), XMPName(XMPNamespace.photoshop, "DateCreated"),
    ]

    /// Sets every capture-date property to `date`.
    public mutating func setCaptureDate(_ date: CaptureDate) {
        for name in Self.captureDateProperties { self[name] = .text(date.xmpText) }
    }
}
