/// Finds capture dates in an XMP packet without an XML parser: the three properties Darkroom
/// reads are simple values, written either as attributes (`photoshop:DateCreated="..."`) or as
/// elements (`<photoshop:DateCreated>...</photoshop:DateCreated>`).
///
/// Properties are matched by their conventional prefixes (`photoshop:`, `exif:`, `xmp:`), which
/// is how every common writer spells them.
enum XMPDates {
    /// The properties read, most trusted first.
    static let properties = ["photoshop:DateCreated", "exif:DateTimeOriginal", "xmp:CreateDate"]

    /// Values longer than this are not dates; they are skipped rather than copied.
    private static let maximumValueLength = 64

    /// Every value of the properties, in the order of `properties` (then document order).
    static func values(in xmp: String) -> [(property: String, value: String)] {
        let bytes = Array(xmp.utf8)
        return properties.flatMap { property in
            values(of: Array(property.utf8), in: bytes).map { (property, $0) }
        }
    }

    private static func values(of name: [UInt8], in bytes: [UInt8]) -> [String] {
        var found: [String] = []
        var start = 0
        while let at = firstIndex(of: name, in: bytes, from: start) {
            start = at + name.count
            guard start >= bytes.count || !isNameByte(bytes[start]) else { continue }  // a longer name
            let before = at > 0 ? bytes[at - 1] : 0
            if before == UInt8(ascii: "/") || isNameByte(before) { continue }  // a closing tag or a longer name
            let value = before == UInt8(ascii: "<") ? elementValue(in: bytes, after: start)
                                                      : attributeValue(in: bytes, after: start)
            if let value, value.count <= maximumValueLength {
                found.append(String(decoding: value, as: UTF8.self))
            }
        }
        return found
    }

    /// `="value"` or `='value'`, with optional spaces around `=`.
    private static func attributeValue(in bytes: [UInt8], after start: Int) -> ArraySlice<UInt8>? {
        var index = skipSpaces(in: bytes, from: start)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
        index = skipSpaces(in: bytes, from: index + 1)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
        let quote = bytes[index]
        guard index + 1 < bytes.count, let end = bytes[(index + 1)...].firstIndex(of: quote) else { return nil }
        return bytes[(index + 1)..<end]
    }

    /// The text between `>` and the next `<` of an element with no attributes or only attributes.
    private static func elementValue(in bytes: [UInt8], after start: Int) -> ArraySlice<UInt8>? {
        guard start < bytes.count, let open = bytes[start...].firstIndex(of: UInt8(ascii: ">")),
              bytes[open - 1] != UInt8(ascii: "/"),  // `<name/>` is empty
              open + 1 < bytes.count, let close = bytes[(open + 1)...].firstIndex(of: UInt8(ascii: "<")) else { return nil }
        return bytes[(open + 1)..<close]
    }

    private static func skipSpaces(in bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
