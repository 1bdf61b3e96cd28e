import Foundation

/// The EXIF entries gathered from a RAW's own structures (TIFF directories, CR3 boxes, a preview's
/// APP1, a maker's private header) before they are written into one EXIF block.
struct ExifCollection {
    /// IFD0 tags worth carrying: description, make, model, orientation, software, date, artist, copyright.
    static let ifd0Tags: Set<UInt16> = [0x010E, 0x010F, 0x0110, 0x0112, 0x0131, 0x0132, 0x013B, 0x8298]
    /// Pointers, maker notes and interoperability directories: meaningless once copied elsewhere.
    static let excludedExifTags: Set<UInt16> = [0x8769, 0x8825, 0x927C, 0xA005]
    static let dateTimeOriginal: UInt16 = 0x9003
    static let lensModel: UInt16 = 0xA434

    var ifd0: [UInt16: TIFFEntry] = [:]
    var exif: [UInt16: TIFFEntry] = [:]
    var gps: [UInt16: TIFFEntry] = [:]
    /// The lens named in the maker notes, used when the EXIF has no LensModel.
    var makerNoteLens: String?
    /// An XMP packet stored in the RAW itself (TIFF tag 700).
    var xmp: Data?

    var isEmpty: Bool { ifd0.isEmpty && exif.isEmpty && gps.isEmpty }

    /// Adds IFD0 entries (keeping the carried tags, and a DateTimeOriginal some cameras put there)
    /// without replacing ones already found.
    mutating func addIFD0(_ entries: [UInt16: TIFFEntry]) {
        for (tag, entry) in entries where Self.ifd0Tags.contains(tag) && ifd0[tag] == nil { ifd0[tag] = entry }
        if let original = entries[Self.dateTimeOriginal], original.text != nil, exif[Self.dateTimeOriginal] == nil {
            exif[Self.dateTimeOriginal] = original
        }
        if xmp == nil, let packet = entries[0x02BC], packet.type == 1 || packet.type == 7 { xmp = Data(packet.value) }
    }

    /// Adds Exif-directory entries without replacing ones already found.
    mutating func addExif(_ entries: [UInt16: TIFFEntry]) {
        for (tag, entry) in entries where !Self.excludedExifTags.contains(tag) && entry.type != 13 && exif[tag] == nil {
            exif[tag] = entry
        }
    }

    /// Adds GPS-directory entries without replacing ones already found.
    mutating func addGPS(_ entries: [UInt16: TIFFEntry]) {
        for (tag, entry) in entries where entry.type != 13 && gps[tag] == nil { gps[tag] = entry }
    }

    /// Sets an ASCII tag unless the collection already has it.
    mutating func setText(_ tag: UInt16, _ text: String?, inExif: Bool) {
        guard let text, !text.isEmpty else { return }
        if inExif {
            if exif[tag] == nil { exif[tag] = .ascii(tag, text) }
        } else if ifd0[tag] == nil {
            ifd0[tag] = .ascii(tag, text)
        }
    }

    /// The EXIF LensModel, else the maker notes' lens name.
    var lensModel: String? { exif[Self.lensModel]?.text ?? makerNoteLens }

    /// The entries as an EXIF block (`Exif\0\0` + little-endian TIFF: IFD0, then the Exif and GPS
    /// directories), the form libvips attaches as `exif-data` and HEIC stores. The maker notes' lens
    /// is written as LensModel when the EXIF has none.
    func block() -> Data {
        var exifEntries = exif
        if exifEntries[Self.lensModel] == nil, let lens = makerNoteLens { exifEntries[Self.lensModel] = .ascii(Self.lensModel, lens) }
        return ExifBlockWriter(ifd0: ifd0, exif: exifEntries, gps: gps).write()
    }
}

/// Lays out IFD0 with pointers to an Exif and a GPS directory, each followed by its out-of-line values.
struct ExifBlockWriter {
    let ifd0: [UInt16: TIFFEntry]
    let exif: [UInt16: TIFFEntry]
    let gps: [UInt16: TIFFEntry]

    func write() -> Data {
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]
        // IFD0 needs the sub-directory pointers' slots before their offsets are known.
        var first = ifd0
        if !exif.isEmpty { first[0x8769] = pointer(0x8769) }
        if !gps.isEmpty { first[0x8825] = pointer(0x8825) }
        let ifd0At = tiff.count
        append(first, to: &tiff)
        if !exif.isEmpty {
            patchPointer(0x8769, in: &tiff, directoryAt: ifd0At, target: tiff.count)
            append(exif, to: &tiff)
        }
        if !gps.isEmpty {
            patchPointer(0x8825, in: &tiff, directoryAt: ifd0At, target: tiff.count)
            append(gps, to: &tiff)
        }
        return Data([0x45, 0x78, 0x69, 0x66, 0x00, 0x00] + tiff)
    }

    private func pointer(_ tag: UInt16) -> TIFFEntry {
        TIFFEntry(tag: tag, type: 4, count: 1, value: [0, 0, 0, 0], valueOffset: nil)
    }

    /// Appends a directory (entries sorted by tag, as TIFF requires) and then its values.
    private func append(_ entries: [UInt16: TIFFEntry], to tiff: inout [UInt8]) {
        let sorted = entries.values.sorted { $0.tag < $1.tag }
        let tableStart = tiff.count
        var values: [UInt8] = []
        let valuesStart = tableStart + 2 + sorted.count * 12 + 4
        tiff += le(sorted.count, 2)
        for entry in sorted {
            tiff += le(Int(entry.tag), 2) + le(Int(entry.type), 2) + le(entry.count, 4)
            if entry.value.count <= 4 {
                tiff += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                tiff += le(valuesStart + values.count, 4)
                values += entry.value
                if values.count % 2 == 1 { values.append(0) }  // values start on word boundaries
            }
        }
        tiff += le(0, 4)  // no next directory
        tiff += values
    }

    private func patchPointer(_ tag: UInt16, in tiff: inout [UInt8], directoryAt start: Int, target: Int) {
        let count = Int(tiff[start]) | Int(tiff[start + 1]) << 8
        for index in 0..<count {
            let at = start + 2 + index * 12
            if Int(tiff[at]) | Int(tiff[at + 1]) << 8 == Int(tag) {
                tiff.replaceSubrange(at + 8..<at + 12, with: le(target, 4))
            }
        }
    }

    private func le(_ value: Int, _ bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
