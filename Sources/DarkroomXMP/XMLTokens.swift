import Foundation

/// A small XML tokenizer for XMP packets: start tags with their attributes, end tags and text.
///
/// Written for hostile input instead of using Foundation's `XMLParser`, which on Linux traps on a
/// name or attribute value that is not valid UTF-8 (and substitutes entities). Comments,
/// processing instructions and DOCTYPE declarations (with their internal subset) are skipped; no
/// entity but the five predefined ones and character references is expanded, so entity tricks
/// (billion laughs, external entities) have nothing to work with. Scanning stops at the first
/// malformed construct and says where and why. Every index is checked; every step moves forward.
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

    /// The tokens of `bytes`, in order, up to the first malformed construct; a self-closing tag
    /// gives a start and an end.
    static func scan(_ bytes: [UInt8]) -> [Token] {
        Array(IteratorSequence(Tokenizer(bytes)))
    }

    /// Where and why scanning stopped early.
    struct SyntaxError: Error, Equatable {
        /// Byte offset of the construct that could not be read.
        var offset: Int
        var reason: String
    }

    /// The tokens of a byte buffer, one at a time; `error` is set when scanning stopped early.
    struct Tokenizer: IteratorProtocol {
        private let bytes: [UInt8]
        private var index = 0
        private var pendingEnd: String?
        /// Why the tokens ended before the bytes did, or nil.
        private(set) var error: SyntaxError?

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func next() -> Token? {
            if let name = pendingEnd {
                pendingEnd = nil
                return .end(name: name)
            }
            while index < bytes.count, error == nil {
                guard bytes[index] == UInt8(ascii: "<") else {
                    let end = firstIndex(of: UInt8(ascii: "<"), from: index) ?? bytes.count
                    defer { index = end }
                    return .text(XMLTokens.decode(bytes[index..<end]))
                }
                if hasPrefix("<!--") {
                    guard skip(past: "-->", from: index + 4, what: "comment") else { return nil }
                } else if hasPrefix("<![CDATA[") {
                    guard let end = find("]]>", from: index + 9) else { return fail("unterminated CDATA section") }
                    defer { index = end + 3 }
                    return .text(String(decoding: bytes[(index + 9)..<end], as: UTF8.self))
                } else if hasPrefix("<!DOCTYPE") {
                    guard skipDoctype() else { return nil }
                } else if hasPrefix("<?") {
                    guard skip(past: "?>", from: index + 2, what: "processing instruction") else { return nil }
                } else if hasPrefix("<!") {
                    guard skip(past: ">", from: index + 2, what: "declaration") else { return nil }
                } else if hasPrefix("</") {
                    guard let end = find(">", from: index + 2) else { return fail("unterminated end tag") }
                    defer { index = end + 1 }
                    var name = bytes[(index + 2)..<end]
                    while let last = name.last, Self.isWhitespace(last) { name = name.dropLast() }
                    while let first = name.first, Self.isWhitespace(first) { name = name.dropFirst() }
                    return .end(name: XMLTokens.decode(name))
                } else {
                    return startTag()
                }
            }
            return nil
        }

        private mutating func fail(_ reason: String) -> Token? {
            error = SyntaxError(offset: index, reason: reason)
            return nil
        }

        private mutating func skip(past terminator: String, from start: Int, what: String) -> Bool {
            guard let end = find(terminator, from: start) else {
                _ = fail("unterminated \(what)")
                return false
            }
            index = end + terminator.utf8.count
            return true
        }

        /// `<!DOCTYPE name [ internal subset ]>`: the subset may hold `>` inside its declarations.
        private mutating func skipDoctype() -> Bool {
            let close = find(">", from: index + 9)
            if let open = find("[", from: index + 9), close.map({ open < $0 }) ?? true {
                guard let subsetEnd = find("]", from: open + 1), let end = find(">", from: subsetEnd + 1) else {
                    _ = fail("unterminated DOCTYPE declaration")
                    return false
                }
                index = end + 1
                return true
            }
            return skip(past: ">", from: index + 9, what: "DOCTYPE declaration")
        }

        /// The start tag at `index` (its `<`); moves past its `>`.
        private mutating func startTag() -> Token? {
            var cursor = index + 1
            let name = word(&cursor)
            guard !name.isEmpty else { return fail("a '<' that starts no tag") }
            var attributes: [Attribute] = []
            while true {
                skipWhitespace(&cursor)
                guard cursor < bytes.count else { return fail("unterminated start tag <\(name)") }
                if bytes[cursor] == UInt8(ascii: ">") {
                    index = cursor + 1
                    return .start(name: name, attributes: attributes)
                }
                if matches("/>", at: cursor) {
                    index = cursor + 2
                    pendingEnd = name
                    return .start(name: name, attributes: attributes)
                }
                let attribute = word(&cursor)
                skipWhitespace(&cursor)
                guard !attribute.isEmpty, cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") else {
                    return fail("in <\(name)>, \(attribute.isEmpty ? "a stray character" : "attribute \(attribute)") where an attribute=\"value\" belongs")
                }
                cursor += 1
                skipWhitespace(&cursor)
                guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'") else {
                    return fail("in <\(name)>, the value of \(attribute) is not in quotes")
                }
                let quote = bytes[cursor]
                guard let close = firstIndex(of: quote, from: cursor + 1) else {
                    return fail("in <\(name)>, the value of \(attribute) is never closed")
                }
                attributes.append(Attribute(name: attribute, value: XMLTokens.decode(bytes[(cursor + 1)..<close])))
                cursor = close + 1
            }
        }

        /// A name: everything up to whitespace, `=`, `/`, `>` or the end.
        private func word(_ cursor: inout Int) -> String {
            let start = cursor
            while cursor < bytes.count, !Self.isWhitespace(bytes[cursor]), !Self.endsName(bytes[cursor]) { cursor += 1 }
            return String(decoding: bytes[start..<cursor], as: UTF8.self)
        }

        private func skipWhitespace(_ cursor: inout Int) {
            while cursor < bytes.count, Self.isWhitespace(bytes[cursor]) { cursor += 1 }
        }

        private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

        private static func endsName(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "=") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
        }

        private func hasPrefix(_ prefix: String) -> Bool { matches(prefix, at: index) }

        private func matches(_ text: String, at offset: Int) -> Bool {
            let pattern = text.utf8
            guard offset >= 0, offset <= bytes.count, bytes.count - offset >= pattern.count else { return false }
            return bytes[offset..<(offset + pattern.count)].elementsEqual(pattern)
        }

        /// The offset of the first `byte` at or after `start` (with `memchr`: long text values are
        /// common, and a byte-by-byte loop is slow in debug builds).
        private func firstIndex(of byte: UInt8, from start: Int) -> Int? {
            guard start < bytes.count else { return nil }
            return bytes.withUnsafeBytes { buffer -> Int? in
                guard let base = buffer.baseAddress, let hit = memchr(base + start, Int32(byte), buffer.count - start) else { return nil }
                return base.distance(to: UnsafeRawPointer(hit))
            }
        }

        /// The offset of the first `needle` at or after `start`.
        private func find(_ needle: String, from start: Int) -> Int? {
            let pattern = Array(needle.utf8)
            guard let first = pattern.first, start <= bytes.count else { return nil }
            var candidate = start
            while let hit = firstIndex(of: first, from: candidate) {
                if matches(needle, at: hit) { return hit }
                candidate = hit + 1
            }
            return nil
        }
    }

    /// Text with the predefined entities and character references replaced; others kept as written.
    static func decode(_ raw: ArraySlice<UInt8>) -> String {
        let text = String(decoding: raw, as: UTF8.self)
        let hasAmpersand = raw.withUnsafeBytes { buffer in
            buffer.baseAddress.map { memchr($0, Int32(UInt8(ascii: "&")), buffer.count) != nil } ?? false
        }
        guard hasAmpersand else { return text }
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
