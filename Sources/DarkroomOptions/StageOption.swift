import Foundation

/// What documentation needs to know of an option, whatever its type.
public protocol OptionDeclaration: Sendable {
    /// The key in the pipeline file (`long-edge`).
    var key: String { get }
    /// What the option does, in one or two sentences.
    var summary: String { get }
    /// The default, as it would be written in YAML (empty when there is none).
    var defaultText: String { get }
    /// The values it accepts (`a positive integer up to 65535`, `one of jpeg, webp`); also the
    /// "expected ..." of the error for a value it does not accept.
    var accepts: String { get }
}

/// One option of a stage, declared once: its key, type, default, accepted values and summary.
/// The declaration decodes the value (through `OptionsReader.read`), documents it (`darkroom
/// stages`, the README's tables) and names it in unknown-key suggestions, so they cannot drift.
///
///     static let longEdge = StageOption.integer("long-edge", default: 2048, in: 1...65_535,
///                                          "Longest side in pixels; smaller photos are left as they are.")
public struct StageOption<Value: Sendable>: OptionDeclaration {
    public let key: String
    public let summary: String
    public let defaultText: String
    public let accepts: String
    /// The value when the key is absent.
    public let defaultValue: Value
    /// Reads the key's value, nil when absent; throws `OptionRejection` or a decoding error.
    let decode: @Sendable (OptionsReader) throws -> Value?
    /// Whether the step's key holds the option while it has its default (see `keyedOnlyWhenNotDefault`).
    public private(set) var keyedWhenDefault = true

    /// This option, in the step's key only when its value is not the default: for an option added
    /// to a stage after libraries were made with it, so that they keep their work (a key with it
    /// at its default would differ from theirs, and every photo would be made again).
    public func keyedOnlyWhenNotDefault() -> StageOption {
        var option = self
        option.keyedWhenDefault = false
        return option
    }

    /// An option whose YAML value decodes as `Raw` and becomes a `Value` through `convert`, which
    /// returns nil for a value outside `accepts` (or throws `OptionRejection` to say why).
    public static func custom<Raw: Decodable & Sendable>(
        _ key: String, as raw: Raw.Type, default defaultValue: Value, shown defaultText: String,
        accepts: String, names: [String] = [], _ summary: String,
        convert: @escaping @Sendable (Raw) throws -> Value?
    ) -> StageOption {
        StageOption(key: key, summary: summary, defaultText: defaultText, accepts: accepts, defaultValue: defaultValue,
                    decode: { reader in
                        guard let raw = try reader.optional(key, Raw.self) else { return nil }
                        // For an optional value, `cond ? $0 : nil` converts to `.some(nil)`: a refusal too, never "not given".
                        guard let value = try convert(raw), !isAbsent(value) else { throw OptionRejection(got: Self.show(raw, near: names)) }
                        return value
                    })
    }

    /// A rejected YAML value as "got ..." shows it: strings quoted, with the nearest of `names`
    /// suggested; numbers and lists bare.
    static func show(_ raw: Any, near names: [String]) -> String {
        guard let text = raw as? String else { return "\(raw)" }
        guard let near = Suggestion.nearest(to: text, in: names) else { return "'\(text)'" }
        return "'\(text)' (did you mean '\(near)'?)"
    }
}

/// Why a value was not accepted: either the value as shown in "expected <accepts>, got <value>",
/// or a whole message of its own.
public struct OptionRejection: Error {
    public enum Reason: Sendable {
        case got(String)
        case message(String)
    }

    public var reason: Reason

    /// "expected <the option's accepts>, got <value>" (`value` as shown, with any suggestion).
    public init(got value: String) { reason = .got(value) }
    /// A message that says it all.
    public init(message: String) { reason = .message(message) }
}

extension StageOption where Value: Decodable {
    /// A value of YAML type `Value`, checked by `check` (nil: any value of the type).
    public static func value(_ key: String, default defaultValue: Value, shown defaultText: String? = nil,
                             accepts: String, where check: (@Sendable (Value) -> Bool)? = nil,
                             _ summary: String) -> StageOption {
        custom(key, as: Value.self, default: defaultValue, shown: defaultText ?? "\(defaultValue)",
               accepts: accepts, summary) { value in check.map { $0(value) ? value : nil } ?? value }
    }
}

extension StageOption where Value == Int {
    /// An integer in `range`.
    public static func integer(_ key: String, default defaultValue: Int, in range: ClosedRange<Int>,
                               shown defaultText: String? = nil, _ summary: String) -> StageOption {
        value(key, default: defaultValue, shown: defaultText, accepts: "an integer from \(range.lowerBound) to \(range.upperBound)",
              where: { range.contains($0) }, summary)
    }
}

extension StageOption where Value == Bool {
    /// `true` or `false`.
    public static func flag(_ key: String, default defaultValue: Bool, _ summary: String) -> StageOption {
        value(key, default: defaultValue, accepts: "true or false", summary)
    }
}

extension StageOption where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of an enumeration's raw values; a near miss gets "did you mean".
    public static func choice(_ key: String, default defaultValue: Value, _ summary: String) -> StageOption {
        let names = Value.allCases.map(\.rawValue)
        return custom(key, as: String.self, default: defaultValue, shown: defaultValue.rawValue,
                      accepts: "one of \(names.joined(separator: ", "))", names: names, summary) { Value(rawValue: $0) }
    }
}

extension StageOption where Value == String {
    /// One of `names`; a near miss gets "did you mean".
    public static func oneOf(_ key: String, _ names: [String], default defaultValue: String, _ summary: String) -> StageOption {
        custom(key, as: String.self, default: defaultValue, shown: defaultValue,
               accepts: "one of \(names.joined(separator: ", "))", names: names, summary) { names.contains($0) ? $0 : nil }
    }
}

extension StageOption where Value == PathTemplate {
    /// A path template inside the library, which may use `fields`.
    public static func template(_ key: String, default defaultText: String, shown: String? = nil,
                                fields: [String] = PathTemplate.fields, _ summary: String) -> StageOption {
        // The default is a literal of the stage's own: a typo in it stops every test that loads the stage.
        let defaultValue = try! PathTemplate(defaultText, allowedFields: fields)
        return custom(key, as: String.self, default: defaultValue, shown: shown ?? defaultText,
                      accepts: "a path template", summary) { text in
            do { return try PathTemplate(text, allowedFields: fields) }
            catch let error as TemplateError { throw OptionRejection(message: error.message) }
        }
    }
}

/// Whether `value` is an optional holding nothing (a converted value that was refused).
private func isAbsent(_ value: Any) -> Bool {
    guard let optional = value as? any OptionalValue else { return false }
    return optional.wrapped == nil
}
