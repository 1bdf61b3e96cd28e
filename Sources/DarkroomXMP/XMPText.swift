/// The UTF-8 bytes of a packet, whatever Unicode encoding it was stored in. XMP allows UTF-8,
/// UTF-16 and UTF-32; sidecars written on Windows (Lightroom's among them) are often UTF-16 with a
/// byte order mark. Invalid sequences become U+FFFD and are reported, never trapped on.
enum XMPText {
    /// `bytes` as UTF-8, with what had to be repaired.
    static func utf8(_ bytes: [UInt8]) -> (bytes: [UInt8], repairs: [String]) {
        if let unit = utf16Layout(bytes) {
            let start = unit.hasBOM ? 2 : 0
            let units = stride(from: start, to: bytes.count - 1, by: 2).map { index -> UInt16 in
                let (high, low) = unit.bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
                return UInt16(high) << 8 | UInt16(low)
            }
            var repairs: [String] = []
            if String(validating: units, as: UTF16.self) == nil || (bytes.count - start) % 2 != 0 {
                repairs.append("invalid UTF-16 was replaced with U+FFFD")
            }
            return (Array(String(decoding: units, as: UTF16.self).utf8), repairs)
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard String(validating: body, as: UTF8.self) == nil else { return (body, []) }
        return (Array(String(decoding: body, as: UTF8.self).utf8), ["bytes that are not UTF-8 were replaced with U+FFFD"])
    }

    /// UTF-16 told by its byte order mark, or by `<` as the first character.
    private static func utf16Layout(_ bytes: [UInt8]) -> (bigEndian: Bool, hasBOM: Bool)? {
        guard bytes.count >= 2 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0xFF, 0xFE): return (false, true)
        case (0xFE, 0xFF): return (true, true)
        case (0x3C, 0x00): return (false, false)
        case (0x00, 0x3C): return (true, false)
        default: return nil
        }
    }
}
