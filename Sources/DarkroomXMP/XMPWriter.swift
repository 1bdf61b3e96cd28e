/// Writes an `XMPPacket` as RDF/XML: one `rdf:Description` in `x:xmpmeta`, wrapped in `xpacket`
/// processing instructions; every property as an element (arrays as `rdf:Bag`/`Seq`/`Alt`,
/// structures with `rdf:parseType="Resource"`, URIs as `rdf:resource`).
///
/// Prefixes are the ones the packet was read with, else the customary ones; a prefix claimed by
/// two namespaces gets a number for the second. Text is escaped, and characters XML 1.0 cannot
/// hold (control characters) are written as U+FFFD, so the output is always well-formed.
struct XMPWriter {
    private let packet: XMPPacket
    private var prefixOf: [String: String] = [XMPNamespace.rdf: "rdf", XMPNamespace.xml: "xml"]
    private var declarationOrder: [String] = []

    init(packet: XMPPacket) {
        self.packet = packet
        var taken: Set<String> = ["rdf", "xml", "x", "xmlns"]
        for namespace in Self.namespaces(of: packet.properties) where prefixOf[namespace] == nil {
            let wanted = [packet.prefixes[namespace], XMPNamespace.preferredPrefix(for: namespace)]
                .compactMap { $0 }.first { XMLElementTree.isNCName($0) && !$0.lowercased().hasPrefix("xml") } ?? "ns"
            var prefix = wanted
            var number = 1
            while taken.contains(prefix) {
                prefix = "\(wanted)\(number)"
                number += 1
            }
            taken.insert(prefix)
            prefixOf[namespace] = prefix
            declarationOrder.append(namespace)
        }
    }

    /// The whole packet as text.
    func text() -> String {
        var out = "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
        out += "<x:xmpmeta xmlns:x=\"\(XMPNamespace.meta)\" x:xmptk=\"Darkroom\">\n"
        out += " <rdf:RDF xmlns:rdf=\"\(XMPNamespace.rdf)\">\n"
        out += "  <rdf:Description rdf:about=\"\""
        for namespace in declarationOrder {
            out += "\n    xmlns:\(prefixOf[namespace] ?? "ns")=\"\(Self.escape(namespace, inAttribute: true))\""
        }
        out += ">\n"
        for property in packet.properties {
            write(property.value, as: qualified(property.name), indent: 3, into: &out)
        }
        out += "  </rdf:Description>\n </rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"w\"?>\n"
        return out
    }

    private func qualified(_ name: XMPName) -> String { "\(prefixOf[name.namespace] ?? "ns"):\(name.local)" }

    private func write(_ value: XMPValue, as element: String, indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent)
        switch value {
        case .text(let text, let language):
            let lang = language.map { " xml:lang=\"\(Self.escape($0, inAttribute: true))\"" } ?? ""
            out += "\(pad)<\(element)\(lang)>\(Self.escape(text, inAttribute: false))</\(element)>\n"
        case .uri(let uri):
            out += "\(pad)<\(element) rdf:resource=\"\(Self.escape(uri, inAttribute: true))\"/>\n"
        case .array(let kind, let items):
            out += "\(pad)<\(element)>\n\(pad) <rdf:\(kind.rawValue)>\n"
            for item in items { write(item, as: "rdf:li", indent: indent + 2, into: &out) }
            out += "\(pad) </rdf:\(kind.rawValue)>\n\(pad)</\(element)>\n"
        case .structure(let fields) where fields.isEmpty:
            out += "\(pad)<\(element) rdf:parseType=\"Resource\"/>\n"
        case .structure(let fields):
            out += "\(pad)<\(element) rdf:parseType=\"Resource\">\n"
            for field in fields { write(field.value, as: qualified(field.name), indent: indent + 1, into: &out) }
            out += "\(pad)</\(element)>\n"
        }
    }

    /// Every namespace the properties use (names and field names), in first-use order.
    private static func namespaces(of properties: [XMPProperty]) -> [String] {
        var order: [String] = []
        var seen = Set<String>()
        var pending: [XMPValue] = []
        func note(_ namespace: String) { if seen.insert(namespace).inserted { order.append(namespace) } }
        for property in properties {
            note(property.name.namespace)
            pending.append(property.value)
            while let value = pending.popLast() {
                switch value {
                case .array(_, let items): pending.append(contentsOf: items.reversed())
                case .structure(let fields):
                    for field in fields { note(field.name.namespace) }
                    pending.append(contentsOf: fields.map(\.value).reversed())
                case .text, .uri: break
                }
            }
        }
        return order
    }

    /// `text` escaped for XML character data or a double-quoted attribute value.
    static func escape(_ text: String, inAttribute: Bool) -> String {
        let special: (UInt8) -> Bool = { $0 < 0x20 || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
            || $0 == UInt8(ascii: "\"") || $0 == 0xEF }  // 0xEF leads U+FFFE and U+FFFF
        guard text.utf8.contains(where: special) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where inAttribute: out += "&quot;"
            case "\r": out += "&#xD;"
            case "\n" where inAttribute: out += "&#xA;"
            case "\t" where inAttribute: out += "&#x9;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
