import Foundation

/// Reads the central directory of an existing archive (plain ZIP or ZIP64) and the bytes of its
/// stored entries: what `darkroom export --zip` needs to add photos to an archive it made before
/// (its entries are copied into the new archive without being decoded). Deflated entries are
/// listed but not read. Bounded: the directory is read once, entries are read in chunks by `ZipWriter`.
public final class ZipReader {
    /// One entry of the archive.
    public struct Entry: Sendable, Equatable {
        /// Its name as stored (UTF-8).
        public var name: String
        /// 0 stored, 8 deflated.
        public var method: UInt16
        /// Bytes in the archive.
        public var compressedSize: UInt64
        /// Bytes once extracted.
        public var size: UInt64
        /// CRC-32 of the extracted bytes.
        public var crc: UInt32
        /// When it was modified: the extended timestamp's UTC time, else the DOS time read as UTC.
        public var modified: Date
        /// Where its local header starts.
        var localHeaderOffset: UInt64
    }

    /// The archive read.
    public let url: URL
    /// Its entries, in directory order.
    public private(set) var entries: [Entry] = []
    private let file: FileHandle

    /// Reads the archive's end records and central directory; throws `ZipError` (`notAnArchive`
    /// with the reason) for anything that is not a ZIP archive this reader understands.
    public init(url: URL) throws {
        self.url = url
        do { file = try FileHandle(forReadingFrom: url) } catch {
            throw ZipError(path: url.path, reason: .notAnArchive("cannot be opened: \(error.localizedDescription)"))
        }
        let size = try file.seekToEnd()
        let tailSize = min(size, 65_535 + 22)
        let tail = try bytes(at: size - tailSize, count: Int(tailSize))
        guard let end = (0...max(0, tail.count - 22)).reversed().first(where: { tail.u32(at: $0) == ZipRecords.endSignature }) else {
            throw failure("no end of central directory record")
        }
        var count = UInt64(tail.u16(at: end + 10))
        var directorySize = UInt64(tail.u32(at: end + 12))
        var directoryOffset = UInt64(tail.u32(at: end + 16))
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            let locatorAt = size - tailSize + UInt64(end) - 20
            let locator = try bytes(at: locatorAt, count: 20)
            guard locator.u32(at: 0) == ZipRecords.zip64LocatorSignature else { throw failure("ZIP64 locator missing") }
            let record = try bytes(at: locator.u64(at: 8), count: 56)
            guard record.u32(at: 0) == ZipRecords.zip64EndSignature else { throw failure("ZIP64 end record missing") }
            count = record.u64(at: 32)
            directorySize = record.u64(at: 40)
            directoryOffset = record.u64(at: 48)
        }
        guard directoryOffset + directorySize <= size, directorySize <= 1 << 31 else { throw failure("central directory out of bounds") }
        let directory = try bytes(at: directoryOffset, count: Int(directorySize))
        var at = 0
        for _ in 0..<count {
            guard at + 46 <= directory.count, directory.u32(at: at) == ZipRecords.centralHeaderSignature else {
                throw failure("damaged central directory")
            }
            let nameLength = Int(directory.u16(at: at + 28)), extraLength = Int(directory.u16(at: at + 30))
            let commentLength = Int(directory.u16(at: at + 32))
            guard at + 46 + nameLength + extraLength + commentLength <= directory.count else { throw failure("damaged central directory") }
            var entry = Entry(name: String(decoding: directory[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self),
                              method: directory.u16(at: at + 10), compressedSize: UInt64(directory.u32(at: at + 20)),
                              size: UInt64(directory.u32(at: at + 24)), crc: directory.u32(at: at + 16),
                              modified: Self.dosDate(time: directory.u16(at: at + 12), date: directory.u16(at: at + 14)),
                              localHeaderOffset: UInt64(directory.u32(at: at + 42)))
            Self.readExtra(Array(directory[(at + 46 + nameLength)..<(at + 46 + nameLength + extraLength)]), into: &entry)
            entries.append(entry)
            at += 46 + nameLength + extraLength + commentLength
        }
    }

    deinit { try? file.close() }

    /// Where a stored entry's bytes lie in the archive file.
    public func dataRange(of entry: Entry) throws -> Range<UInt64> {
        let header = try bytes(at: entry.localHeaderOffset, count: 30)
        guard header.u32(at: 0) == ZipRecords.localHeaderSignature else { throw failure("no local header for \(entry.name)") }
        let start = entry.localHeaderOffset + 30 + UInt64(header.u16(at: 26)) + UInt64(header.u16(at: 28))
        return start..<(start + entry.compressedSize)
    }

    /// The bytes of a small stored entry (the export's record), checked against its CRC-32.
    public func data(of entry: Entry) throws -> Data {
        guard entry.method == 0 else { throw failure("\(entry.name) is compressed") }
        guard entry.size <= 1 << 30 else { throw failure("\(entry.name) is too large to read at once") }
        let range = try dataRange(of: entry)
        let data = Data(try bytes(at: range.lowerBound, count: Int(entry.size)))
        guard data.withUnsafeBytes({ Zlib.crc32(0, $0) }) == entry.crc else { throw failure("\(entry.name) fails its CRC-32 check") }
        return data
    }

    private func bytes(at offset: UInt64, count: Int) throws -> [UInt8] {
        try file.seek(toOffset: offset)
        let data = try file.read(upToCount: count) ?? Data()
        guard data.count == count else { throw failure("ends early") }
        return [UInt8](data)
    }

    private func failure(_ reason: String) -> ZipError { ZipError(path: url.path, reason: .notAnArchive(reason)) }

    /// ZIP64 sizes and offset (0x0001) and the extended timestamp (0x5455), when present.
    private static func readExtra(_ extra: [UInt8], into entry: inout Entry) {
        var at = 0
        while at + 4 <= extra.count {
            let tag = extra.u16(at: at), length = Int(extra.u16(at: at + 2))
            let field = at + 4
            guard field + length <= extra.count else { return }
            if tag == 0x0001 {
                var next = field
                func take(_ value: inout UInt64) {
                    guard value == 0xFFFF_FFFF, next + 8 <= field + length else { return }
                    value = extra.u64(at: next)
                    next += 8
                }
                take(&entry.size)
                take(&entry.compressedSize)
                take(&entry.localHeaderOffset)
            } else if tag == 0x5455, length >= 5, extra[field] & 1 != 0 {
                entry.modified = Date(timeIntervalSince1970: Double(Int32(bitPattern: extra.u32(at: field + 1))))
            }
            at = field + length
        }
    }

    private static func dosDate(time: UInt16, date: UInt16) -> Date {
        var parts = DateComponents()
        parts.year = 1980 + Int(date >> 9); parts.month = Int(date >> 5 & 15); parts.day = Int(date & 31)
        parts.hour = Int(time >> 11); parts.minute = Int(time >> 5 & 63); parts.second = Int(time & 31) * 2
        return DOSDateTime.calendar(in: TimeZone(identifier: "UTC")!).date(from: parts) ?? Date(timeIntervalSince1970: 0)
    }
}

private extension Array where Element == UInt8 {
    func u16(at offset: Int) -> UInt16 { UInt16(self[offset]) | UInt16(self[offset + 1]) << 8 }
    func u32(at offset: Int) -> UInt32 { UInt32(u16(at: offset)) | UInt32(u16(at: offset + 2)) << 16 }
    func u64(at offset: Int) -> UInt64 { UInt64(u32(at: offset)) | UInt64(u32(at: offset + 4)) << 32 }
}
