/// One 12-byte IFD entry, raw: tag, type, count and the value or the offset of the value.
struct TIFFEntry {
    var tag: UInt16
    var type: UInt16
    var count: UInt32
    /// The 12 bytes as stored (in the block's byte order).
    var raw: [UInt8]

    /// A LONG entry holding `value`.
    static func long(_ tag: UInt16, _ value: UInt32, bigEndian: Bool) -> TIFFEntry {
        let raw = TIFFEdit.encode16(tag, bigEndian: bigEndian) + TIFFEdit.encode16(4, bigEndian: bigEndian)
            + TIFFEdit.encode(1, bigEndian: bigEndian) + TIFFEdit.encode(value, bigEndian: bigEndian)
        return TIFFEntry(tag: tag, type: 4, count: 1, raw: raw)
    }
}

/// An IFD's entries (sorted by tag when written) and its next-IFD offset.
struct TIFFDirectory {
    var entries: [TIFFEntry]
    var next: UInt32
    /// Values longer than 4 bytes of entries added by `set`, written after the directory.
    var pending: [UInt16: [UInt8]] = [:]

    /// Replaces, adds (as ASCII) or removes (nil) the entries of `values`.
    mutating func set(_ values: [(tag: UInt16, value: [UInt8]?)], bigEndian: Bool) {
        for (tag, value) in values {
            entries.removeAll { $0.tag == tag }
            pending[tag] = nil
            guard let value else { continue }
            var raw = TIFFEdit.encode16(tag, bigEndian: bigEndian) + TIFFEdit.encode16(2, bigEndian: bigEndian)
            raw += TIFFEdit.encode(UInt32(value.count), bigEndian: bigEndian)
            if value.count <= 4 {
                raw += value + [UInt8](repeating: 0, count: 4 - value.count)
            } else {
                raw += [0, 0, 0, 0]  // the offset, set when written
                pending[tag] = value
            }
            entries.append(TIFFEntry(tag: tag, type: 2, count: UInt32(value.count), raw: raw))
        }
    }

    /// The directory as written at TIFF offset `start` (even), the values of `set` after it.
    func serialized(at start: Int, bigEndian: Bool) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var valueOffset = start + 2 + 12 * sorted.count + 4
        var body = TIFFEdit.encode16(UInt16(sorted.count), bigEndian: bigEndian)
        var values: [UInt8] = []
        for entry in sorted {
            var raw = entry.raw
            if let value = pending[entry.tag] {
                raw.replaceSubrange(8..<12, with: TIFFEdit.encode(UInt32(valueOffset), bigEndian: bigEndian))
                values += value + (value.count % 2 == 1 ? [0] : [])
                valueOffset += value.count + value.count % 2
            }
            body += raw
        }
        return body + TIFFEdit.encode(next, bigEndian: bigEndian) + values
    }
}

/// Edits of the directories of a TIFF block that never move a byte already there: values are
/// overwritten in place, or directories are appended at the end and pointed to, so every offset
/// into the block (maker notes', thumbnails') stays right. Every read is bounds-checked.
struct TIFFEdit {
    /// The whole blob (what precedes the TIFF header included).
    private(set) var bytes: [UInt8]
    private var tiff: TIFFBytes

    /// More entries than this in one directory is not a camera's.
    static let maximumEntries = 1000

    /// An edit of `tiff`, whose IFD0 must be readable.
    init?(_ tiff: TIFFBytes) {
        self.tiff = tiff
        bytes = tiff.bytes
        guard let offset = tiff.ifd0Offset, directory(at: offset) != nil else { return nil }
    }

    private var bigEndian: Bool { tiff.bigEndian }

    /// The directory at TIFF offset `offset`, when all of it lies inside the block.
    func directory(at offset: Int) -> TIFFDirectory? {
        guard let count = tiff.uint16(atTIFFOffset: offset), count <= Self.maximumEntries,
              let next = tiff.uint32(atTIFFOffset: offset + 2 + 12 * Int(count)) else { return nil }
        var entries: [TIFFEntry] = []
        for index in 0..<Int(count) {
            let at = offset + 2 + 12 * index
            guard let tag = tiff.uint16(atTIFFOffset: at), let type = tiff.uint16(atTIFFOffset: at + 2),
                  let components = tiff.uint32(atTIFFOffset: at + 4) else { return nil }
            let start = tiff.tiffStart + at
            entries.append(TIFFEntry(tag: tag, type: type, count: components, raw: Array(bytes[start..<start + 12])))
        }
        return TIFFDirectory(entries: entries, next: next)
    }

    /// Sets (ASCII), or removes (nil), entries of the EXIF IFD; false when the block's directories
    /// cannot be edited safely (nothing is changed then).
    mutating func setExifValues(_ values: [(tag: UInt16, value: [UInt8]?)]) -> Bool {
        guard let ifd0Offset = tiff.ifd0Offset, var ifd0 = directory(at: ifd0Offset) else { return false }
        if let index = ifd0.entries.firstIndex(where: { $0.tag == ExifBlob.exifPointerTag }) {
            let pointerField = ifd0Offset + 2 + 12 * index + 8
            guard let exifOffset = tiff.uint32(atTIFFOffset: pointerField), var exif = directory(at: Int(exifOffset)) else { return false }
            if overwrite(values, in: exif, at: Int(exifOffset)) { return true }
            exif.set(values, bigEndian: bigEndian)
            guard let at = append(exif) else { return false }
            return tiff.setUInt32(UInt32(at), atTIFFOffset: pointerField) && commit()
        }
        var exif = TIFFDirectory(entries: [], next: 0)
        exif.set(values, bigEndian: bigEndian)
        guard let exifAt = append(exif) else { return false }
        ifd0.entries.append(.long(ExifBlob.exifPointerTag, UInt32(exifAt), bigEndian: bigEndian))
        guard let ifd0At = append(ifd0) else { return false }
        return tiff.setUInt32(UInt32(ifd0At), atTIFFOffset: 4) && commit()
    }

    /// Writes each value over its entry's when every entry is there with the same type (ASCII)
    /// and length, and every removed one is absent; false (nothing written) otherwise.
    private mutating func overwrite(_ values: [(tag: UInt16, value: [UInt8]?)], in directory: TIFFDirectory, at offset: Int) -> Bool {
        var writes: [(at: Int, value: [UInt8])] = []
        for (tag, value) in values {
            let index = directory.entries.firstIndex { $0.tag == tag }
            guard let value else {
                if index != nil { return false }
                continue
            }
            guard let index, directory.entries[index].type == 2, directory.entries[index].count == UInt32(value.count) else { return false }
            let field = offset + 2 + 12 * index + 8
            guard let at = value.count <= 4 ? field : tiff.uint32(atTIFFOffset: field).map(Int.init),
                  at >= 0, at <= tiff.tiffLength - value.count else { return false }
            writes.append((at, value))
        }
        for write in writes {
            for (index, byte) in write.value.enumerated() { _ = tiff.setUInt8(byte, atTIFFOffset: write.at + index) }
        }
        return commit()
    }

    /// Appends `directory` at the end of the block (at an even offset); returns its TIFF offset.
    private mutating func append(_ directory: TIFFDirectory) -> Int? {
        var length = tiff.tiffLength
        if length % 2 == 1 {
            tiff.appendBytes([0])
            length += 1
        }
        let serialized = directory.serialized(at: length, bigEndian: bigEndian)
        guard length + serialized.count <= Int(UInt32.max) else { return nil }
        tiff.appendBytes(serialized)
        return length
    }

    private mutating func commit() -> Bool {
        bytes = tiff.bytes
        return true
    }

    /// `value` in the block's byte order.
    static func encode(_ value: UInt32, bigEndian: Bool) -> [UInt8] {
        let big = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
        return bigEndian ? big : big.reversed()
    }

    static func encode16(_ value: UInt16, bigEndian: Bool) -> [UInt8] {
        let big = [UInt8(value >> 8), UInt8(value & 0xFF)]
        return bigEndian ? big : big.reversed()
    }
}
