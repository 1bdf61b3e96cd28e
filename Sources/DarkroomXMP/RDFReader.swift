/// Reads XMP properties from the RDF/XML element tree of a packet, in every form XMP allows:
/// simple values as attributes of `rdf:Description` or as elements, arrays (`rdf:Bag`, `rdf:Seq`,
/// `rdf:Alt` of `rdf:li`), structures (`rdf:parseType="Resource"`, a nested `rdf:Description`,
/// attributes on the property element), qualified values (`rdf:value`) and `rdf:resource` URIs.
/// Elements without a namespace are passed over.
enum RDFReader {
    private static let rdf = XMPNamespace.rdf

    /// The top-level properties of the `rdf:Description` elements under `rdf:RDF`, in document
    /// order; a property named twice keeps its first value. Without an `rdf:RDF` element, strict
    /// reading throws and lenient reading takes the outermost `rdf:Description` elements instead.
    static func properties(in roots: [XMLElement], strict: Bool) throws -> (properties: [XMPProperty], prefixes: [String: String]) {
        let rdfElements = outermost(roots, where: { $0.name.is(rdf, "RDF") })
        var descriptions = rdfElements.flatMap { $0.children.filter(isDescription) }
        if rdfElements.isEmpty {
            if strict { throw XMPError(reason: "no rdf:RDF element: not an XMP packet") }
            descriptions = outermost(roots, where: isDescription)
        }
        var properties: [XMPProperty] = []
        var seen = Set<XMPName>()
        for property in descriptions.flatMap(fields(of:)) where seen.insert(property.name).inserted {
            properties.append(property)
        }
        var prefixes: [String: String] = [:]
        collectPrefixes(roots, into: &prefixes)
        return (properties, prefixes)
    }

    /// The outermost elements (of `roots` and their descendants) that satisfy `test`.
    private static func outermost(_ roots: [XMLElement], where test: (XMLElement) -> Bool) -> [XMLElement] {
        var found: [XMLElement] = []
        var pending = roots[...]
        while let element = pending.popFirst() {
            if test(element) { found.append(element) } else { pending.append(contentsOf: element.children) }
        }
        return found
    }

    private static func isDescription(_ element: XMLElement) -> Bool { element.name.is(rdf, "Description") }

    /// The properties an element holds as attributes and child elements.
    private static func fields(of element: XMLElement) -> [XMPProperty] {
        let attributes = element.attributes.compactMap { attribute -> XMPProperty? in
            guard isPropertyName(attribute.name) else { return nil }
            return XMPProperty(XMPName(attribute.name.namespace, attribute.name.local), .text(attribute.value))
        }
        let children = element.children.compactMap { child -> XMPProperty? in
            guard !child.name.namespace.isEmpty else { return nil }
            return XMPProperty(XMPName(child.name.namespace, child.name.local), value(of: child))
        }
        return attributes + children
    }

    /// An attribute that is a property rather than RDF or XML syntax (`rdf:value` is a property).
    private static func isPropertyName(_ name: XMLName) -> Bool {
        guard !name.namespace.isEmpty, name.namespace != XMPNamespace.xml else { return false }
        return name.namespace != rdf || name.local == "value"
    }

    /// The value of a property element (or of an `rdf:li`).
    static func value(of element: XMLElement) -> XMPValue {
        if let resource = element.attribute(rdf, "resource") { return .uri(resource) }
        if element.attribute(rdf, "parseType") == "Resource" { return .structure(fields(of: element)) }
        if let first = element.children.first {
            if first.name.namespace == rdf, let kind = XMPArrayKind(rawValue: first.name.local) {
                return .array(kind, first.children.filter { $0.name.is(rdf, "li") }.map(value(of:)))
            }
            if isDescription(first) { return .structure(fields(of: first)) }
            return .structure(fields(of: element))  // property elements directly inside: read as a structure
        }
        if element.attributes.contains(where: { isPropertyName($0.name) }) { return .structure(fields(of: element)) }
        return .text(element.text, language: element.attribute(XMPNamespace.xml, "lang"))
    }

    /// The prefix each namespace was first written with, over the whole tree.
    private static func collectPrefixes(_ roots: [XMLElement], into prefixes: inout [String: String]) {
        var pending = roots[...]
        while let element = pending.popFirst() {
            for name in [element.name] + element.attributes.map(\.name) where !name.namespace.isEmpty && !name.prefix.isEmpty {
                if prefixes[name.namespace] == nil { prefixes[name.namespace] = name.prefix }
            }
            pending.append(contentsOf: element.children)
        }
    }
}
