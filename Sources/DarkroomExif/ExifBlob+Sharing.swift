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

    private static func edited(_ blob: Data, _ edit: (ExifDocument) -> Void) throws -> Data {
        let document = try ExifDocument(blob)
        edit(document)
        return try document.serialized(sourceByteCount: blob.count)
    }
}
