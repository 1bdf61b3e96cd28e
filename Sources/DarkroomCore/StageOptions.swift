import Foundation

/// A stage's options: decoded and validated from the step's mapping in a pipeline file, and
/// encodable so the runner can hash them (the hash decides which work is stale).
///
/// `fields` documents every key; it is what `darkroom stages` prints, and decoding rejects any key
/// the decoder was not asked about (with the nearest valid name suggested).
public protocol StageOptions: Codable, Sendable {
    /// One entry per key, in the order they are documented.
    static var fields: [OptionField] { get }
}

/// The documentation of one option key.
public struct OptionField: Sendable, Equatable {
    public var key: String
    public var summary: String
    /// The default, as it would be written in YAML (empty when the option is required or has none).
    public var defaultValue: String

    public init(_ key: String, _ summary: String, default defaultValue: String = "") {
        self.key = key
        self.summary = summary
        self.defaultValue = defaultValue
    }
}

extension CodingUserInfoKey {
    /// The path of the file being decoded (the pipeline file, for a stage's options), so that an
    /// option naming another file (a collage template) can be read relative to it.
    public static let pipelineFile = CodingUserInfoKey(rawValue: "darkroom.pipelineFile")!
}

/// Options for a stage that takes none.
public struct NoOptions: StageOptions {
    public static let fields: [OptionField] = []
    public init() {}
    public init(from decoder: Decoder) throws { _ = try OptionsReader(decoder) }
}

/// A string-keyed coding key, for options whose keys are written in kebab-case.
public struct OptionKey: CodingKey, Hashable {
    public var stringValue: String
    public var intValue: Int? { nil }
    public init(_ string: String) { stringValue = string }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { return nil }
}

/// Reads options with defaults and range checks, producing errors that point at the key.
///
///     public init(from decoder: Decoder) throws {
///         let reader = try OptionsReader(decoder)
///         longEdge = try reader.value("long-edge", default: 2048, where: { $0 > 0 }, expected: "a positive integer")
///     }
public struct OptionsReader {
    private let container: KeyedDecodingContainer<OptionKey>
    public let codingPath: [CodingKey]

    public init(_ decoder: Decoder) throws {
        container = try decoder.container(keyedBy: OptionKey.self)
        codingPath = decoder.codingPath
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

    /// One of `names` at `key` (or `defaultValue`), suggesting the nearest when the value is not one of them.
    public func oneOf(_ key: String, _ names: [String], default defaultValue: String) throws -> String {
        let value = try optional(key, String.self) ?? defaultValue
        guard names.contains(value) else {
            var expected = "one of \(names.joined(separator: ", "))"
            if let near = Suggestion.nearest(to: value, in: names) { expected += " (did you mean '\(near)'?)" }
            throw invalid(key, expected: expected, got: "'\(value)'")
        }
        return value
    }

    /// A path template at `key` (or `defaultTemplate`), which may also use `extraFields`.
    public func template(_ key: String, default defaultTemplate: String, extraFields: [String] = []) throws -> PathTemplate {
        let text = try optional(key, String.self) ?? defaultTemplate
        do {
            return try PathTemplate(text, allowedFields: PathTemplate.fields + extraFields)
        } catch let error as TemplateError {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [OptionKey(key)], debugDescription: error.message))
        }
    }

    /// An error against `key`: "expected ..., got ...".
    public func invalid(_ key: String, expected: String, got: String) -> Error {
        DecodingError.dataCorrupted(.init(codingPath: codingPath + [OptionKey(key)],
                                          debugDescription: "expected \(expected), got \(got)"))
    }
}
