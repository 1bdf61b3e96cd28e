/// Containers whose EXIF is a TIFF structure inside another block: Fujifilm's RAF (the EXIF of the
/// embedded JPEG) and Minolta's MRW (its `TTW` block).
enum FujiRAF {
    static func read(_ file: ByteSource, path: String, into collection: inout ExifCollection) throws {
        // The header is 84 bytes, then the embedded JPEG's offset and length (big-endian).
        guard let jpegAt = file.uint32(at: 84, bigEndian: true).map(Int.init),
              let jpegLength = file.uint32(at: 88, bigEndian: true).map(Int.init),
              file.contains(offset: jpegAt, length: min(jpegLength, 4)) else {
            throw RawError(path: path, reason: .metadataCorrupt("the RAF header points outside the file"))
        }
        guard let origin = JPEGExif.tiffOrigin(in: file, jpegAt: jpegAt, end: min(file.count, jpegAt + jpegLength)),
              let reader = TIFFReader(source: file, origin: origin) else { return }
        TIFFMetadata.read(reader, into: &collection)
    }
}

enum MinoltaMRW {
    static let ttw: [UInt8] = [0x00, 0x54, 0x54, 0x57]

    static func read(_ file: ByteSource, path: String, into collection: inout ExifCollection) throws {
        guard let dataOffset = file.uint32(at: 4, bigEndian: true).map(Int.init) else {
            throw RawError(path: path, reason: .metadataCorrupt("the MRW header is cut short"))
        }
        // Blocks (4-byte name, big-endian length) follow the 8-byte header up to the image data.
        let end = min(file.count, 8 + dataOffset)
        var at = 8
        while at + 8 <= end {
            guard let name = file.bytes(at: at, length: 4), let length = file.uint32(at: at + 4, bigEndian: true).map(Int.init) else { break }
            if name == ttw, let reader = TIFFReader(source: file, origin: at + 8) {
                TIFFMetadata.read(reader, into: &collection)
                return
            }
            at += 8 + length
        }
    }
}

/// Finds the EXIF (APP1 `Exif\0\0`) segment of a JPEG embedded in a larger file.
enum JPEGExif {
    /// The position of the TIFF header inside the first EXIF segment of the JPEG at `start`, or nil.
    static func tiffOrigin(in source: ByteSource, jpegAt start: Int, end: Int) -> Int? {
        guard source.matches([0xFF, 0xD8], at: start) else { return nil }
        var at = start + 2
        while at + 4 <= end {
            guard let marker = source.bytes(at: at, length: 2), marker[0] == 0xFF else { return nil }
            if marker[1] == 0xFF { at += 1; continue }
            if marker[1] == 0xDA || marker[1] == 0xD9 { return nil }  // image data: no EXIF before it
            guard let length = source.uint16(at: at + 2, bigEndian: true).map(Int.init), length >= 2 else { return nil }
            if marker[1] == 0xE1, source.matches(Array("Exif".utf8) + [0, 0], at: at + 4) { return at + 10 }
            at += 2 + length
        }
        return nil
    }
}
