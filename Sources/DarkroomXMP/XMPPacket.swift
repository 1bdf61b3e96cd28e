import Foundation

/// An XMP packet: its top-level properties by namespace URI and local name, read from either RDF
/// form (attributes of `rdf:Description` or child elements), with arrays and structures.
///
/// Reading never traps, whatever the bytes: `init(data:)` throws `XMPError` with the reason for
/// a malformed packet; `init(lenient:)` keeps what it could read (for packets embedded in media,
/// where a damaged packet must not hide the rest of the file). UTF-16 packets are converted;
/// invalid byte sequences become U+FFFD and are listed in `repairs`.
public struct XMPPacket: Hashable, Sendable {
    /// The top-level properties in document order, each name once.
    public private(set) var properties: [XMPProperty] = []
    /// The prefix each namespace was written with (namespace URI to prefix), reused when writing.
    public private(set) var prefixes: [String: String] = [:]
    /// What had to be repaired to read the packet (bytes that were not valid UTF-8 or UTF-16).
    public private(set) var repairs: [String] = []

    /// An empty packet.
    public init() {}

    /// Reads a packet, or throws `XMPError` saying why the bytes are not one.
    public init(data: Data) throws {
        try self.init(bytes: [UInt8](data), strict: true)
    }

    /// Reads what it can of a packet: a malformed one yields the properties read before the damage.
    public init(lenient bytes: [UInt8]) {
        // Lenient reading throws nothing: every problem stops reading instead.
        self = (try? XMPPacket(bytes: bytes, strict: false)) ?? XMPPacket()
    }

    private init(bytes: [UInt8], strict: Bool) throws {
        let text = XMPText.utf8(bytes)
        let roots = try XMLElementTree.parse(text.bytes, strict: strict)
        (properties, prefixes) = try RDFReader.properties(in: roots, strict: strict)
        repairs = text.repairs
    }

    /// The value of the top-level property `name`, or nil; setting nil removes the property.
    public subscript(name: XMPName) -> XMPValue? {
        get { properties.first { $0.name == name }?.value }
        set {
            let index = properties.firstIndex { $0.name == name }
            switch (index, newValue) {
            case let (index?, value?): properties[index].value = value
            case let (index?, nil): properties.remove(at: index)
            case let (nil, value?): properties.append(XMPProperty(name, value))
            case (nil, nil): break
            }
        }
    }

    /// The value of the top-level property `local` in `namespace`, or nil.
    public subscript(namespace: String, local: String) -> XMPValue? {
        self[XMPName(namespace, local)]
    }

    /// This packet with every property of `newer` added, `newer`'s value winning where both have
    /// a property of the same name (a property is replaced whole: a sidecar's keyword list replaces
    /// the embedded one, so keywords the user removed stay removed). Properties only this packet
    /// has are kept, in place; `newer`'s others follow in its order.
    public func merging(_ newer: XMPPacket) -> XMPPacket {
        var merged = self
        for property in newer.properties { merged[property.name] = property.value }
        merged.prefixes.merge(newer.prefixes) { own, _ in own }
        merged.repairs = repairs + newer.repairs
        return merged
    }

    /// The packet as UTF-8 RDF/XML in an `xpacket` wrapper, every property as an element (see
    /// `XMPWriter`); it reads back to an equal set of properties.
    public func serialized() -> Data {
        Data(XMPWriter(packet: self).text().utf8)
    }
}
