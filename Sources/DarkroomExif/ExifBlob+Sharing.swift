import Foundation

extension ExifBlob {
    /// The blob without where the photo was taken: the whole GPS IFD (latitude, longitude,
    /// altitude, direction, speed, GPS time and date, area information) and the MakerNote.
    ///
    /// The MakerNote goes whole, not tag by tag: several makers keep a position or place there
    /// (Nikon's location info, Panasonic's city and landmark, Pentax's location, Sony's GPS copies),
    /// each in a private layout that libexif cannot edit safely, and a note re-serialised with a
    /// tag cut out would have broken offsets. Everything else is kept as libexif reads it:
    /// DateTimeOriginal with its OffsetTime and SubSecTime, Make, Model, the lens, exposure,
    /// Orientation. libexif rewrites the block (`Exif\0\0` followed by TIFF, what libvips'
    /// `exif-data` holds). Throws `ExifError` when the blob cannot be read.
    public static func removingLocation(_ blob: Data) throws -> Data {
        try edited(blob) { document in
            document.removeAll(in: .gps)
            document.remove(ExifTags.Tag.makerNote, in: .exif)
        }
    }

    /// The blob as a photo shared with people carries it: no location (see `removingLocation`)
    /// unless `keepLocation`, no thumbnail (it shows the original framing, turned the original
    /// way), and Orientation 1, for pixels already turned upright.
    public static func forSharing(_ blob: Data, keepLocation: Bool = false) throws -> Data {
        let cleaned = try edited(blob) { document in
            document.removeThumbnail()
            if !keepLocation {
                document.removeAll(in: .gps)
                document.remove(ExifTags.Tag.makerNote, in: .exif)
            }
        }
        return resettingOrientation(cleaned)
    }

    /// `forSharing(_:keepLocation:)` with the capture date the library knows written over the
    /// blob's own (a date corrected with `catalog set-date`, or found in XMP, a file name or GPS
    /// time, is otherwise not in the photo's EXIF). A nil or unreadable blob yields a new one
    /// holding the date alone: a shared photo never keeps EXIF that could not be cleaned. Nil when
    /// there is neither a blob nor a date.
    public static func forSharing(_ blob: Data?, keepLocation: Bool = false, capture: ExifCaptureStamp?) -> Data? {
        if let blob, let cleaned = try? forSharing(blob, keepLocation: keepLocation) {
            guard let capture else { return cleaned }
            if let stamped = try? edited(cleaned, { document in try capture.write(to: document) }) { return stamped }
        }
        guard let capture, let document = try? ExifDocument(), (try? capture.write(to: document)) != nil else { return nil }
        return try? document.serialized(sourceByteCount: 0)
    }

    private static func edited(_ blob: Data, _ edit: (ExifDocument) throws -> Void) throws -> Data {
        let document = try ExifDocument(blob)
        try edit(document)
        return try document.serialized(sourceByteCount: blob.count)
    }
}

/// A capture date as EXIF writes it: `DateTimeOriginal`, `OffsetTimeOriginal` when the offset is
/// known, `SubSecTimeOriginal` when there are fractions of a second (each removed when not known,
/// so that a stale one does not contradict the date).
public struct ExifCaptureStamp: Sendable, Hashable {
    /// `2024:05:01 18:30:12`.
    public var dateTime: String
    /// `+02:00`, or nil when the offset is unknown.
    public var offset: String?
    /// `250` for 0.25 s, or nil.
    public var subSeconds: String?

    /// A stamp from the fields of a wall-clock time; `utcOffsetSeconds` nil for an unknown offset.
    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, nanosecond: Int = 0, utcOffsetSeconds: Int?) {
        dateTime = String(format: "%04d:%02d:%02d %02d:%02d:%02d", year, month, day, hour, minute, second)
        offset = utcOffsetSeconds.map { String(format: "%@%02d:%02d", $0 < 0 ? "-" : "+", abs($0) / 3600, abs($0) % 3600 / 60) }
        subSeconds = nanosecond > 0 ? String(format: "%03d", nanosecond / 1_000_000) : nil
    }

    fileprivate func write(to document: ExifDocument) throws {
        try document.setString(dateTime, for: ExifTags.Tag.dateTimeOriginal, in: .exif)
        for (tag, value) in [(ExifTags.Tag.offsetTimeOriginal, offset), (ExifTags.Tag.subSecTimeOriginal, subSeconds)] {
            if let value { try document.setString(value, for: tag, in: .exif) } else { document.remove(tag, in: .exif) }
        }
    }
}
