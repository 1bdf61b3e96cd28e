import Foundation

/// Canon's CRW (CIFF): nested heaps of 10-byte records. Make and model are record 0x080A
/// (`Canon\0<model>\0`); the capture time is record 0x180E, seconds since 1970 of the camera's
/// clock, read as UTC as exiftool does (the camera's wall-clock time, no zone).
enum CanonCIFF {
    static let makeModel = 0x080A
    static let timeStamp = 0x180E
    /// Heaps nest a few levels deep in real files; deeper is a loop.
    static let maximumDepth = 8

    static func read(_ file: ByteSource, path: String, into collection: inout ExifCollection) throws {
        let bigEndian = file.matches(Array("MM".utf8), at: 0)
        guard let headerLength = file.uint32(at: 2, bigEndian: bigEndian).map(Int.init), headerLength < file.count else {
            throw RawError(path: path, reason: .metadataCorrupt("the CRW header is cut short"))
        }
        var found = Found()
        walk(file, bigEndian: bigEndian, start: headerLength, length: file.count - headerLength, depth: 0, found: &found)
        collection.setText(0x010F, found.make, inExif: false)
        collection.setText(0x0110, found.model, inExif: false)
        collection.setText(ExifCollection.dateTimeOriginal, found.captured.map(ExifDateText.utc), inExif: true)
    }

    struct Found {
        var make: String?
        var model: String?
        var captured: Int?
    }

    private static func walk(_ file: ByteSource, bigEndian: Bool, start: Int, length: Int, depth: Int, found: inout Found) {
        guard depth < maximumDepth, length >= 4,
              let relative = file.uint32(at: start + length - 4, bigEndian: bigEndian).map(Int.init),
              relative < length, let count = file.uint16(at: start + relative, bigEndian: bigEndian) else { return }
        for index in 0..<Int(count) {
            let record = start + relative + 2 + index * 10
            guard let tag = file.uint16(at: record, bigEndian: bigEndian).map(Int.init),
                  let size = file.uint32(at: record + 2, bigEndian: bigEndian).map(Int.init),
                  let offset = file.uint32(at: record + 6, bigEndian: bigEndian).map(Int.init) else { return }
            let id = tag & 0x3FFF, kind = (tag >> 8) & 0x38, inRecord = tag & 0x4000 != 0
            if (kind == 0x28 || kind == 0x30) && !inRecord {
                walk(file, bigEndian: bigEndian, start: start + offset, length: size, depth: depth + 1, found: &found)
                continue
            }
            let value = inRecord ? file.bytes(at: record + 2, length: 8) : (size <= 4096 ? file.bytes(at: start + offset, length: size) : nil)
            guard let value else { continue }
            if id == makeModel, found.make == nil {
                let parts = value.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
                found.make = parts.first?.trimmingCharacters(in: .whitespaces)
                found.model = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
            } else if id == timeStamp, found.captured == nil, value.count >= 4 {
                found.captured = MemoryBytes(value).uint32(at: 0, bigEndian: bigEndian).map(Int.init)
            }
        }
    }
}

/// Seconds since 1970 as an EXIF date, `YYYY:MM:DD HH:MM:SS`, in UTC: how exiftool shows the Unix
/// times of CRW and Sigma files, which hold the camera's wall-clock time.
enum ExifDateText {
    static func utc(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(format: "%04d:%02d:%02d %02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
