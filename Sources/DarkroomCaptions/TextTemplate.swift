import Foundation
import DarkroomModel
import DarkroomOptions

/// Caption text as written in a template or the `title` option: fixed text with placeholders.
///
/// - `{date}` the photo's capture date in the stage's `date-format` (`{date:MMMM yyyy}` for another
///   format, Unicode date patterns); on a canvas caption, the first photo's date.
/// - `{first-date}`, `{last-date}` the collage's first and last capture dates (same `:format` rule).
/// - `{dates}` the range, `15 Mar – 2 Apr 2024` style (one date when all photos share it).
/// - `{n}` the photo's number in the collage (1-based); `{count}` how many photos it holds.
/// - `{title}` the stage's `title` option.
///
/// A photo without a capture date gives an empty date; a caption that comes out empty is not drawn.
public struct TextTemplate: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The text as written.
    public let text: String
    let parts: [Part]

    enum Part: Hashable {
        case literal(String)
        case field(Field, format: String?)
    }

    enum Field: String, CaseIterable {
        case date, firstDate = "first-date", lastDate = "last-date", dates, n, count, title
    }

    /// Parses `text`; the error names the unknown placeholder and the nearest known one.
    public init(_ text: String, allowTitle: Bool = true) throws {
        self.text = text
        var parts: [Part] = []
        var literal = ""
        var rest = text[...]
        while let c = rest.popFirst() {
            guard c == "{" else {
                if c == "}" { throw TemplateTextError("unmatched '}' in '\(text)'") }
                literal.append(c)
                continue
            }
            guard let end = rest.firstIndex(of: "}") else { throw TemplateTextError("unclosed '{' in '\(text)'") }
            let body = rest[rest.startIndex..<end]
            rest = rest[rest.index(after: end)...]
            let name = String(body.prefix { $0 != ":" })
            let format = body.contains(":") ? String(body.drop { $0 != ":" }.dropFirst()) : nil
            let names = Field.allCases.map(\.rawValue).filter { allowTitle || $0 != "title" }
            guard let field = Field(rawValue: name), names.contains(name) else {
                var message = "unknown placeholder '{\(name)}' in '\(text)'"
                if let near = Suggestion.nearest(to: name, in: names) { message += " (did you mean '{\(near)}'?)" }
                else { message += "; placeholders: " + names.map { "{\($0)}" }.joined(separator: " ") }
                throw TemplateTextError(message)
            }
            if format != nil, ![.date, .firstDate, .lastDate, .dates].contains(field) {
                throw TemplateTextError("'{\(name)}' takes no format, in '\(text)'")
            }
            if format?.isEmpty == true { throw TemplateTextError("empty date format in '{\(body)}'") }
            if !literal.isEmpty { parts.append(.literal(literal)); literal = "" }
            parts.append(.field(field, format: format))
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// Whether the text has no placeholders.
    package var isFixed: Bool { parts.allSatisfy { if case .literal = $0 { return true } else { return false } } }

    /// The text with every placeholder filled from `values`.
    package func render(_ values: CaptionValues) -> String {
        parts.map { part -> String in
            switch part {
            case .literal(let text): return text
            case .field(let field, let format):
                let dateFormat = format.map(DateText.init(pattern:)) ?? values.dateFormat
                switch field {
                case .date: return values.date.map(dateFormat.string) ?? ""
                case .firstDate: return values.firstDate.map(dateFormat.string) ?? ""
                case .lastDate: return values.lastDate.map(dateFormat.string) ?? ""
                case .dates: return dateFormat.range(values.firstDate, values.lastDate)
                case .n: return values.number.map(String.init) ?? ""
                case .count: return String(values.count)
                case .title: return values.title
                }
            }
        }.joined()
    }

    /// The text with its placeholders filled, for a stage other than the collage (a photo book's
    /// title and captions): `{date}` from `date`, `{first-date}`, `{last-date}` and `{dates}` from
    /// `first` and `last`, `{n}` from `number`, `{count}`, `{title}` from `title`; dates in
    /// `dateFormat` unless a placeholder gives its own.
    public func filled(date: LocalDateTime? = nil, first: LocalDateTime?, last: LocalDateTime?, number: Int? = nil, count: Int,
                       title: String = "", dateFormat: String) -> String {
        render(CaptionValues(date: date, firstDate: first, lastDate: last, number: number, count: count, title: title,
                             dateFormat: DateText(pattern: dateFormat)))
    }

    public var description: String { text }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(text) } catch let error as TemplateTextError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    public static func == (a: TextTemplate, b: TextTemplate) -> Bool { a.text == b.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

/// What placeholders are filled from, for one caption.
package struct CaptionValues {
    package var date: LocalDateTime?
    package var firstDate: LocalDateTime?
    package var lastDate: LocalDateTime?
    package var number: Int?
    package var count: Int
    package var title: String
    package var dateFormat: DateText

    package init(date: LocalDateTime?, firstDate: LocalDateTime?, lastDate: LocalDateTime?, number: Int?, count: Int, title: String,
                 dateFormat: DateText) {
        self.date = date; self.firstDate = firstDate; self.lastDate = lastDate; self.number = number; self.count = count
        self.title = title; self.dateFormat = dateFormat
    }
}

/// A malformed caption text.
public struct TemplateTextError: Error, CustomStringConvertible {
    public var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
