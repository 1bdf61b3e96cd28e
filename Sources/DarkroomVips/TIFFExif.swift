import Foundation

/// The EXIF of a TIFF file as an `Exif\0\0` block, which libvips 8.14's `tiffload` does not attach
/// (it reads the ICC profile and XMP, not the Exif and GPS directories): IFD0's descriptive tags
/// (camera, orientation, date, artist...) and the whole Exif and GPS directories, copied into a small
/// TIFF structure of their own in the file's byte order, so the block reads like a JPEG's.
///
/// A scanner or libtiff writes the directories after the pixels, anywhere in a file of hundreds of
/// megabytes: only the directories and their values are read. Damaged offsets, absurd counts and
/// loops give fewer tags or none, never a trap or an unbounded read.
enum TIFFExif {
    /// IFD0 tags worth keeping: what a JPEG's IFD0 carries (no strip, tile or colour layout tags,
    /// which would describe pixels the block does not have).
    static let descriptiveTags: Set<UInt16> = [
        0x010E, 0x010F, 0x0110, 0x0112, 0x011A, 0x011B, 0x0128, 0x0131, 0x0132, 0x013B, 0x8298,
    ]
    static let exifPointer: UInt16 = 0x8769
    static let gpsPointer: UInt16 = 0x8825
    /// Exif tags whose values hold offsets into the original file (the maker note, the
    /// interoperability directory): meaningless once copied.
    static let offsetTags: Set<UInt16> = [0x927C, 0xA005]
    static let maximumEntries = 1000
    /// Values longer than this (a scanner's private tables) are left out.
    static let maximumValueBytes = 4096

    /// The block for the TIFF file at `path` (`Exif\0\0`, then TIFF), or nil when the file is not a
    /// classic TIFF or has no Exif or GPS directory.
    static func block(ofFile path: String) -> Data? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        guard let reader = Reader(file: file) else { return nil }
        let ifd0 = reader.directory(at: reader.firstDirectory)
        let exif = ifd0.first { $0.tag == exifPointer }.flatMap(reader.offset).map { reader.directory(at: $0) } ?? []
        let gps = ifd0.first { $0.tag == gpsPointer }.flatMap(reader.offset).map { reader.directory(at: $0) } ?? []
        guard !exif.isEmpty || !gps.isEmpty else { return nil }
        let writer = Writer(bigEndian: reader.bigEndian)
        return Data("Exif".utf8) + Data([0, 0]) + writer.tiff(ifd0: ifd0.filter { descriptiveTags.contains($0.tag) },
                                                              exif: exif.filter { !offsetTags.contains($0.tag) }, gps: gps)
    }

    /// One directory entry with its value's bytes, as stored (in the file's byte order).
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var value: [UInt8]
    }

    /// Bytes per element of a TIFF field type (nil for types TIFF does not define).
    static func size(of type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11, 13: return 4
        case 5, 10, 12: return 8
        default: return nil
        }
    }

    /// Reads a classic TIFF's header and directories from a file, bounds-checked.
    struct Reader {
        let file: FileHandle
        let bigEndian: Bool
        let firstDirectory: Int
        let fileSize: Int

        init?(file: FileHandle) {
            guard let size = try? file.seekToEnd(), let header = Reader.read(file, at: 0, count: 8, fileSize: Int(size)) else { return nil }
            switch (header[0], header[1]) {
            case (0x49, 0x49): bigEndian = false
            case (0x4D, 0x4D): bigEndian = true
            default: return nil
            }
            self.file = file
            fileSize = Int(size)
            guard Reader.integer(header[2..<4], bigEndian: bigEndian) == 42 else { return nil }  // 43 is BigTIFF: not read
            firstDirectory = Reader.integer(header[4..<8], bigEndian: bigEndian)
        }

        /// The entries of the directory at `offset`, with their values; empty when it is damaged.
        func directory(at offset: Int) -> [Entry] {
            guard offset >= 8, let countBytes = Reader.read(file, at: offset, count: 2, fileSize: fileSize) else { return [] }
            let count = Reader.integer(countBytes[...], bigEndian: bigEndian)
            guard count > 0, count <= TIFFExif.maximumEntries,
                  let table = Reader.read(file, at: offset + 2, count: count * 12, fileSize: fileSize) else { return [] }
            return (0..<count).compactMap { index in
                let raw = table[index * 12..<index * 12 + 12]
                let base = raw.startIndex
                let tag = UInt16(Reader.integer(raw[base..<base + 2], bigEndian: bigEndian))
                let type = UInt16(Reader.integer(raw[base + 2..<base + 4], bigEndian: bigEndian))
                let count = Reader.integer(raw[base + 4..<base + 8], bigEndian: bigEndian)
                guard let size = TIFFExif.size(of: type) else { return nil }
                let (length, overflow) = count.multipliedReportingOverflow(by: size)
                guard !overflow, length > 0, length <= TIFFExif.maximumValueBytes else { return nil }
                let value: [UInt8]?
                if length <= 4 {
                    value = Array(raw[base + 8..<base + 8 + length])
                } else {
                    value = Reader.read(file, at: Reader.integer(raw[base + 8..<base + 12], bigEndian: bigEndian),
                                        count: length, fileSize: fileSize)
                }
                return value.map { Entry(tag: tag, type: type, count: UInt32(count), value: $0) }
            }
        }

        /// The directory offset a LONG or IFD pointer entry holds.
        func offset(_ entry: Entry) -> Int? {
            guard entry.type == 4 || entry.type == 13, entry.value.count == 4 else { return nil }
            return Reader.integer(entry.value[...], bigEndian: bigEndian)
        }

        static func read(_ file: FileHandle, at offset: Int, count: Int, fileSize: Int) -> [UInt8]? {
            guard offset >= 0, count > 0, offset <= fileSize - count else { return nil }
            do {
                try file.seek(toOffset: UInt64(offset))
                guard let data = try file.read(upToCount: count), data.count == count else { return nil }
                return [UInt8](data)
            } catch {
                return nil
            }
        }

        static func integer(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> Int {
            let ordered = bigEndian ? Array(bytes) : bytes.reversed()
            return ordered.reduce(0) { $0 << 8 | Int($1) }
        }
    }

    /// Writes IFD0, the Exif and the GPS directories, then their values, as one TIFF structure.
    struct Writer {
        let bigEndian: Bool

        func tiff(ifd0: [Entry], exif: [Entry], gps: [Entry]) -> Data {
            var first = ifd0.filter { $0.tag != TIFFExif.exifPointer && $0.tag != TIFFExif.gpsPointer }
            if !exif.isEmpty { first.append(Entry(tag: TIFFExif.exifPointer, type: 4, count: 1, value: [0, 0, 0, 0])) }
            if !gps.isEmpty { first.append(Entry(tag: TIFFExif.gpsPointer, type: 4, count: 1, value: [0, 0, 0, 0])) }
            let directories = [first, exif, gps].filter { !$0.isEmpty }.map { $0.sorted { $0.tag < $1.tag } }
            // Layout: header, the directories one after another, then every value longer than four bytes.
            var directoryOffsets: [Int] = []
            var at = 8
            for directory in directories {
                directoryOffsets.append(at)
                at += 2 + directory.count * 12 + 4
            }
            var bytes: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
            bytes += integer(8, width: 4)
            var values: [UInt8] = []
            let pointerTargets: [UInt16: Int] = [
                TIFFExif.exifPointer: exif.isEmpty ? 0 : directoryOffsets[1],
                TIFFExif.gpsPointer: gps.isEmpty ? 0 : directoryOffsets[exif.isEmpty ? 1 : 2],
            ]
            for (index, directory) in directories.enumerated() {
                bytes += integer(directory.count, width: 2)
                for entry in directory {
                    bytes += integer(Int(entry.tag), width: 2) + integer(Int(entry.type), width: 2) + integer(Int(entry.count), width: 4)
                    if index == 0, let target = pointerTargets[entry.tag] {
                        bytes += integer(target, width: 4)
                    } else if entry.value.count <= 4 {
                        bytes += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                    } else {
                        bytes += integer(at + values.count, width: 4)
                        values += entry.value
                        if values.count % 2 == 1 { values.append(0) }  // values start on a word boundary
                    }
                }
                bytes += integer(0, width: 4)  // no next directory
            }
            return Data(bytes + values)
        }

        private func integer(_ value: Int, width: Int) -> [UInt8] {
            let littleEndian = (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
            return bigEndian ? littleEndian.reversed() : littleEndian
        }
    }
}
