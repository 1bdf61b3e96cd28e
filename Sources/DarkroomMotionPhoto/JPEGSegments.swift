import DarkroomISOBMFF

/// The JPEG marker segments before the image data, walked header by header.
enum JPEGSegments {
    /// The identifier that starts the APP1 segment holding the main XMP packet.
    static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\u{0}".utf8)
    /// More segments than this before the image data is not a camera's JPEG.
    static let maximumSegments = 512

    /// Whether `header` starts like a JPEG (SOI followed by a marker).
    static func isJPEG(_ header: [UInt8]) -> Bool { header.starts(with: [0xFF, 0xD8, 0xFF]) }

    /// The main XMP packet (APP1 `http://ns.adobe.com/xap/1.0/`), reading only segment headers and
    /// that one segment (at most 64 KB); nil when there is none before the image data, or when the
    /// segments stop making sense.
    static func xmpPacket(in file: ByteFile) throws -> [UInt8]? {
        var position: UInt64 = 2  // after SOI
        for _ in 0..<maximumSegments {
            let header = ByteView(try file.read(at: position, count: 4))
            guard header.count >= 2, header.bytes[0] == 0xFF else { return nil }
            let marker = header.bytes[1]
            switch marker {
            case 0xFF:  // fill byte before a marker
                position += 1
                continue
            case 0x01, 0xD0...0xD8:  // markers without a length
                position += 2
                continue
            case 0xD9, 0xDA:  // end of image, start of scan: no metadata after this
                return nil
            default:
                break
            }
            guard let length = header.uint16BE(2), length >= 2 else { return nil }
            if marker == 0xE1, length - 2 > UInt64(xmpSignature.count) {
                let payload = try file.read(at: position + 4, count: Int(length) - 2)
                if payload.starts(with: xmpSignature) { return Array(payload.dropFirst(xmpSignature.count)) }
            }
            position += 2 + length
        }
        return nil
    }
}
