/// A typed link from one item to others, from the `iref` box: `cdsc` (this metadata describes
/// those images), `thmb` (this is their thumbnail), `dimg` (derived from), `auxl`.
public struct ItemReference: Equatable, Sendable {
    /// The reference type.
    public var type: FourCC
    /// The item that refers.
    public var from: UInt32
    /// The items it refers to.
    public var to: [UInt32]
}

/// The `iref` box: every item reference.
struct ItemReferenceTable: Equatable {
    var references: [ItemReference]

    static let maximumReferences = 65_536

    /// Reads the `iref` box `bytes[box.offset..<box.end]`; throws when it does not hold together.
    static func read(_ bytes: [UInt8], box: ISOBox) throws -> ItemReferenceTable {
        let view = ByteView(bytes)
        let start = Int(box.payloadOffset)
        guard let version = view.uint8(start), version <= 1, start + 4 <= Int(box.end) else {
            throw ISOBMFFError(reason: "the 'iref' box is cut short or has an unknown version")
        }
        let idWidth = version == 0 ? 2 : 4
        let children = ISOBox.children(of: bytes, in: start + 4..<Int(box.end), limit: maximumReferences + 1)
        guard children.count <= maximumReferences, children.last.map({ Int($0.end) }) ?? start + 4 == Int(box.end) else {
            throw ISOBMFFError(reason: "the 'iref' box's references cannot be read")
        }
        let references = try children.map { child -> ItemReference in
            let at = Int(child.payloadOffset)
            guard let from = view.bigEndian(at, width: idWidth), let count = view.uint16BE(at + idWidth),
                  at + idWidth + 2 + Int(count) * idWidth == Int(child.end) else {
                throw ISOBMFFError(reason: "the '\(child.type)' reference at offset \(child.offset) of the 'meta' box cannot be read")
            }
            let targets = (0..<Int(count)).map { UInt32(view.bigEndian(at + idWidth + 2 + $0 * idWidth, width: idWidth) ?? 0) }
            return ItemReference(type: child.type, from: UInt32(from), to: targets)
        }
        return ItemReferenceTable(references: references)
    }

    /// The `iref` box: version 0 (16-bit ids) unless an id needs 32 bits.
    func serialized() -> [UInt8] {
        let wide = references.contains { $0.from > UInt16.max || $0.to.contains { $0 > UInt16.max } }
        let idWidth = wide ? 4 : 2
        var payload = ByteWriter()
        for reference in references {
            var entry = ByteWriter()
            entry.append(UInt64(reference.from), width: idWidth)
            entry.append(UInt64(reference.to.count), width: 2)
            for target in reference.to { entry.append(UInt64(target), width: idWidth) }
            payload.append(ByteWriter.box(reference.type, entry.bytes))
        }
        return ByteWriter.fullBox("iref", version: wide ? 1 : 0, flags: 0, payload.bytes)
    }
}
