import Foundation

extension CaptureDate {
    /// The capture date in `json`, as its `Codable` conformance writes it (`JSONEncoder`); nil when
    /// it is not one. The common shape (integers, plain strings with the usual escapes) is read by
    /// hand: a catalog of 100,000 photos is read back at every run, and `JSONDecoder` spent 20 µs a
    /// date. Anything else (a `\u` escape, a fraction, a key twice) is left to `JSONDecoder`.
    public static func decoding(json: String) -> CaptureDate? {
        var text = json
        if let date = text.withUTF8({ bytes in
            var reader = CaptureDateJSON(bytes: bytes)
            return reader.captureDate()
        }) {
            return date
        }
        return try? JSONDecoder().decode(CaptureDate.self, from: Data(json.utf8))
    }
}

/// Reads the JSON a `CaptureDate` is written as, for `CaptureDate.decoding(json:)`: nil at the first
/// thing it does not read exactly as `JSONDecoder` would.
private struct CaptureDateJSON {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    /// A JSON value of the shape read here.
    indirect enum Value {
        case number(Int), string(String), bool(Bool), null
        case array([Value])
        /// Its fields in order (a handful: looked through, not hashed).
        case object([(key: String, value: Value)])
    }

    mutating func captureDate() -> CaptureDate? {
        guard case .object(let object)? = value() else { return nil }
        let fields = Fields(object)
        skipSpace()
        guard position == bytes.count, let local = Self.local(fields["local"]) else { return nil }
        guard let source = Self.raw(CaptureDate.Source.self, fields["source"]),
              let timeZoneSource = Self.raw(CaptureDate.TimeZoneSource.self, fields["timeZoneSource"]),
              let confidence = Self.raw(CaptureDate.Confidence.self, fields["confidence"]),
              let utcOffsetSeconds = Self.optional(fields["utcOffsetSeconds"], { value -> Int? in
                  guard case .number(let number) = value else { return nil }
                  return number
              }),
              let notes = Self.optional(fields["notes"], { value -> [String]? in
                  guard case .array(let items) = value else { return nil }
                  let strings = items.compactMap { item -> String? in
                      guard case .string(let string) = item else { return nil }
                      return string
                  }
                  return strings.count == items.count ? strings : nil
              }),
              let dateOnly = Self.optional(fields["dateOnly"], { value -> Bool? in
                  guard case .bool(let flag) = value else { return nil }
                  return flag
              }),
              let overrides = Self.optional(fields["overrides"], Self.found) else { return nil }
        return CaptureDate(local: local, utcOffsetSeconds: utcOffsetSeconds, source: source, timeZoneSource: timeZoneSource,
                           confidence: confidence, notes: notes, dateOnly: dateOnly, overrides: overrides)
    }

    // MARK: The fields

    /// An optional field: `.some(nil)` when absent or null, nil when present and not read by `read`.
    private static func optional<T>(_ value: Value?, _ read: (Value) -> T?) -> T?? {
        guard let value, !Self.isNull(value) else { return .some(nil) }
        return read(value).map { .some($0) }
    }

    private static func isNull(_ value: Value) -> Bool {
        if case .null = value { return true }
        return false
    }

    private static func raw<T: RawRepresentable>(_ type: T.Type, _ value: Value?) -> T? where T.RawValue == String {
        guard case .string(let string)? = value else { return nil }
        return T(rawValue: string)
    }

    /// The wall-clock time as its synthesized `Codable` conformance reads it: every field, unchecked.
    private static func local(_ value: Value?) -> LocalDateTime? {
        guard case .object(let object)? = value else { return nil }
        let fields = Fields(object)
        var numbers: [Int] = []
        for key in ["year", "month", "day", "hour", "minute", "second", "nanosecond"] {
            guard case .number(let number)? = fields[key] else { return nil }
            numbers.append(number)
        }
        return LocalDateTime(decoded: numbers)
    }

    private static func found(_ value: Value) -> FoundDate? {
        guard case .object(let object) = value, case let fields = Fields(object), let local = local(fields["local"]),
              let source = raw(CaptureDate.Source.self, fields["source"]),
              let timeZoneSource = raw(CaptureDate.TimeZoneSource.self, fields["timeZoneSource"]),
              let confidence = raw(CaptureDate.Confidence.self, fields["confidence"]),
              let utcOffsetSeconds = optional(fields["utcOffsetSeconds"], { value -> Int? in
                  guard case .number(let number) = value else { return nil }
                  return number
              }) else { return nil }
        return FoundDate(CaptureDate(local: local, utcOffsetSeconds: utcOffsetSeconds, source: source, timeZoneSource: timeZoneSource,
                                     confidence: confidence))
    }

    /// An object's fields, by key.
    private struct Fields {
        let fields: [(key: String, value: Value)]
        init(_ fields: [(key: String, value: Value)]) { self.fields = fields }
        subscript(key: String) -> Value? { fields.first { $0.key == key }?.value }
    }

    // MARK: The JSON

    private mutating func value() -> Value? {
        skipSpace()
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(Value.string)
        case UInt8(ascii: "t"): return word("true", .bool(true))
        case UInt8(ascii: "f"): return word("false", .bool(false))
        case UInt8(ascii: "n"): return word("null", .null)
        default: return number()
        }
    }

    private mutating func object() -> Value? {
        position += 1
        var fields: [(key: String, value: Value)] = []
        skipSpace()
        if take(UInt8(ascii: "}")) { return .object(fields) }
        repeat {
            skipSpace()
            guard let key = string(), !fields.contains(where: { $0.key == key }) else { return nil }
            skipSpace()
            guard take(UInt8(ascii: ":")), let value = value() else { return nil }
            fields.append((key, value))
            skipSpace()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}")) ? .object(fields) : nil
    }

    private mutating func array() -> Value? {
        position += 1
        var items: [Value] = []
        skipSpace()
        if take(UInt8(ascii: "]")) { return .array(items) }
        repeat {
            guard let item = value() else { return nil }
            items.append(item)
            skipSpace()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? .array(items) : nil
    }

    /// A string whose escapes are the one-letter ones; nil for a `\u` escape or a control character.
    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        // Most strings have no escape: taken as they are.
        if let end = bytes[position...].firstIndex(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }),
           bytes[end] == UInt8(ascii: "\"") {
            defer { position = end + 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
        }
        var text: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            // The bytes are a Swift string's, valid UTF-8, and cut at ASCII quotes: they stay valid.
            case UInt8(ascii: "\""): return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { return nil }
                let escaped = bytes[position]
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                default: return nil
                }
            case 0..<0x20: return nil
            default: text.append(byte)
            }
        }
        return nil
    }

    /// An integer of at most 18 digits (no fraction, no exponent).
    private mutating func number() -> Value? {
        let negative = take(UInt8(ascii: "-"))
        var number = 0, digits = 0
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            number = number * 10 + Int(bytes[position] - UInt8(ascii: "0"))
            digits += 1
            position += 1
        }
        // JSON has no leading zeros; a fraction or an exponent is left to JSONDecoder.
        guard (1...18).contains(digits), digits == 1 || bytes[position - digits] != UInt8(ascii: "0") else { return nil }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") || bytes[position] | 0x20 == UInt8(ascii: "e") { return nil }
        return .number(negative ? -number : number)
    }

    private mutating func word(_ word: StaticString, _ value: Value) -> Value? {
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count else { return nil }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { return nil }
        position += count
        return value
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }
}

extension LocalDateTime {
    /// The fields year...nanosecond as read from JSON, unchecked, as the synthesized `Decodable`
    /// conformance takes them.
    fileprivate init(decoded fields: [Int]) {
        year = fields[0]; month = fields[1]; day = fields[2]
        hour = fields[3]; minute = fields[4]; second = fields[5]; nanosecond = fields[6]
    }
}
