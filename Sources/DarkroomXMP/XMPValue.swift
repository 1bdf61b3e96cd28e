/// A property's name: its namespace URI and local name (`http://ns.adobe.com/xap/1.0/`, `Rating`).
/// Prefixes are the writer's choice and play no part in a name.
public struct XMPName: Hashable, Sendable, CustomStringConvertible {
    /// The namespace URI.
    public var namespace: String
    /// The local name, after the prefix's colon.
    public var local: String

    /// The name `local` in `namespace`.
    public init(_ namespace: String, _ local: String) {
        self.namespace = namespace
        self.local = local
    }

    /// `xmp:Rating`, with the customary prefix (or the namespace URI when it has none).
    public var description: String { "\(XMPNamespace.preferredPrefix(for: namespace) ?? namespace):\(local)" }
}

/// One property, top-level or a field of a structure.
public struct XMPProperty: Hashable, Sendable {
    /// Its name.
    public var name: XMPName
    /// Its value.
    public var value: XMPValue

    /// A property named `name` holding `value`.
    public init(_ name: XMPName, _ value: XMPValue) {
        self.name = name
        self.value = value
    }
}

/// The three kinds of XMP array: unordered (`rdf:Bag`), ordered (`rdf:Seq`), alternatives such as
/// a title in several languages (`rdf:Alt`).
public enum XMPArrayKind: String, Hashable, Sendable {
    /// `rdf:Bag`: an unordered set (keywords).
    case bag = "Bag"
    /// `rdf:Seq`: an ordered list (authors, history).
    case seq = "Seq"
    /// `rdf:Alt`: alternatives, one chosen (`x-default` of a language alternative).
    case alt = "Alt"
}

/// The value of an XMP property, as RDF/XML can write it.
public indirect enum XMPValue: Hashable, Sendable {
    /// Text, with its `xml:lang` when it has one (the items of a language alternative do).
    case text(String, language: String? = nil)
    /// A URI given as `rdf:resource`.
    case uri(String)
    /// A Bag, Seq or Alt of values.
    case array(XMPArrayKind, [XMPValue])
    /// Named fields (`rdf:parseType="Resource"`, a nested `rdf:Description` or attribute shorthand).
    /// A field named `rdf:value` makes it a qualified value whose text is that field.
    case structure([XMPProperty])

    /// The text a person means by this value: the text itself, a URI, the `x-default` (else first)
    /// item of an Alt, the first item of a Bag or Seq, or the `rdf:value` of a qualified value.
    public var text: String? {
        switch self {
        case .text(let text, _): return text
        case .uri(let uri): return uri
        case .array(.alt, let items):
            return (items.first { $0.language?.lowercased() == "x-default" } ?? items.first)?.text
        case .array(_, let items): return items.first?.text
        case .structure: return self[XMPName(XMPNamespace.rdf, "value")]?.text
        }
    }

    /// The texts of an array's items in order, or this value's text alone.
    public var texts: [String] {
        if case .array(_, let items) = self { return items.compactMap(\.text) }
        return text.map { [$0] } ?? []
    }

    /// The items of an array; empty for any other value.
    public var items: [XMPValue] {
        if case .array(_, let items) = self { return items }
        return []
    }

    /// The `xml:lang` of a text value.
    public var language: String? {
        if case .text(_, let language) = self { return language }
        return nil
    }

    /// The field `name` of a structure; nil for any other value.
    public subscript(field: XMPName) -> XMPValue? {
        if case .structure(let fields) = self { return fields.first { $0.name == field }?.value }
        return nil
    }
}
