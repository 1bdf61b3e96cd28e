import DarkroomExif
import Foundation

/// A RAW file's own capture metadata, as the camera wrote it: dates (with their offset and
/// sub-seconds), camera, lens and GPS position, read from the RAW's structures without LibRaw.
///
/// The EXIF strings are kept as written (`exif`, the same `ExifTags` a JPEG gives), so the capture
/// date resolver treats a RAW like any photo. LibRaw's `other.timestamp` is not used: LibRaw passes
/// the camera's wall-clock time through `mktime` in the process's time zone.
public struct RawMetadata: Sendable, Equatable {
    /// The container the metadata came from.
    public var container: RawContainer
    /// DateTimeOriginal, SubSecTimeOriginal, OffsetTimeOriginal (and the Digitized ones), DateTime,
    /// GPS, Make, Model and Orientation, as the file spells them.
    public var exif: ExifTags
    /// The lens: EXIF LensModel, else the name in Canon's or Phase One's maker notes.
    public var lensModel: String?
    /// The EXIF gathered, as one block (`Exif\0\0` + TIFF: IFD0, Exif and GPS directories, without
    /// maker notes), to store in outputs made from the RAW.
    public var exifBlock: Data
    /// The XMP packet stored in the RAW itself (DNG and some TIFF-based RAWs), if any.
    public var xmpPacket: Data?

    /// DateTimeOriginal, `YYYY:MM:DD HH:MM:SS`, the camera's wall-clock time.
    public var dateTimeOriginal: String? { exif.dateTimeOriginal }
    /// OffsetTimeOriginal, `+HH:MM`.
    public var offsetTimeOriginal: String? { exif.offsetTimeOriginal }
    /// SubSecTimeOriginal, the fraction's digits.
    public var subSecTimeOriginal: String? { exif.subSecTimeOriginal }
    /// Make, as the file spells it (`NIKON CORPORATION`).
    public var make: String? { exif.make }
    /// Model, as the file spells it (`NIKON D70`).
    public var model: String? { exif.model }
    /// GPSLatitude/GPSLongitude in signed degrees (nil when absent or 0/0).
    public var gpsPosition: ExifTags.GPSPosition? { exif.gpsPosition }

    /// Reads the metadata of the RAW file at `path`, touching only the bytes its structures point at.
    ///
    /// Throws `RawError` when the file cannot be read (`.unreadable`), is none of the RAW containers
    /// (`.unknownContainer`) or its structure is damaged (`.metadataCorrupt`). A readable file with no
    /// date gives nil fields, not an error.
    public static func read(path: String) throws -> RawMetadata {
        let file = try FileBytes(path: path)
        guard let container = RawContainer.identify(file) else { throw RawError(path: path, reason: .unknownContainer) }
        var collection = ExifCollection()
        switch container {
        case .tiff:
            guard let reader = TIFFReader(source: file), TIFFMetadata.read(reader, into: &collection) else {
                throw RawError(path: path, reason: .metadataCorrupt("the first TIFF directory is unreadable"))
            }
        case .cr3: try CanonCR3.read(file, path: path, into: &collection)
        case .ciff: try CanonCIFF.read(file, path: path, into: &collection)
        case .raf: try FujiRAF.read(file, path: path, into: &collection)
        case .mrw: try MinoltaMRW.read(file, path: path, into: &collection)
        case .x3f: try SigmaX3F.read(file, path: path, into: &collection)
        case .kyocera: try KyoceraRaw.read(file, path: path, into: &collection)
        }
        let block = collection.block()
        let exif = collection.isEmpty ? ExifTags() : try ExifTags(parsing: block)
        return RawMetadata(container: container, exif: exif, lensModel: collection.lensModel, exifBlock: block, xmpPacket: collection.xmp)
    }
}

/// The file structures RAW formats are built on, told apart by their first bytes.
public enum RawContainer: String, Sendable, Equatable, CaseIterable {
    /// TIFF and its variants: CR2, NEF, NRW, ARW, SR2, SRF, DNG, ORF, RW2, PEF, SRW, 3FR, IIQ, KDC, DCR, ERF, MEF, MOS.
    case tiff
    /// Canon CR3 (ISO base media file).
    case cr3
    /// Canon CRW (CIFF heaps).
    case ciff
    /// Fujifilm RAF.
    case raf
    /// Minolta MRW.
    case mrw
    /// Sigma X3F.
    case x3f
    /// Kyocera (Contax N Digital) RAW.
    case kyocera

    static func identify(_ file: ByteSource) -> RawContainer? {
        guard let head = file.bytes(at: 0, length: min(file.count, 16)), head.count >= 8 else { return nil }
        func starts(_ text: String, at offset: Int = 0) -> Bool { file.matches(Array(text.utf8), at: offset) }
        if starts("HEAPCCDR", at: 6) { return .ciff }
        if TIFFReader(source: file) != nil { return .tiff }
        if starts("ftypcrx ", at: 4) { return .cr3 }
        if starts("FUJIFILMCCD-RAW") { return .raf }
        if file.matches([0x00] + Array("MRM".utf8), at: 0) { return .mrw }
        if starts("FOVb") { return .x3f }
        if file.matches(KyoceraRaw.signature, at: 0x19) { return .kyocera }
        return nil
    }
}
