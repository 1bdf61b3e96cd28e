import Foundation

/// What a step's unit key is made of: each declared option of the step as its stage read it
/// (defaults included), under its name, as JSON. `OptionsReader` makes it while the stage reads
/// its options, so an option cannot be read and left out of the key; the runner hashes `json()`.
///
/// An optional option that is absent (nil) has no entry; an option declared
/// `keyedOnlyWhenNotDefault()` has none while it holds its default; a stage may put a value it makes
/// of several options, or the text of a file an option names, in place of what it read
/// (`OptionsReader.key(_:_:for:)`).
public struct OptionRecord: Sendable {
    /// The entries by name.
    var entries: [String: RecordedValue] = [:]

    /// The names in the record, sorted.
    public var names: [String] { entries.keys.sorted() }

    /// The record as a JSON object with its keys sorted: the bytes the step's options digest hashes.
    public func json() throws -> Data {
        try RecordedValue.encoder.encode(entries)
    }

    /// `json()` as text (tests compare it with what the hand-written encoders made).
    public func text() throws -> String {
        String(decoding: try json(), as: UTF8.self)
    }

    /// Runs `decode` (a stage's `Options(from:)`) and returns what it made with the record the
    /// declaring `OptionsReader` inside it finished with; nil when nothing was read through one.
    public static func recording<T>(_ decode: () throws -> T) throws -> (value: T, record: OptionRecord?) {
        let collector = Collector()
        let value = try $collector.withValue(collector) { try decode() }
        return (value, collector.record)
    }

    /// Where a declaring reader leaves its record, for the `recording` call around it.
    @TaskLocal static var collector: Collector?

    /// Holds the record of one `recording` call; written by the reader on the same thread, inside it.
    final class Collector: @unchecked Sendable {
        var record: OptionRecord?
    }
}

/// An option's value as it goes into the record: any `Encodable` value of an option (a `Sendable`
/// value, as `StageOption` requires), encoded as the value itself.
struct RecordedValue: Encodable, @unchecked Sendable {
    let value: any Encodable

    func encode(to encoder: Encoder) throws { try value.encode(to: encoder) }

    /// Sorted keys, as the digest has always been taken.
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// The value's JSON, to compare it with another's.
    var json: Data? { try? Self.encoder.encode([self]) }

    /// The value of an option as recorded: nil for an absent optional, else the value when it is
    /// `Encodable`, or its raw value (an enumeration's name, as `Codable` would write it);
    /// `.unencodable` when neither.
    static func of(_ value: Any) -> Recorded {
        guard let present = unwrap(value) else { return .absent }
        if let encodable = present as? any Encodable { return .value(RecordedValue(value: encodable)) }
        if let raw = (present as? any RawRepresentable)?.rawValue as? any Encodable { return .value(RecordedValue(value: raw)) }
        return .unencodable
    }

    enum Recorded {
        case absent
        case unencodable
        case value(RecordedValue)
    }
}

/// `value` without its optional wrapping; nil for an optional holding nothing.
func unwrap(_ value: Any) -> Any? {
    guard let optional = value as? any OptionalValue else { return value }
    return optional.wrapped.flatMap(unwrap)
}

/// Optionals of any type, to tell `.none` from a value in generic code.
protocol OptionalValue {
    var wrapped: Any? { get }
}

extension Optional: OptionalValue {
    var wrapped: Any? { self.map { $0 as Any } }
}

/// How a stage's options are named in its key.
public enum KeyNames: Sendable {
    /// As in the pipeline file (`long-edge`).
    case optionKeys
    /// In camel case (`longEdge`): the names the key of a stage has used since before it was made
    /// from the declarations (its options' Swift property names), so libraries keep their work.
    case camelCase

    /// The name of the option `key` in the record.
    func name(_ key: String) -> String {
        guard self == .camelCase else { return key }
        let words = key.split(separator: "-").map(String.init)
        return (words.first ?? "") + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
