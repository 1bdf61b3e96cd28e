import Foundation

/// One TIFF directory entry with its value, normalised to little-endian so entries from files of
/// either byte order can be written into one EXIF block.
struct TIFFEntry: Equatable {
    var tag: UInt16
    /// The TIFF field type (1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL, 7 UNDEFINED, ... 13 IFD).
    var type: UInt16
    var count: Int
    /// The value's bytes, little-endian, `count` elements of the type's size.
    var value: [UInt8]
    /// Where an out-of-line value lies, counted from the TIFF header (nil for values in the entry):
    /// maker notes hold directories whose offsets count from there.
    var valueOffset: Int?

    /// Bytes per element of each field type, and the unit byte order applies to (a RATIONAL is two
    /// 4-byte integers).
    static func sizes(of type: UInt16) -> (element: Int, unit: Int)? {
        switch type {
        case 1, 2, 6, 7: return (1, 1)
        case 3, 8: return (2, 2)
        case 4, 9, 11, 13: return (4, 4)
        case 5, 10: return (8, 4)
        case 12: return (8, 8)
        default: return nil
        }
    }

    /// An ASCII (or UNDEFINED) value up to its first NUL, trimmed; nil when empty.
    var text: String? {
        guard type == 2 || type == 7 else { return nil }
        let bytes = value.prefix { $0 != 0 }
        let decoded = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return decoded.isEmpty ? nil : decoded
    }

    /// The first value of a SHORT, LONG or IFD entry.
    var integer: Int? {
        let width = type == 3 ? 2 : (type == 4 || type == 13 ? 4 : 0)
        guard width > 0, value.count >= width else { return nil }
        return (0..<width).reduce(0) { $0 | Int(value[$1]) << (8 * $1) }
    }

    /// An ASCII entry made from a string (NUL-terminated, as TIFF wants).
    static func ascii(_ tag: UInt16, _ text: String) -> TIFFEntry {
        let bytes = Array(text.utf8) + [0]
        return TIFFEntry(tag: tag, type: 2, count: bytes.count, value: bytes, valueOffset: nil)
    }
}

/// Reads TIFF-structured metadata (the body of every TIFF-based RAW, and the EXIF blocks embedded
/// in others): the header, then directories on request. Offsets count from `origin`.
///
/// Hostile input is expected: out-of-range offsets, absurd counts and loops give fewer entries,
/// never a trap or an unbounded read.
struct TIFFReader {
    let source: ByteSource
    /// Where the `II`/`MM` byte-order mark is in `source`.
    let origin: Int
    let bigEndian: Bool
    /// The offset of the first directory.
    let firstDirectory: Int

    /// The magic numbers after the byte-order mark: TIFF's 42, Panasonic RW2's 0x55, Olympus ORF's
    /// `RO` and `RS`.
    static let magics: Set<UInt16> = [42, 0x55, 0x4F52, 0x5352]
    /// Directories longer than this are treated as damaged.
    static let maximumEntries = 1000
    /// Values larger than this are not read (sensor tables, large private blocks).
    static let maximumValueBytes = 1 << 20

    /// A reader for the TIFF header at `origin`, or nil when there is none.
    init?(source: ByteSource, origin: Int = 0) {
        guard let mark = source.bytes(at: origin, length: 2) else { return nil }
        let bigEndian: Bool
        switch (mark[0], mark[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        guard let magic = source.uint16(at: origin + 2, bigEndian: bigEndian), Self.magics.contains(magic),
              let first = source.uint32(at: origin + 4, bigEndian: bigEndian) else { return nil }
        self.source = source
        self.origin = origin
        self.bigEndian = bigEndian
        self.firstDirectory = Int(first)
    }

    /// A reader over the same bytes for a structure laid out like TIFF without a header (a maker
    /// note's directory), offsets counting from `origin`.
    init(source: ByteSource, origin: Int, bigEndian: Bool) {
        self.source = source
        self.origin = origin
        self.bigEndian = bigEndian
        self.firstDirectory = 0
    }

    /// The entries of the directory at `offset` (from the origin), keyed by tag, and the offset of the
    /// next directory. Values are read only for `tags` (all when nil) and only up to `maximumValueBytes`.
    func directory(at offset: Int, tags: Set<UInt16>? = nil) -> (entries: [UInt16: TIFFEntry], next: Int?)? {
        let start = origin + offset
        guard offset > 0 || origin > 0, let count = source.uint16(at: start, bigEndian: bigEndian),
              count > 0, Int(count) <= Self.maximumEntries,
              let table = source.bytes(at: start + 2, length: Int(count) * 12) else { return nil }
        var entries: [UInt16: TIFFEntry] = [:]
        for index in 0..<Int(count) {
            let raw = Array(table[index * 12..<index * 12 + 12])
            let tag = integer(raw, 0, 2), type = integer(raw, 2, 2), elements = integer(raw, 4, 4)
            guard tags?.contains(UInt16(tag)) ?? true, let sizes = TIFFEntry.sizes(of: UInt16(type)) else { continue }
            let (length, overflow) = elements.multipliedReportingOverflow(by: sizes.element)
            guard !overflow, length <= Self.maximumValueBytes else { continue }
            var valueOffset: Int?
            let bytes: [UInt8]?
            if length <= 4 {
                bytes = Array(raw[8..<8 + length])
            } else {
                valueOffset = integer(raw, 8, 4)
                bytes = source.bytes(at: origin + valueOffset!, length: length)
            }
            guard let bytes else { continue }
            entries[UInt16(tag)] = TIFFEntry(tag: UInt16(tag), type: UInt16(type), count: elements,
                                             value: littleEndian(bytes, unit: sizes.unit), valueOffset: valueOffset)
        }
        let next = source.uint32(at: start + 2 + Int(count) * 12, bigEndian: bigEndian).map(Int.init)
        return (entries, next == 0 ? nil : next)
    }

    private func integer(_ bytes: [UInt8], _ at: Int, _ length: Int) -> Int {
        (0..<length).reduce(0) { value, index in
            let byte = Int(bytes[at + (bigEndian ? index : length - 1 - index)])
            return value << 8 | byte
        }
    }

    private func littleEndian(_ bytes: [UInt8], unit: Int) -> [UInt8] {
        guard bigEndian, unit > 1 else { return bytes }
        var swapped = bytes
        var at = 0
        while at + unit <= swapped.count {
            swapped[at..<at + unit].reverse()
            at += unit
        }
        return swapped
    }
}
