/// Why an EXIF blob could not be read.
public enum ExifError: Error, Equatable, CustomStringConvertible {
    /// Neither an `Exif\0\0` marker nor a TIFF header (`II*\0`, `MM\0*`) starts the blob.
    case noTIFFHeader(byteCount: Int)
    /// The blob is larger than libexif can take (4 GiB).
    case tooLarge(byteCount: Int)
    /// libexif could not allocate its structures.
    case outOfMemory
    /// libexif found a TIFF header but could not read a single entry from it.
    case noEntries(byteCount: Int)
    /// libexif could not serialise the edited block.
    case unwritable(byteCount: Int)

    public var description: String {
        switch self {
        case .noTIFFHeader(let count):
            return "EXIF block of \(count) bytes has no TIFF header ('Exif\\0\\0', 'II*\\0' or 'MM\\0*')"
        case .tooLarge(let count):
            return "EXIF block of \(count) bytes is too large to read"
        case .outOfMemory:
            return "out of memory while reading an EXIF block"
        case .noEntries(let count):
            return "EXIF block of \(count) bytes holds no readable entries"
        case .unwritable(let count):
            return "EXIF block of \(count) bytes could not be written back after editing"
        }
    }
}
