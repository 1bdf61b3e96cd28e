import Foundation

/// Sigma's X3F: a directory at the end of the file (its offset in the last 4 bytes) lists sections.
/// Newer cameras embed a JPEG preview with EXIF (section `IMA2`); all have a `PROP` section of
/// UTF-16 name/value pairs (`CAMMANUF`, `CAMMODEL`, `TIME` in seconds since 1970). The EXIF wins
/// where both have a value, as in exiftool.
enum SigmaX3F {
    static let maximumSectionBytes = 1 << 20

    static func read(_ file: ByteSource, path: String, into collection: inout ExifCollection) throws {
        guard let directory = file.uint32(at: file.count - 4, bigEndian: false).map(Int.init),
              file.matches(Array("SECd".utf8), at: directory),
              let count = file.uint32(at: directory + 8, bigEndian: false).map(Int.init), count < 1000 else {
            throw RawError(path: path, reason: .metadataCorrupt("the X3F section directory is missing or damaged"))
        }
        var properties: [String: String] = [:]
        for index in 0..<count {
            let entry = directory + 12 + index * 12
            guard let offset = file.uint32(at: entry, bigEndian: false).map(Int.init),
                  let length = file.uint32(at: entry + 4, bigEndian: false).map(Int.init),
                  let kind = file.bytes(at: entry + 8, length: 4).map({ String(decoding: $0, as: UTF8.self) }) else { break }
            switch kind {
            case "IMA2", "IMAG":
                // A JPEG preview section: "SECi", version 2.0, type 2, format 18, then 12 more header bytes.
                let jpegPreview: [UInt8] = Array("SECi".utf8) + [0, 0, 2, 0, 2, 0, 0, 0, 0x12, 0, 0, 0]
                guard file.matches(jpegPreview, at: offset),
                      let origin = JPEGExif.tiffOrigin(in: file, jpegAt: offset + 28, end: min(file.count, offset + length)),
                      let reader = TIFFReader(source: file, origin: origin) else { continue }
                TIFFMetadata.read(reader, into: &collection)
            case "PROP" where length <= maximumSectionBytes:
                if let bytes = file.bytes(at: offset, length: length) { properties.merge(Self.properties(bytes)) { old, _ in old } }
            default:
                continue
            }
        }
        collection.setText(0x010F, properties["CAMMANUF"], inExif: false)
        collection.setText(0x0110, properties["CAMMODEL"], inExif: false)
        collection.setText(ExifCollection.dateTimeOriginal, properties["TIME"].flatMap { Int($0) }.map(ExifDateText.utc), inExif: true)
    }

    /// A `SECp` section: entry count at 8, character format at 12 (0 = UTF-16LE), character count at
    /// 20, then (name, value) character positions and the characters.
    static func properties(_ bytes: [UInt8]) -> [String: String] {
        let source = MemoryBytes(bytes)
        guard source.matches(Array("SECp".utf8), at: 0), let count = source.uint32(at: 8, bigEndian: false).map(Int.init),
              source.uint32(at: 12, bigEndian: false) == 0, let characters = source.uint32(at: 20, bigEndian: false).map(Int.init),
              count < 10_000, let text = source.bytes(at: 24 + 8 * count, length: characters * 2) else { return [:] }
        let units = stride(from: 0, to: text.count - 1, by: 2).map { UInt16(text[$0]) | UInt16(text[$0 + 1]) << 8 }
        func string(at position: Int) -> String? {
            guard position < units.count else { return nil }
            return String(decoding: units[position...].prefix { $0 != 0 }, as: UTF16.self)
        }
        var result: [String: String] = [:]
        for index in 0..<count {
            guard let name = source.uint32(at: 24 + index * 8, bigEndian: false).flatMap({ string(at: Int($0)) }),
                  let value = source.uint32(at: 28 + index * 8, bigEndian: false).flatMap({ string(at: Int($0)) }) else { continue }
            result[name] = value.trimmingCharacters(in: .whitespaces)
        }
        return result
    }
}

/// Kyocera's Contax N Digital RAW: a 156-byte big-endian header whose strings are stored reversed.
enum KyoceraRaw {
    /// `KYOCERA` reversed, at 0x19: how the format is recognised.
    static let signature = Array("ARECOYK".utf8)

    static func read(_ file: ByteSource, path: String, into collection: inout ExifCollection) throws {
        guard let header = file.bytes(at: 0, length: 156) else {
            throw RawError(path: path, reason: .metadataCorrupt("the Kyocera header is cut short"))
        }
        func reversed(_ at: Int, _ length: Int) -> String {
            String(decoding: header[at..<at + length].prefix { $0 != 0 }.reversed(), as: UTF8.self)
                .trimmingCharacters(in: .whitespaces)
        }
        collection.setText(0x010F, reversed(0x19, 7), inExif: false)
        collection.setText(0x0110, reversed(0x0C, 12), inExif: false)
        collection.setText(ExifCollection.dateTimeOriginal, reversed(0x21, 20), inExif: true)
    }
}
