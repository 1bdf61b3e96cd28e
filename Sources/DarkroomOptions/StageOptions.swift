import Foundation

/// A stage's options: declared once as a list of `StageOption`s, decoded and validated from the step's
/// mapping in a pipeline file through `OptionsReader`, which records each option's value as read
/// (`OptionRecord`): the runner hashes that record into the step's unit key, which decides which
/// work is stale. No stage encodes its options for the key itself.
///
/// The declarations are what `darkroom stages` and the README print; the reader refuses to read
/// an undeclared option or to leave a declared one unread, so the two cannot drift; and decoding
/// rejects any key that is not declared, with the nearest valid name suggested.
public protocol StageOptions: Decodable, Sendable {
    /// Every option, in the order they are documented.
    static var options: [any OptionDeclaration] { get }
}

extension CodingUserInfoKey {
    /// The path of the file being decoded (the pipeline file, for a stage's options), so that an
    /// option naming another file (a collage template) can be read relative to it.
    public static let pipelineFile = CodingUserInfoKey(rawValue: "darkroom.pipelineFile")!
}

/// Options for a stage that takes none.
public struct NoOptions: StageOptions {
    public static let options: [any OptionDeclaration] = []
    public init() {}
    public init(from decoder: Decoder) throws { try OptionsReader(decoder, declaring: Self.options).finish() }
}

/// A string-keyed coding key, for options whose keys are written in kebab-case.
public struct OptionKey: CodingKey, Hashable {
    public var stringValue: String
    public var intValue: Int? { nil }
    public init(_ string: String) { stringValue = string }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { return nil }
}

/// Reads a mapping of options. A stage's options are read through their declarations: every
/// problem in the mapping is collected (a bad value reads as its default so reading goes on) and
/// `finish()` reports them all at once, each pointing at its key.
///
///     public init(from decoder: Decoder) throws {
///         let reader = try OptionsReader(decoder, declaring: Self.options)
///         longEdge = reader.read(Self.longEdge)
///         colour = reader.read(Self.colour)
///         try reader.finish()
///     }
///
/// Nested file formats (collage templates) read keys directly with `value`, `optional` and
/// `choice`, which throw at the first problem.
public final class OptionsReader {
    private let container: KeyedDecodingContainer<OptionKey>
    public let codingPath: [CodingKey]
    /// The declared keys, or nil when the mapping is read without declarations.
    private let declared: [String]?
    private var keysRead: Set<String> = []
    private var problems: [(key: String, error: Error)] = []
    /// How options are named in the record.
    private let keyNames: KeyNames
    /// Each option's value as read, for the step's key.
    private var record = OptionRecord()
    /// The options whose value as read is in `record` under the given name, by key.
    private var recordedAs: [String: String] = [:]
    /// Options read whose value has no JSON form, by key: the stage must put one in the key itself.
    private var unencodable: Set<String> = []

    /// A reader of keys without declarations.
    public init(_ decoder: Decoder) throws {
        container = try decoder.container(keyedBy: OptionKey.self)
        codingPath = decoder.codingPath
        declared = nil
        keyNames = .optionKeys
    }

    /// A reader of declared options; `keyNames` names them in the step's key.
    public init(_ decoder: Decoder, declaring options: [any OptionDeclaration], keyNames: KeyNames = .optionKeys) throws {
        container = try decoder.container(keyedBy: OptionKey.self)
        codingPath = decoder.codingPath
        declared = options.map(\.key)
        self.keyNames = keyNames
    }

    /// The option's value, or its default when absent; a value it does not accept is recorded as
    /// a problem and reads as the default.
    public func read<Value>(_ option: StageOption<Value>) -> Value {
        read(option, default: option.defaultValue)
    }

    /// The value of `option`, refused (`reject`) when it is given where it does not apply (`applies`
    /// false: `fill` without `align`); `expected` says where it applies, `got` what stands in its way.
    public func read<Value>(_ option: StageOption<Value>, onlyIf applies: Bool, expected: String, got: String) -> Value {
        let value = read(option)
        if !applies, isGiven(option) { reject(option, expected: expected, got: got) }
        return value
    }

    /// The option's value, or `defaultValue` (which depends on other options) when absent; the value
    /// goes into the step's key.
    public func read<Value>(_ option: StageOption<Value>, default defaultValue: Value) -> Value {
        if let declared, !declared.contains(option.key) {
            problems.append((option.key, problem(option.key, "'\(option.key)' is read but not declared in the stage's options")))
        }
        keysRead.insert(option.key)
        do {
            let value = try option.decode(self) ?? defaultValue
            note(option, value)
            return value
        } catch let rejection as OptionRejection {
            switch rejection.reason {
            case .message(let message):
                problems.append((option.key, problem(option.key, message)))
            case .got(let got):
                problems.append((option.key, problem(option.key, "expected \(option.accepts), got \(got)")))
            }
        } catch {
            problems.append((option.key, error))
        }
        return defaultValue
    }

    /// Puts the value as read of `option` in the record, under its name.
    private func note<Value>(_ option: StageOption<Value>, _ value: Value) {
        let name = keyNames.name(option.key)
        recordedAs[option.key] = name
        switch RecordedValue.of(value) {
        case .absent:
            record.entries[name] = nil
        case .unencodable:
            unencodable.insert(option.key)
        case .value(let recorded):
            if !option.keyedWhenDefault, case .value(let standard) = RecordedValue.of(option.defaultValue), recorded.json == standard.json {
                record.entries[name] = nil
            } else {
                record.entries[name] = recorded
            }
        }
    }

    /// Puts `value` in the step's key under `name`, in place of `options` as read: what the step
    /// makes of several options together (a thumbnail's sizes from `size` or `sizes`), a value made
    /// canonical (a crop that has no effect under `fit` as its default), or the text of a file an
    /// option names. A nil value leaves the options out: they have no effect given the others.
    /// Several calls may stand in for the same options.
    public func key(_ name: String, _ value: (any Encodable)?, for options: any OptionDeclaration...) {
        for option in options {
            unencodable.remove(option.key)
            if let recorded = recordedAs.removeValue(forKey: option.key) { record.entries[recorded] = nil }
        }
        if let value { record.entries[name] = RecordedValue(value: value) }
    }

    /// Whether the mapping gives the option a value.
    public func isGiven(_ option: any OptionDeclaration) -> Bool {
        (try? container.decodeNil(forKey: OptionKey(option.key))) == false
    }

    /// Records that the option's value does not fit with the others: "expected ..., got ...".
    /// Nothing is added when the option's own value was already rejected.
    public func reject(_ option: any OptionDeclaration, expected: String, got: String) {
        guard !problems.contains(where: { $0.key == option.key }) else { return }
        problems.append((option.key, problem(option.key, "expected \(expected), got \(got)")))
    }

    /// Records a problem unless the path template's file name ends in one of `extensions` (any
    /// case); `why` says what asks for it (`for format jpeg`).
    public func requireExtension(_ option: StageOption<PathTemplate>, of template: PathTemplate, in extensions: [String],
                                 why: String? = nil) {
        let ext = (template.template as NSString).pathExtension.lowercased()
        guard !extensions.contains(ext) else { return }
        reject(option, expected: "a file name ending in .\(extensions[0])" + (why.map { " \($0)" } ?? ""), got: "'\(template.template)'")
    }

    /// Throws every problem recorded, as `OptionProblems`; also a declared option never read, and one
    /// read whose value has no JSON form for the key that the stage did not `key` itself. Otherwise
    /// the record of a declaring reader goes to the `OptionRecord.recording` around it.
    public func finish() throws {
        for key in declared ?? [] where !keysRead.contains(key) {
            problems.append((key, problem(key, "'\(key)' is declared but the stage never reads it")))
        }
        for key in unencodable.sorted() {
            problems.append((key, problem(key, "'\(key)' has no form for the step's key: the stage must give one with key(_:_:for:)")))
        }
        if !problems.isEmpty { throw OptionProblems(errors: problems.map(\.error)) }
        if declared != nil { OptionRecord.collector?.record = record }
    }

    private func problem(_ key: String, _ message: String) -> Error {
        DecodingError.dataCorrupted(.init(codingPath: codingPath + [OptionKey(key)], debugDescription: message))
    }

    /// The value at `key`, or `defaultValue` when the key is absent; `check` rejects values with
    /// "expected <expected>, got <value>".
    public func value<T: Decodable>(_ key: String, default defaultValue: T,
                                    where check: ((T) -> Bool)? = nil, expected: String = "") throws -> T {
        guard let value = try optional(key, T.self) else { return defaultValue }
        if let check, !check(value) { throw invalid(key, expected: expected, got: "\(value)") }
        return value
    }

    /// The value at `key`, or nil when absent.
    public func optional<T: Decodable>(_ key: String, _ type: T.Type = T.self,
                                       where check: ((T) -> Bool)? = nil, expected: String = "") throws -> T? {
        guard let value = try container.decodeIfPresent(T.self, forKey: OptionKey(key)) else { return nil }
        if let check, !check(value) { throw invalid(key, expected: expected, got: "\(value)") }
        return value
    }

    /// The value at `key`, which must be present.
    public func required<T: Decodable>(_ key: String, _ type: T.Type = T.self) throws -> T {
        guard let value = try optional(key, T.self) else {
            throw DecodingError.keyNotFound(OptionKey(key), .init(codingPath: codingPath,
                                                                  debugDescription: "missing required key '\(key)'"))
        }
        return value
    }

    /// One of an enumeration's raw values, suggesting the nearest when the value is not one of them.
    public func choice<T: RawRepresentable & CaseIterable>(_ key: String, default defaultValue: T) throws -> T
    where T.RawValue == String {
        guard let raw = try optional(key, String.self) else { return defaultValue }
        if let value = T(rawValue: raw) { return value }
        let names = T.allCases.map(\.rawValue)
        var message = "expected one of \(names.joined(separator: ", ")), got '\(raw)'"
        if let near = Suggestion.nearest(to: raw, in: names) { message += " (did you mean '\(near)'?)" }
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [OptionKey(key)], debugDescription: message))
    }

    /// An error against `key`: "expected ..., got ...".
    public func invalid(_ key: String, expected: String, got: String) -> Error {
        DecodingError.dataCorrupted(.init(codingPath: codingPath + [OptionKey(key)],
                                          debugDescription: "expected \(expected), got \(got)"))
    }
}

/// Every problem found in one mapping of options, reported together.
public struct OptionProblems: Error {
    public var errors: [Error]
}
