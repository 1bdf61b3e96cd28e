import Foundation
import DarkroomModel

/// An output location inside the library, written in pipeline files as a template:
/// `Photos/{yyyy}/{MM}/{id}.heic`.
///
/// Fields: `{yyyy}` `{MM}` `{dd}` `{HH}` `{mm}` `{ss}` (the local capture time, zero-padded),
/// `{id}` (the photo's UUID), `{name}` (the original file name without extension, made safe),
/// `{ext}` (the original extension, lower case), `{dir}` (the folder below the input folder, each
/// part made safe; empty for files at the top). Date fields come only from validated integers;
/// the rendered path is relative, has no `..`, and is checked again against the library on publish.
public struct PathTemplate: Codable, Sendable, Hashable, CustomStringConvertible {
    public let template: String
    private let parts: [Part]

    enum Part: Hashable {
        case literal(String)
        case field(String)
    }

    /// Every field a template may use.
    public static let fields = ["yyyy", "MM", "dd", "HH", "mm", "ss", "id", "name", "ext", "dir"]

    /// The fields that come from the capture date.
    public static let dateFields: Set<String> = ["yyyy", "MM", "dd", "HH", "mm", "ss"]

    /// Whether the template uses any capture-date field.
    public var usesDateFields: Bool { !fieldsUsed.isDisjoint(with: PathTemplate.dateFields) }

    /// The fields the template uses.
    public var fieldsUsed: Set<String> {
        Set(parts.compactMap { if case .field(let name) = $0 { return name } else { return nil } })
    }

    /// Parses and checks a template; the error says what is wrong.
    public init(_ template: String, allowedFields: [String] = PathTemplate.fields) throws {
        self.template = template
        var parts: [Part] = []
        var literal = ""
        var rest = template[...]
        while let c = rest.popFirst() {
            if c == "{" {
                guard let end = rest.firstIndex(of: "}") else { throw TemplateError("unclosed '{' in '\(template)'") }
                let name = String(rest[rest.startIndex..<end])
                guard allowedFields.contains(name) else {
                    var message = "unknown field '{\(name)}' in '\(template)'"
                    if let near = Suggestion.nearest(to: name, in: allowedFields) { message += " (did you mean '{\(near)}'?)" }
                    else { message += "; fields: " + allowedFields.map { "{\($0)}" }.joined(separator: " ") }
                    throw TemplateError(message)
                }
                if !literal.isEmpty { parts.append(.literal(literal)); literal = "" }
                parts.append(.field(name))
                rest = rest[rest.index(after: end)...]
            } else if c == "}" {
                throw TemplateError("unmatched '}' in '\(template)'")
            } else {
                literal.append(c)
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        guard !template.isEmpty, !template.hasPrefix("/") else { throw TemplateError("must be a relative path inside the library, got '\(template)'") }
        let components = template.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else {
            throw TemplateError("may not contain empty, '.' or '..' folders, got '\(template)'")
        }
        guard case .some(let last) = components.last, !last.hasSuffix("}") || parts.count > 1 else {
            throw TemplateError("needs a file name, got '\(template)'")
        }
        self.parts = parts
    }

    /// Fills the template. `values` must hold every field the template uses; values are made safe
    /// for a single path component (no `/`, no leading dots, no control characters).
    public func render(_ values: [String: String]) throws -> String {
        var out = ""
        for part in parts {
            switch part {
            case .literal(let text): out += text
            case .field(let name):
                guard let value = values[name] else { throw TemplateError("'\(template)' needs {\(name)}, which this item does not have") }
                out += name == "dir" ? value.split(separator: "/").map { PathTemplate.sanitize(String($0)) }.joined(separator: "/")
                                     : PathTemplate.sanitize(value)
            }
        }
        // An empty {dir} leaves "a//b": fold it (a path with no empty folder is already as it would be).
        let bytes = out.utf8
        let slash = UInt8(ascii: "/")
        guard bytes.first == slash || bytes.last == slash || zip(bytes, bytes.dropFirst()).contains(where: { $0 == slash && $1 == slash }) else {
            return out
        }
        return out.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
    }

    /// `{yyyy}`...`{ss}` from a validated date (empty when there is none).
    public static func dateValues(_ date: LocalDateTime?) -> [String: String] {
        guard let d = date else { return [:] }
        return ["yyyy": d.year.zeroPadded(4), "MM": d.month.zeroPadded(2), "dd": d.day.zeroPadded(2), "HH": d.hour.zeroPadded(2),
                "mm": d.minute.zeroPadded(2), "ss": d.second.zeroPadded(2)]
    }

    /// The path this template gives the same item at another capture date: `path` must be what it
    /// rendered with the date `old` (nil when it is not, or when the template uses no date field).
    /// Every other field keeps the value it had in `path`, whatever filled it (`{size}`, a stage's
    /// own `{ext}`), so no stage needs to be asked again.
    public func redated(_ path: String, from old: LocalDateTime, to new: LocalDateTime) -> String? {
        guard usesDateFields else { return nil }
        let oldValues = PathTemplate.dateValues(old), newValues = PathTemplate.dateValues(new)
        var pattern = "^", dateFields: [String] = [], skipSlash = false
        for (index, part) in parts.enumerated() {
            switch part {
            case .literal(var text):
                if skipSlash { text.removeFirst(); skipSlash = false }
                pattern += NSRegularExpression.escapedPattern(for: text)
            case .field(let name) where PathTemplate.dateFields.contains(name):
                pattern += "(" + oldValues[name]! + ")"
                dateFields.append(name)
            case .field("dir"):
                // An empty {dir} folds its slash away ("Thumbnails/{dir}/x" gives "Thumbnails/x").
                if index + 1 < parts.count, case .literal(let next) = parts[index + 1], next.hasPrefix("/") {
                    pattern += "(?:.+/)?"
                    skipSlash = true
                } else {
                    pattern += ".*?"
                }
            case .field:
                pattern += ".*?"
            }
        }
        guard let expression = try? NSRegularExpression(pattern: pattern + "$"),
              let match = expression.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) else { return nil }
        // From the end, so that the ranges still to replace do not move.
        var result = path as NSString
        for (group, name) in dateFields.enumerated().sorted(by: { match.range(at: $0.0 + 1).location > match.range(at: $1.0 + 1).location }) {
            result = result.replacingCharacters(in: match.range(at: group + 1), with: newValues[name]!) as NSString
        }
        return result as String
    }

    /// One path component from an arbitrary string: separators, control characters and leading
    /// dots replaced, length capped.
    static func sanitize(_ value: String) -> String {
        // Printable ASCII without a slash, a backslash or a leading dot, and short enough, is safe as it is.
        let bytes = value.utf8
        if bytes.count <= 120, let first = bytes.first, first != UInt8(ascii: "."),
           bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "\\") }) {
            return value
        }
        var cleaned = String(value.unicodeScalars.map { scalar -> Character in
            if scalar == "/" || scalar == "\\" || scalar.properties.generalCategory == .control { return "_" }
            return Character(scalar)
        })
        while cleaned.hasPrefix(".") { cleaned = "_" + cleaned.dropFirst() }
        if cleaned.isEmpty { cleaned = "_" }
        return String(cleaned.prefix(120))
    }

    public var description: String { template }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(text) }
        catch let error as TemplateError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(template)
    }

    public static func == (a: PathTemplate, b: PathTemplate) -> Bool { a.template == b.template }
    public func hash(into hasher: inout Hasher) { hasher.combine(template) }
}

/// A malformed path template.
public struct TemplateError: Error, CustomStringConvertible {
    public var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
