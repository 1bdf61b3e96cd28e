import DarkroomISOBMFF

/// Samsung's trailer: blocks appended after the image, each ending with its length (32-bit
/// little-endian) and a four-letter type, the last of them usually the `SEFH` ... `SEFT` directory.
///
/// The directory (`SEFH`, version, entry count, then 12-byte entries: two zero bytes, a 16-bit type,
/// the distance back from the directory to the entry's data, the data's size) points at records of
/// two zero bytes, the type again, a 32-bit name length, the name, then the value. The value of
/// `MotionPhoto_Data` is the MP4 itself in JPEGs; in HEIC files it is `mpv2` (or `mpv3`) followed by
/// the video's offset and length, both 32-bit big-endian. Layout as exiftool reads it
/// (Image::ExifTool::Samsung, ProcessSamsung). Every offset is checked against the file.
enum SamsungTrailer {
    static let videoName = Array("MotionPhoto_Data".utf8)
    /// Blocks walked back from the end before giving up (exiftool has seen `QDIO` after `SEFT`).
    static let maximumBlocks = 8
    /// exiftool's bound on a trailer block's length.
    static let maximumBlockLength: UInt64 = 0x10000
    /// Longer entry names than this are not Samsung's.
    static let maximumNameLength: UInt64 = 256

    /// The `MotionPhoto_Data` entry of the trailer as a claim on the video's bytes; nil when the
    /// file has no Samsung trailer or no such entry.
    static func videoClaim(in file: ByteFile) throws -> VideoClaim? {
        guard let directory = try directory(in: file) else { return nil }
        let view = ByteView(directory.bytes)
        guard let count = view.uint32LE(8), 12 + 12 * count <= UInt64(view.count) else { return nil }
        for index in 0..<Int(count) {
            let entry = 12 + 12 * index
            guard let distance = view.uint32LE(entry + 4), let size = view.uint32LE(entry + 8),
                  distance <= directory.offset, size <= distance, size >= 8 else { return nil }
            let record = directory.offset - distance
            let header = ByteView(try file.read(at: record, count: 8))
            guard let nameLength = header.uint32LE(4), nameLength <= maximumNameLength, 8 + nameLength <= size else { continue }
            guard try file.read(at: record + 8, count: Int(nameLength)) == videoName else { continue }
            return try claim(valueAt: record + 8 + nameLength, length: size - 8 - nameLength, in: file)
        }
        return nil
    }

    /// The value of `MotionPhoto_Data`: the MP4 in place, or a pointer to it.
    private static func claim(valueAt offset: UInt64, length: UInt64, in file: ByteFile) throws -> VideoClaim {
        let source = "Samsung trailer's MotionPhoto_Data"
        let value = ByteView(try file.read(at: offset, count: 12))
        if length == 12, value.matches("mpv2", at: 0) || value.matches("mpv3", at: 0),
           let target = value.uint32BE(4), let targetLength = value.uint32BE(8) {
            return VideoClaim(kind: .samsungTrailer, source: source, extent: .bytes(offset: target, length: targetLength))
        }
        return VideoClaim(kind: .samsungTrailer, source: source, extent: .bytes(offset: offset, length: length))
    }

    /// The `SEFH` directory (its bytes and where they start), found by walking the trailer's blocks
    /// back from the end of the file.
    private static func directory(in file: ByteFile) throws -> (bytes: [UInt8], offset: UInt64)? {
        var blockEnd = file.size
        if try file.tail(6) == Array("QDIOBS".utf8) { blockEnd -= 2 }  // a QDIO block closes with "BS"
        for _ in 0..<maximumBlocks {
            guard blockEnd >= 8 else { return nil }
            let footer = ByteView(try file.read(at: blockEnd - 8, count: 8))
            guard let length = footer.uint32LE(0), let type = footer.slice(4, 4),
                  type.allSatisfy({ $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }),
                  length >= 4, length < maximumBlockLength, length + 8 <= blockEnd else { return nil }
            let start = blockEnd - 8 - length
            if FourCC(type) == "SEFT" {
                let bytes = try file.read(at: start, count: Int(length))
                guard bytes.count >= 12, ByteView(bytes).matches("SEFH", at: 0) else { return nil }
                return (bytes, start)
            }
            blockEnd = start
        }
        return nil
    }
}
