import Foundation

/// Reads the EXIF of a TIFF structure: IFD0, its Exif and GPS directories and the lens in its maker
/// notes. The whole story for TIFF-based RAWs (CR2, NEF, NRW, ARW, SR2, SRF, DNG, ORF, RW2, PEF, SRW,
/// 3FR, IIQ, KDC, DCR...) and for the EXIF blocks other containers embed (RAF, MRW, X3F).
enum TIFFMetadata {
    /// IFD0 tags read: the carried ones, the sub-directory pointers, a misplaced DateTimeOriginal, XMP.
    static let ifd0Wanted: Set<UInt16> = ExifCollection.ifd0Tags.union([0x8769, 0x8825, ExifCollection.dateTimeOriginal, 0x02BC])

    /// Adds what `reader` holds to `collection`; false when its first directory cannot be read.
    @discardableResult
    static func read(_ reader: TIFFReader, into collection: inout ExifCollection) -> Bool {
        guard let ifd0 = reader.directory(at: reader.firstDirectory, tags: ifd0Wanted) else { return false }
        collection.addIFD0(ifd0.entries)
        let make = ifd0.entries[0x010F]?.text
        if let exifAt = ifd0.entries[0x8769]?.integer, let exif = reader.directory(at: exifAt) {
            collection.addExif(exif.entries)
            if collection.makerNoteLens == nil, let note = exif.entries[0x927C] {
                collection.makerNoteLens = MakerNoteLens.read(note, make: make, reader: reader)
            }
        }
        if let gpsAt = ifd0.entries[0x8825]?.integer, let gps = reader.directory(at: gpsAt) {
            collection.addGPS(gps.entries)
        }
        return true
    }
}

/// The lens name some makers keep only in their maker notes (exiftool's `LensModel` there).
enum MakerNoteLens {
    /// Canon's maker-note tag 0x0095 (LensModel), Phase One's 0x0412 (LensModel).
    static let canonLensModel: UInt16 = 0x0095
    static let phaseOneLensModel = 0x0412

    static func read(_ note: TIFFEntry, make: String?, reader: TIFFReader) -> String? {
        if note.value.count >= 8, [Array("IIII".utf8), Array("MMMM".utf8)].contains(Array(note.value.prefix(4))) {
            return phaseOne(note.value)
        }
        // Canon's maker note is a bare directory whose offsets count from the file's TIFF header.
        if make?.lowercased().hasPrefix("canon") == true, let at = note.valueOffset {
            return reader.directory(at: at, tags: [canonLensModel])?.entries[canonLensModel]?.text
        }
        return nil
    }

    /// Canon's maker-note directory on its own (a CR3's CMT3 box).
    static func canon(_ reader: TIFFReader) -> String? {
        reader.directory(at: reader.firstDirectory, tags: [canonLensModel])?.entries[canonLensModel]?.text
    }

    /// Phase One's maker note: `IIII` or `MMMM`, a 4-byte tag, the directory's offset; the directory
    /// is a 4-byte count, 4 unused bytes and 16-byte entries (tag, format, size, value or offset),
    /// offsets counting from the note's start.
    static func phaseOne(_ bytes: [UInt8]) -> String? {
        let source = MemoryBytes(bytes)
        let bigEndian = bytes[0] == 0x4D
        guard let directory = source.uint32(at: 8, bigEndian: bigEndian).map(Int.init),
              let count = source.uint32(at: directory, bigEndian: bigEndian).map(Int.init), count < 1000 else { return nil }
        for index in 0..<count {
            let entry = directory + 8 + index * 16
            guard let tag = source.uint32(at: entry, bigEndian: bigEndian),
                  let size = source.uint32(at: entry + 8, bigEndian: bigEndian).map(Int.init) else { return nil }
            guard tag == phaseOneLensModel else { continue }
            let value = size <= 4 ? source.bytes(at: entry + 12, length: size)
                : source.uint32(at: entry + 12, bigEndian: bigEndian).flatMap { source.bytes(at: Int($0), length: size) }
            return value.flatMap { TIFFEntry(tag: 0, type: 2, count: size, value: $0, valueOffset: nil).text }
        }
        return nil
    }
}
