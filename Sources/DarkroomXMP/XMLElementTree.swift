/// A name resolved against the namespace declarations in scope: its namespace URI ("" when it has
/// none) and local part, with the prefix it was written with.
struct XMLName: Equatable {
    var namespace: String
    var local: String
    var prefix: String

    func `is`(_ namespace: String, _ local: String) -> Bool { self.namespace == namespace && self.local == local }
}

/// One element of a parsed document: its attributes, child elements and character data.
struct XMLElement {
    var name: XMLName
    var attributes: [(name: XMLName, value: String)] = []
    var children: [XMLElement] = []
    var text = ""

    func attribute(_ namespace: String, _ local: String) -> String? {
        attributes.first { $0.name.is(namespace, local) }?.value
    }
}

/// Builds the element tree of a document from `XMLTokens`, resolving every name to its namespace.
///
/// Strict mode throws `XMPError` at the first well-formedness problem (a tag closed out of order,
/// an undeclared prefix, a document that ends inside an element, a malformed tag). Lenient mode
/// keeps what it read: mismatched end tags close up to their element, unclosed elements are closed
/// at the end, names with undeclared prefixes get no namespace. Both refuse nesting deeper than
/// `maximumDepth` and more than `maximumElements` elements, so a hostile packet cannot exhaust the
/// stack or memory.
struct XMLElementTree {
    static let maximumDepth = 64
    static let maximumElements = 250_000

    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    /// The top-level elements of `bytes`.
    static func parse(_ bytes: [UInt8], strict: Bool) throws -> [XMLElement] {
        var builder = XMLElementTree(strict: strict)
        var tokenizer = XMLTokens.Tokenizer(bytes)
        while let token = tokenizer.next() {
            guard try builder.read(token) else { break }
        }
        if strict, let error = tokenizer.error {
            throw XMPError(reason: error.reason, offset: error.offset)
        }
        return try builder.finish()
    }

    private let strict: Bool
    private var open: [(element: XMLElement, qualifiedName: String, scope: [String: String])] = []
    private var roots: [XMLElement] = []
    private var elementCount = 0

    private init(strict: Bool) { self.strict = strict }

    /// Takes one token; false when lenient reading must stop here.
    private mutating func read(_ token: XMLTokens.Token) throws -> Bool {
        switch token {
        case .start(let qualifiedName, let attributes):
            elementCount += 1
            guard open.count < Self.maximumDepth else { return try refuse("elements nested deeper than \(Self.maximumDepth) levels") }
            guard elementCount <= Self.maximumElements else { return try refuse("more than \(Self.maximumElements) elements") }
            guard Self.isName(qualifiedName) else { return try refuse("<\(qualifiedName)> is not a valid element name") }
            var scope = open.last?.scope ?? ["xml": Self.xmlNamespace]
            for attribute in attributes where Self.isDeclaration(attribute.name) {
                scope[attribute.name == "xmlns" ? "" : String(attribute.name.dropFirst(6))] = attribute.value
            }
            var element = XMLElement(name: try resolve(qualifiedName, scope: scope, isAttribute: false))
            for attribute in attributes where !Self.isDeclaration(attribute.name) {
                guard Self.isName(attribute.name) else { return try refuse("in <\(qualifiedName)>, \(attribute.name) is not a valid attribute name") }
                element.attributes.append((try resolve(attribute.name, scope: scope, isAttribute: true), attribute.value))
            }
            open.append((element, qualifiedName, scope))
        case .text(let characters):
            if !open.isEmpty { open[open.count - 1].element.text += characters }
        case .end(let qualifiedName):
            guard let depth = open.lastIndex(where: { $0.qualifiedName == qualifiedName }) else {
                if strict { throw XMPError(reason: "</\(qualifiedName)> closes no open element") }
                return true
            }
            if strict, depth != open.count - 1 {
                throw XMPError(reason: "</\(qualifiedName)> closes <\(qualifiedName)> while <\(open[open.count - 1].qualifiedName)> is still open")
            }
            while open.count > depth { close() }
        }
        return true
    }

    private mutating func refuse(_ reason: String) throws -> Bool {
        if strict { throw XMPError(reason: reason) }
        return false
    }

    private mutating func close() {
        let finished = open.removeLast().element
        if open.isEmpty {
            roots.append(finished)
        } else {
            open[open.count - 1].element.children.append(finished)
        }
    }

    private mutating func finish() throws -> [XMLElement] {
        if strict, let innermost = open.last {
            throw XMPError(reason: "the packet ends inside <\(innermost.qualifiedName)> (truncated?)")
        }
        while !open.isEmpty { close() }
        return roots
    }

    /// `prefix:local` to its namespace; unprefixed attributes have no namespace.
    private func resolve(_ qualifiedName: String, scope: [String: String], isAttribute: Bool) throws -> XMLName {
        let colon = qualifiedName.utf8.firstIndex(of: UInt8(ascii: ":"))
        let prefix = colon.map { String(qualifiedName[..<$0]) } ?? ""
        let local = colon.map { String(qualifiedName[qualifiedName.utf8.index(after: $0)...]) } ?? qualifiedName
        if isAttribute && prefix.isEmpty { return XMLName(namespace: "", local: local, prefix: "") }
        guard let namespace = scope[prefix] else {
            if strict && !prefix.isEmpty { throw XMPError(reason: "the prefix \(prefix) of \(qualifiedName) is not declared") }
            return XMLName(namespace: "", local: local, prefix: prefix)
        }
        return XMLName(namespace: namespace, local: local, prefix: prefix)
    }

    private static func isDeclaration(_ name: String) -> Bool { name == "xmlns" || name.hasPrefix("xmlns:") }

    /// An XML name with at most one colon, neither first nor last: letters, digits (not first),
    /// `_`, `-`, `.` and non-ASCII letters and digits. What a writer can put back as written.
    static func isName(_ name: String) -> Bool {
        guard let colon = name.utf8.firstIndex(of: UInt8(ascii: ":")) else { return isNCName(name) }
        return isNCName(name[..<colon]) && isNCName(name[name.utf8.index(after: colon)...])
    }

    /// A name without a colon (an XML "NCName"), as `isName` describes.
    static func isNCName<S: StringProtocol>(_ name: S) -> Bool {
        guard let first = name.utf8.first, !(0x30...0x39).contains(first), first != UInt8(ascii: "-"), first != UInt8(ascii: ".") else {
            return false
        }
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            return name.utf8.allSatisfy { byte in
                (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            }
        }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "\u{B7}"
                || "_-.".unicodeScalars.contains(scalar)
        }
    }
}
