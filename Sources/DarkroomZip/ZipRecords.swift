/// The byte layout of ZIP's records (PKWARE's APPNOTE 6.3.10), little-endian throughout.
///
/// Sizes and offsets that reach `Zip64Limits.size` are written as 0xFFFFFFFF with the real 64-bit
/// values in a ZIP64 extra field (0x0001); an archive with too many entries, or whose central
/// directory lies or ends past the limit, gets a ZIP64 end-of-central-directory record and locator
/// before the classic end record.
enum ZipRecords {
    static let localHeaderSignature: UInt32 = 0x0403_4B50
    static let centralHeaderSignature: UInt32 = 0x0201_4B50
    static let zip64EndSignature: UInt32 = 0x0606_4B50
    static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    static let endSignature: UInt32 = 0x0605_4B50

    /// Flag bit 11: the name is UTF-8.
    static let utf8Flag: UInt16 = 1 << 11
    /// Made by Unix (3), specification 4.5 (ZIP64): extractors then read the Unix mode below.
    static let versionMadeBy: UInt16 = 3 << 8 | 45
    /// `-rw-r--r--` regular file, in the high 16 bits of the external attributes.
    static let regularFileAttributes: UInt32 = 0o100644 << 16
    /// Where the CRC-32 field lies in a local header (it and the two sizes follow).
    static let localCRCOffset: UInt64 = 14
    /// The fixed part of a local header, before the name.
    static let localHeaderFixedSize: UInt64 = 30
    /// Bytes of a ZIP64 extra field in a local header: tag, size, two 64-bit sizes.
    static let localZip64ExtraSize = 20

    /// One entry as the central directory records it: all a writer keeps per entry (about 70
    /// bytes plus the name).
    struct Entry {
        var name: [UInt8]
        var method: UInt16
        var dosTime: DOSDateTime
        var unixTime: Int32?
        var crc: UInt32 = 0
        var compressedSize: UInt64 = 0
        var uncompressedSize: UInt64 = 0
        var localHeaderOffset: UInt64
        /// Whether its local header has a ZIP64 extra field (decided when the header is written).
        var zip64: Bool

        var versionNeeded: UInt16 { zip64 ? 45 : (method == 8 ? 20 : 10) }
    }

    /// The local header of `entry`. With `zip64`, both sizes are 0xFFFFFFFF and the extra field
    /// holds them (zeros until patched); otherwise the sizes are the entry's (patched after the data).
    static func localHeader(_ entry: Entry) -> [UInt8] {
        var out = LittleEndian()
        out.u32(localHeaderSignature)
        out.u16(entry.versionNeeded)
        out.u16(utf8Flag)
        out.u16(entry.method)
        out.u16(entry.dosTime.time)
        out.u16(entry.dosTime.date)
        out.u32(entry.crc)
        out.u32(entry.zip64 ? UInt32.max : UInt32(truncatingIfNeeded: entry.compressedSize))
        out.u32(entry.zip64 ? UInt32.max : UInt32(truncatingIfNeeded: entry.uncompressedSize))
        let extra = localExtra(entry)
        out.u16(UInt16(entry.name.count))
        out.u16(UInt16(extra.count))
        out.bytes(entry.name)
        out.bytes(extra)
        return out.buffer
    }

    /// The CRC-32 and sizes of a written entry, to patch over its local header's at `localCRCOffset`;
    /// for a ZIP64 header the sizes go into its extra field (`zip64SizesOffset`) instead.
    static func localPatch(_ entry: Entry) -> (crcAndSizes: [UInt8], zip64Sizes: [UInt8]?) {
        var fixed = LittleEndian()
        fixed.u32(entry.crc)
        fixed.u32(entry.zip64 ? UInt32.max : UInt32(entry.compressedSize))
        fixed.u32(entry.zip64 ? UInt32.max : UInt32(entry.uncompressedSize))
        guard entry.zip64 else { return (fixed.buffer, nil) }
        var sizes = LittleEndian()
        sizes.u64(entry.uncompressedSize)
        sizes.u64(entry.compressedSize)
        return (fixed.buffer, sizes.buffer)
    }

    /// Where the 64-bit sizes of a ZIP64 local header lie, from the header's start.
    static func zip64SizesOffset(_ entry: Entry) -> UInt64 {
        localHeaderFixedSize + UInt64(entry.name.count) + 4
    }

    private static func localExtra(_ entry: Entry) -> [UInt8] {
        var out = LittleEndian()
        if entry.zip64 {
            out.u16(0x0001)
            out.u16(16)
            out.u64(entry.uncompressedSize)
            out.u64(entry.compressedSize)
        }
        timestampExtra(entry, into: &out)
        return out.buffer
    }

    /// The extended timestamp field (0x5455, modification time only): the exact UTC time, which
    /// Info-ZIP's unzip restores instead of the DOS local time.
    private static func timestampExtra(_ entry: Entry, into out: inout LittleEndian) {
        guard let unixTime = entry.unixTime else { return }
        out.u16(0x5455)
        out.u16(5)
        out.u8(1)
        out.u32(UInt32(bitPattern: unixTime))
    }

    /// The central directory header of `entry`. Each of its sizes and offset that reaches
    /// `limit` (or every one, when `forceZip64`) goes into a ZIP64 extra field, in APPNOTE's order.
    static func centralHeader(_ entry: Entry, limit: UInt64, forceZip64: Bool) -> [UInt8] {
        let bigUncompressed = forceZip64 || entry.uncompressedSize >= limit
        let bigCompressed = forceZip64 || entry.compressedSize >= limit
        let bigOffset = forceZip64 || entry.localHeaderOffset >= limit
        var extra = LittleEndian()
        if bigUncompressed || bigCompressed || bigOffset {
            let fields = [bigUncompressed ? entry.uncompressedSize : nil, bigCompressed ? entry.compressedSize : nil,
                          bigOffset ? entry.localHeaderOffset : nil].compactMap { $0 }
            extra.u16(0x0001)
            extra.u16(UInt16(8 * fields.count))
            fields.forEach { extra.u64($0) }
        }
        timestampExtra(entry, into: &extra)
        let zip64 = entry.zip64 || bigUncompressed || bigCompressed || bigOffset
        var out = LittleEndian()
        out.u32(centralHeaderSignature)
        out.u16(versionMadeBy)
        out.u16(zip64 ? 45 : entry.versionNeeded)
        out.u16(utf8Flag)
        out.u16(entry.method)
        out.u16(entry.dosTime.time)
        out.u16(entry.dosTime.date)
        out.u32(entry.crc)
        out.u32(bigCompressed ? UInt32.max : UInt32(entry.compressedSize))
        out.u32(bigUncompressed ? UInt32.max : UInt32(entry.uncompressedSize))
        out.u16(UInt16(entry.name.count))
        out.u16(UInt16(extra.buffer.count))
        out.u16(0)  // comment length
        out.u16(0)  // disk number start
        out.u16(0)  // internal attributes
        out.u32(regularFileAttributes)
        out.u32(bigOffset ? UInt32.max : UInt32(entry.localHeaderOffset))
        out.bytes(entry.name)
        out.bytes(extra.buffer)
        return out.buffer
    }

    /// Where the central directory is and how many entries it has.
    struct Directory {
        var entryCount: UInt64
        var offset: UInt64
        var size: UInt64
    }

    /// The end of the archive: the ZIP64 end record and locator when `directory` needs them (or
    /// `forceZip64`), then the classic end record, whose fields that overflow read 0xFFFF(FFFF).
    static func end(_ directory: Directory, limits: Zip64Limits, forceZip64: Bool) -> [UInt8] {
        let manyEntries = forceZip64 || directory.entryCount >= limits.entries
        let bigSize = forceZip64 || directory.size >= limits.size
        let bigOffset = forceZip64 || directory.offset >= limits.size
        var out = LittleEndian()
        if manyEntries || bigSize || bigOffset {
            let zip64EndOffset = directory.offset + directory.size
            out.u32(zip64EndSignature)
            out.u64(44)  // size of the record after this field
            out.u16(versionMadeBy)
            out.u16(45)
            out.u32(0)  // this disk
            out.u32(0)  // disk where the central directory starts
            out.u64(directory.entryCount)
            out.u64(directory.entryCount)
            out.u64(directory.size)
            out.u64(directory.offset)
            out.u32(zip64LocatorSignature)
            out.u32(0)  // disk of the ZIP64 end record
            out.u64(zip64EndOffset)
            out.u32(1)  // total disks
        }
        let count = manyEntries ? UInt16.max : UInt16(directory.entryCount)
        out.u32(endSignature)
        out.u16(0)
        out.u16(0)
        out.u16(count)
        out.u16(count)
        out.u32(bigSize ? UInt32.max : UInt32(directory.size))
        out.u32(bigOffset ? UInt32.max : UInt32(directory.offset))
        out.u16(0)  // comment length
        return out.buffer
    }
}

/// When ZIP64 records are needed: sizes and offsets at or over `size`, entry counts at or over
/// `entries`. The standard limits are the largest values the classic fields can hold (their
/// maximum is reserved as ZIP64's marker); tests lower them to exercise ZIP64 on small archives.
struct Zip64Limits: Equatable {
    var size: UInt64
    var entries: UInt64

    static let standard = Zip64Limits(size: 0xFFFF_FFFF, entries: 0xFFFF)
}

/// Appends little-endian integers and bytes.
struct LittleEndian {
    private(set) var buffer: [UInt8] = []

    mutating func u8(_ value: UInt8) { buffer.append(value) }
    mutating func u16(_ value: UInt16) { append(value, bytes: 2) }
    mutating func u32(_ value: UInt32) { append(value, bytes: 4) }
    mutating func u64(_ value: UInt64) { append(value, bytes: 8) }
    mutating func bytes(_ bytes: [UInt8]) { buffer.append(contentsOf: bytes) }

    private mutating func append<T: FixedWidthInteger>(_ value: T, bytes: Int) {
        for index in 0..<bytes { buffer.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }
}
