import Foundation

/// Writes every field of an `Encodable` value (nested values, arrays, optionals) as one flat line of
/// text, in the order the value encodes them: a stable account of the value across runs and
/// machines (Swift's own hashing is seeded per process), much cheaper than JSON. Strings carry
/// their length, so no two different values give the same line.
///
///     DigestEncoder.line(of: entry)   // "{id=36:1f0c...;kind=5:photo;date={local={year=2024;...}}...}"
struct DigestEncoder: Encoder {
    /// The text written so far, shared by the containers of one value. Each piece is appended as it
    /// is (a month page's digest writes a few hundred pieces a photo: no piece is made into a string first).
    final class Sink {
        var text = ""

        /// A string as written: its length in bytes, then its bytes.
        func string(_ string: String) {
            text += String(string.utf8.count)
            text += ":"
            text += string
        }

        /// `key=` then `value`, then `;`.
        func field(_ key: String, _ value: () -> Void) {
            text += key
            text += "="
            value()
            text += ";"
        }
    }

    let sink: Sink
    var codingPath: [CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The line that describes `value`.
    static func line(of value: some Encodable) -> String {
        let sink = Sink()
        // Encoding into this sink cannot fail: nothing here throws.
        try? value.encode(to: DigestEncoder(sink: sink))
        return sink.text
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed<Key>(sink: sink))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer { Unkeyed(sink: sink) }

    func singleValueContainer() -> SingleValueEncodingContainer { Single(sink: sink) }

    /// Writes one value after what the sink holds: nested values in braces, lists in brackets.
    fileprivate static func write<T: Encodable>(_ value: T, to sink: Sink) {
        // A nested value is told by its type's identity, without a cast (a month page's digest meets a
        // few hundred values a photo: five failed casts each, one of them to `any BinaryInteger`, were
        // a fifth of its time).
        guard plainTypes.contains(ObjectIdentifier(T.self)) else {
            sink.text += "{"
            try? value.encode(to: DigestEncoder(sink: sink))
            sink.text += "}"
            return
        }
        switch value {
        case let string as String: sink.string(string)
        case let bool as Bool: sink.text += bool ? "t" : "f"
        case let number as any BinaryInteger: sink.text += "\(number)"
        case let number as Double: sink.text += "\(number)"
        case let number as Float: sink.text += "\(number)"
        default: break
        }
    }

    /// The types written as they are rather than as nested values.
    private static let plainTypes: Set<ObjectIdentifier> = [
        ObjectIdentifier(String.self), ObjectIdentifier(Bool.self), ObjectIdentifier(Double.self), ObjectIdentifier(Float.self),
        ObjectIdentifier(Int.self), ObjectIdentifier(Int8.self), ObjectIdentifier(Int16.self), ObjectIdentifier(Int32.self),
        ObjectIdentifier(Int64.self), ObjectIdentifier(UInt.self), ObjectIdentifier(UInt8.self), ObjectIdentifier(UInt16.self),
        ObjectIdentifier(UInt32.self), ObjectIdentifier(UInt64.self),
    ]

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let sink: Sink
        var codingPath: [CodingKey] { [] }

        func encodeNil(forKey key: Key) { plain("nil", key) }
        func encode(_ value: Bool, forKey key: Key) { plain(value ? "t" : "f", key) }
        func encode(_ value: String, forKey key: Key) { sink.field(key.stringValue) { sink.string(value) } }
        func encode(_ value: Double, forKey key: Key) { plain("\(value)", key) }
        func encode(_ value: Float, forKey key: Key) { plain("\(value)", key) }
        func encode(_ value: Int, forKey key: Key) { plain("\(value)", key) }
        func encode(_ value: Int8, forKey key: Key) { plain("\(value)", key) }
        func encode(_ value: Int16, forKey key: Key) { plain("\(value)", key) }
        func encode(_ value: Int32, forKey key: Key) { plain("\(value)", key) }
        func encode(_ value: Int64, forKey key: Key) { plain("\(value)", key) }
        func encode(_ value: UInt, forKey key: Key) { plain("\(value)", key) }
        func encode(_ value: UInt8, forKey key: Key) { plain("\(value)", key) }
        func encode(_ value: UInt16, forKey key: Key) { plain("\(value)", key) }
        func encode(_ value: UInt32, forKey key: Key) { plain("\(value)", key) }
        func encode(_ value: UInt64, forKey key: Key) { plain("\(value)", key) }
        func encode<T: Encodable>(_ value: T, forKey key: Key) { put(value, key) }
        // An absent optional writes nothing, as the protocol's own versions do; a present one goes
        // straight to its plain `encode`, not through the generic one.
        func encodeIfPresent(_ value: String?, forKey key: Key) { if let value { encode(value, forKey: key) } }
        func encodeIfPresent(_ value: Bool?, forKey key: Key) { if let value { encode(value, forKey: key) } }
        func encodeIfPresent(_ value: Int?, forKey key: Key) { if let value { encode(value, forKey: key) } }
        func encodeIfPresent(_ value: Int64?, forKey key: Key) { if let value { encode(value, forKey: key) } }
        func encodeIfPresent(_ value: Double?, forKey key: Key) { if let value { encode(value, forKey: key) } }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            sink.text += "\(key.stringValue)=;"
            return KeyedEncodingContainer(Keyed<NestedKey>(sink: sink))
        }

        func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
            sink.text += "\(key.stringValue)=;"
            return Unkeyed(sink: sink)
        }

        func superEncoder() -> Encoder { DigestEncoder(sink: sink) }
        func superEncoder(forKey key: Key) -> Encoder { DigestEncoder(sink: sink) }

        private func plain(_ text: String, _ key: Key) {
            sink.field(key.stringValue) { sink.text += text }
        }

        private func put(_ value: some Encodable, _ key: Key) {
            sink.field(key.stringValue) { DigestEncoder.write(value, to: sink) }
        }
    }

    private final class Unkeyed: UnkeyedEncodingContainer {
        let sink: Sink
        var codingPath: [CodingKey] { [] }
        private(set) var count = 0

        init(sink: Sink) {
            self.sink = sink
            sink.text += "["
        }

        func encodeNil() { count += 1; sink.text += "nil," }
        func encode(_ value: Bool) { plain(value ? "t" : "f") }
        func encode(_ value: String) { count += 1; sink.string(value); sink.text += "," }
        func encode(_ value: Double) { plain("\(value)") }
        func encode(_ value: Float) { plain("\(value)") }
        func encode(_ value: Int) { plain("\(value)") }
        func encode(_ value: Int8) { plain("\(value)") }
        func encode(_ value: Int16) { plain("\(value)") }
        func encode(_ value: Int32) { plain("\(value)") }
        func encode(_ value: Int64) { plain("\(value)") }
        func encode(_ value: UInt) { plain("\(value)") }
        func encode(_ value: UInt8) { plain("\(value)") }
        func encode(_ value: UInt16) { plain("\(value)") }
        func encode(_ value: UInt32) { plain("\(value)") }
        func encode(_ value: UInt64) { plain("\(value)") }
        private func plain(_ text: String) { count += 1; sink.text += text; sink.text += "," }
        func encode<T: Encodable>(_ value: T) {
            count += 1
            DigestEncoder.write(value, to: sink)
            sink.text += ","
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            count += 1
            return KeyedEncodingContainer(Keyed<NestedKey>(sink: sink))
        }

        func nestedUnkeyedContainer() -> UnkeyedEncodingContainer { count += 1; return Unkeyed(sink: sink) }
        func superEncoder() -> Encoder { DigestEncoder(sink: sink) }
    }

    private struct Single: SingleValueEncodingContainer {
        let sink: Sink
        var codingPath: [CodingKey] { [] }

        func encodeNil() { sink.text += "nil" }
        func encode(_ value: Bool) { sink.text += value ? "t" : "f" }
        func encode(_ value: String) { sink.string(value) }
        func encode(_ value: Double) { sink.text += "\(value)" }
        func encode(_ value: Float) { sink.text += "\(value)" }
        func encode(_ value: Int) { sink.text += "\(value)" }
        func encode(_ value: Int8) { sink.text += "\(value)" }
        func encode(_ value: Int16) { sink.text += "\(value)" }
        func encode(_ value: Int32) { sink.text += "\(value)" }
        func encode(_ value: Int64) { sink.text += "\(value)" }
        func encode(_ value: UInt) { sink.text += "\(value)" }
        func encode(_ value: UInt8) { sink.text += "\(value)" }
        func encode(_ value: UInt16) { sink.text += "\(value)" }
        func encode(_ value: UInt32) { sink.text += "\(value)" }
        func encode(_ value: UInt64) { sink.text += "\(value)" }
        func encode<T: Encodable>(_ value: T) { DigestEncoder.write(value, to: sink) }
    }
}
