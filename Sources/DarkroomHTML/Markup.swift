/// A piece of HTML that is safe to put in a page: built only from escaped text and elements whose
/// names and attribute names are the program's own, so no text from a file (a camera model, a path,
/// an EXIF comment) can ever become markup.
///
///     Markup.element("a", [.init("href", link)], [.text(cameraModel)])   // <a href="...">&lt;script&gt;...</a>
public struct Markup: Sendable, Hashable {
    /// The HTML source.
    public let html: String

    private init(trusted html: String) { self.html = html }

    /// Nothing.
    public static let empty = Markup(trusted: "")

    /// Text, escaped for an element's content (`&`, `<`, `>`; NUL becomes U+FFFD).
    public static func text(_ text: String) -> Markup { Markup(trusted: HTMLEscaping.text(text)) }

    /// An element with attributes and children: `<name a="v">children</name>`.
    public static func element(_ name: String, _ attributes: [Attribute] = [], _ children: [Markup] = []) -> Markup {
        precondition(HTMLEscaping.isName(name), "element name \(name) is not a plain HTML name")
        return Markup(trusted: "<\(name)\(render(attributes))>\(children.map(\.html).joined())</\(name)>")
    }

    /// An element with text content: `<name>escaped text</name>`.
    public static func element(_ name: String, _ attributes: [Attribute] = [], text: String) -> Markup {
        element(name, attributes, [.text(text)])
    }

    /// A void element, which has no content or end tag (`img`, `meta`, `link`, `br`).
    public static func void(_ name: String, _ attributes: [Attribute] = []) -> Markup {
        precondition(HTMLEscaping.isName(name), "element name \(name) is not a plain HTML name")
        return Markup(trusted: "<\(name)\(render(attributes))>")
    }

    /// Several pieces one after the other.
    public static func joined(_ parts: [Markup], separator: String = "") -> Markup {
        Markup(trusted: parts.map(\.html).joined(separator: separator))
    }

    /// The contents of a `<style>` or `<script>` element, which HTML does not unescape: the program's
    /// own CSS or JavaScript. Refuses text that could end the element early.
    static func rawText(_ source: String, closing element: String) -> Markup {
        precondition(!source.lowercased().contains("</\(element)"), "\(element) source contains its own end tag")
        return Markup(trusted: source)
    }

    private static func render(_ attributes: [Attribute]) -> String {
        attributes.map { attribute in
            guard let value = attribute.value else { return " \(attribute.name)" }
            return " \(attribute.name)=\"\(HTMLEscaping.attribute(value))\""
        }.joined()
    }
}

/// One attribute of an element; a nil value writes a boolean attribute (`hidden`).
public struct Attribute: Sendable, Hashable {
    public let name: String
    public let value: String?

    /// `name="value"` (the value escaped when written); nil for a boolean attribute.
    public init(_ name: String, _ value: String?) {
        precondition(HTMLEscaping.isName(name), "attribute name \(name) is not a plain HTML name")
        self.name = name
        self.value = value
    }

    /// `name="value"` for an integer.
    public init(_ name: String, _ value: Int) { self.init(name, String(value)) }

    /// `class="..."`.
    public static func `class`(_ names: String) -> Attribute { Attribute("class", names) }

    /// A boolean attribute (`hidden`, `controls`), present when `on`; nil otherwise.
    public static func flag(_ name: String, _ on: Bool = true) -> Attribute? { on ? Attribute(name, nil) : nil }
}

/// Escaping for the two places text goes in HTML.
public enum HTMLEscaping {
    /// For element content: `&` `<` `>` become references; NUL becomes U+FFFD.
    public static func text(_ text: String) -> String { escape(text, quotes: false) }

    /// For a quoted attribute value: also `"` and `'`, so the value cannot end its quotes.
    public static func attribute(_ text: String) -> String { escape(text, quotes: true) }

    private static func escape(_ text: String, quotes: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "'" where quotes: out += "&#39;"
            case "\u{0}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether `name` is a plain element or attribute name (lower-case letters, digits, `-`), as the
    /// program writes them: a name is never taken from data.
    static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
    }
}
