/// A small XML tokenizer for XMP packets: start tags with their attributes, end tags and text.
///
/// Written for hostile input instead of using Foundation's `XMLParser`, which on Linux traps on a
/// name or attribute value that is not valid UTF-8 (and substitutes entities). Comments,
/// processing instructions and DOCTYPE declarations are skipped; no entity but the five predefined
/// ones and character references is expanded. Scanning stops quietly at the first malformed tag,
/// keeping the tokens before it. Every index is checked; every step moves forward.
enum XMLTokens {
    enum Token: Equatable {
        case start(name: String, attributes: [Attribute])
        case end(name: String)
        case text(String)
    }

    struct Attribute: Equatable {
        var name: String
        var value: String
    }

    /// The tokens of `bytes`, in order; a self-closing tag gives a start and an end.
    static func scan(_ bytes: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                let end = bytes[index...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
                tokens.append(.text(decode(bytes[index..<end])))
                index = end
                continue
            }
            if hasPrefix("<!--", bytes, index) {
                guard let end = find("-->", bytes, from: index + 4) else { break }
                index = end + 3
            } else if hasPrefix("<![CDATA[", bytes, index) {
                guard let end = find("]]>", bytes, from: index + 9) else { break }
                tokens.append(.text(String(decoding: bytes[(index + 9)..<end], as: UTF8.self)))
                index = end + 3
            } else if hasPrefix("<?", bytes, index) || hasPrefix("<!", bytes, index) {
                guard let end = find(">", bytes, from: index + 2) else { break }
                index = end + 1
            } else if hasPrefix("</", bytes, index) {
                guard let end = find(">", bytes, from: index + 2) else { break }
                tokens.append(.end(name: decode(bytes[(index + 2)..<end]).trimmingWhitespace))
                index = end + 1
            } else {
                guard let (tag, selfClosing, next) = startTag(bytes, at: index) else { break }
                tokens.append(tag)
                if selfClosing, case .start(let name, _) = tag { tokens.append(.end(name: name)) }
                index = next
            }
        }
        return tokens
    }

    /// The start tag at `start` (its `<`), whether it closes itself, and the index after its `>`.
    private static func startTag(_ bytes: [UInt8], at start: Int) -> (Token, Bool, Int)? {
        var index = start + 1
        let name = word(bytes, &index)
        guard !name.isEmpty else { return nil }
        var attributes: [Attribute] = []
        while true {
            skipWhitespace(bytes, &index)
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: ">") { return (.start(name: name, attributes: attributes), false, index + 1) }
            if hasPrefix("/>", bytes, index) { return (.start(name: name, attributes: attributes), true, index + 2) }
            let attribute = word(bytes, &index)
            skipWhitespace(bytes, &index)
            guard !attribute.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
            index += 1
            skipWhitespace(bytes, &index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
            let quote = bytes[index]
            guard let close = bytes[(index + 1)...].firstIndex(of: quote) else { return nil }
            attributes.append(Attribute(name: attribute, value: decode(bytes[(index + 1)..<close])))
            index = close + 1
        }
    }

    /// A name: everything up to whitespace, `=`, `/`, `>` or the end.
    private static func word(_ bytes: [UInt8], _ index: inout Int) -> String {
        let start = index
        while index < bytes.count, !isWhitespace(bytes[index]),
              ![UInt8(ascii: "="), UInt8(ascii: "/"), UInt8(ascii: ">")].contains(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private static func skipWhitespace(_ bytes: [UInt8], _ index: inout Int) {
        while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private static func hasPrefix(_ prefix: String, _ bytes: [UInt8], _ index: Int) -> Bool {
        ByteView(bytes).matches(Array(prefix.utf8), at: index)
    }

    private static func find(_ needle: String, _ bytes: [UInt8], from start: Int) -> Int? {
        let pattern = Array(needle.utf8)
        guard start <= bytes.count, bytes.count - start >= pattern.count else { return nil }
        return (start...(bytes.count - pattern.count)).first { ByteView(bytes).matches(pattern, at: $0) }
    }

    /// Text with the predefined entities and character references replaced; others kept as written.
    static func decode(_ raw: ArraySlice<UInt8>) -> String {
        let text = String(decoding: raw, as: UTF8.self)
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            guard let semicolon = rest[afterAmpersand...].prefix(12).firstIndex(of: ";") else {
                result += "&"
                rest = rest[afterAmpersand...]
                continue
            }
            let entity = rest[afterAmpersand..<semicolon]
            if let replacement = replacement(for: entity) {
                result += replacement
            } else {
                result += rest[ampersand...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    private static func replacement(for entity: Substring) -> String? {
        switch entity {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let number: UInt32?
            if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                number = UInt32(entity.dropFirst(2), radix: 16)
            } else if entity.hasPrefix("#") {
                number = UInt32(entity.dropFirst())
            } else {
                number = nil
            }
            return number.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
