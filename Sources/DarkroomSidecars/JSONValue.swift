import Foundation

/// Any JSON value, decoded without a schema, so a field of an unexpected type is reported rather
/// than failing the whole document.
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// How deeply arrays and objects may nest: a Takeout JSON nests three levels.
    static let maximumDepth = 32

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses `data`, refusing nesting deeper than `maximumDepth` before decoding (decoding
    /// recurses once per level).
    static func parse(_ data: Data) throws -> JSONValue {
        if let depth = nestingDepth(data), depth > maximumDepth {
            throw SidecarError(reason: "JSON nested deeper than \(maximumDepth) levels")
        }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch let error as DecodingError {
            throw SidecarError(reason: "not valid JSON: \(Self.describe(error))")
        }
    }

    /// The deepest nesting of `[` and `{` outside strings; nil once it passes the maximum.
    private static func nestingDepth(_ data: Data) -> Int? {
        var depth = 0, deepest = 0, inString = false, escaped = false
        for byte in data {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
                if deepest > maximumDepth { return deepest }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context): return (context.underlyingError as NSError?)?.localizedDescription ?? context.debugDescription
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context): return context.debugDescription
        @unknown default: return String(describing: error)
        }
    }

    /// The member `key` of an object, or nil.
    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The value as text, for reports (`"0"`, `12.5`, `an object`).
    var shown: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .number(let value): return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value): return "\"\(value.prefix(40))\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
