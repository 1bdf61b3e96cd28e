/// One item of a HEIF file as its `infe` box declares it: id, type and, for `mime` items, the
/// content type. The box's bytes are kept so that rewriting the `iinf` box leaves it exactly as it was.
public struct ItemInfo: Equatable, Sendable {
    /// The item's id.
    public var id: UInt32
    /// `hvc1`, `grid`, `Exif`, `mime`...; nil for the old `infe` versions 0 and 1, which have none.
    public var type: FourCC?
    /// The content type of a `mime` item (`application/rdf+xml` for XMP).
    public var contentType: String?
    /// Whether the item is flagged hidden (not to be shown on its own).
    public var hidden: Bool
    /// The whole `infe` box, as read or as made.
    var box: [UInt8]

    /// The content type of XMP items.
    public static let xmpContentType = "application/rdf+xml"

    /// Whether this is an XMP packet (`mime` with XMP's content type).
    public var isXMP: Bool { type == "mime" && contentType == Self.xmpContentType }
    /// Whether this is an Exif block.
    public var isExif: Bool { type == "Exif" }

    /// Reads the `infe` box `bytes[box.offset..<box.end]`; nil when it does not hold together.
    static func read(_ bytes: [UInt8], box: ISOBox) -> ItemInfo? {
        let view = ByteView(bytes)
        let start = Int(box.payloadOffset), end = Int(box.end)
        guard box.type == "infe", let version = view.uint8(start), let flags = view.bigEndian(start + 1, width: 3) else { return nil }
        let idWidth = version >= 3 ? 4 : 2
        guard let id = view.bigEndian(start + 4, width: idWidth), start + 4 + idWidth + 2 <= end else { return nil }
        var info = ItemInfo(id: UInt32(id), type: nil, contentType: nil, hidden: flags & 1 != 0, box: Array(bytes[Int(box.offset)..<end]))
        guard version >= 2 else { return info }
        let typeOffset = start + 4 + idWidth + 2  // after the protection index
        guard typeOffset + 4 <= end, let type = view.fourCC(at: typeOffset), let name = view.cString(typeOffset + 4),
              name.end < end else { return nil }
        info.type = type
        if type == "mime" {
            guard let contentType = view.cString(name.end + 1), contentType.end < end else { return nil }
            info.contentType = contentType.text
        }
        return info
    }

    /// A new `infe` box (version 2, or 3 for an id over 16 bits) for an item of `type`, hidden as
    /// metadata items are, with `contentType` for a `mime` item.
    static func made(id: UInt32, type: FourCC, contentType: String? = nil) -> ItemInfo {
        let version: UInt8 = id > UInt16.max ? 3 : 2
        var payload = ByteWriter()
        payload.append(UInt64(id), width: version == 3 ? 4 : 2)
        payload.append(0, width: 2)  // protection index: none
        payload.append(type)
        payload.appendCString("")  // no name
        if let contentType { payload.appendCString(contentType) }
        return ItemInfo(id: id, type: type, contentType: contentType, hidden: true,
                        box: ByteWriter.fullBox("infe", version: version, flags: 1, payload.bytes))
    }
}

/// The `iinf` box: every item's `infe`.
struct ItemInfoTable: Equatable {
    var items: [ItemInfo]

    /// More items than this is no photo's.
    static let maximumItems = 65_536

    /// Reads the `iinf` box `bytes[box.offset..<box.end]`; throws when it does not hold together.
    static func read(_ bytes: [UInt8], box: ISOBox) throws -> ItemInfoTable {
        let view = ByteView(bytes)
        let start = Int(box.payloadOffset)
        guard let version = view.uint8(start), let count = view.bigEndian(start + 4, width: version == 0 ? 2 : 4) else {
            throw ISOBMFFError(reason: "the 'iinf' box is cut short")
        }
        let entriesStart = start + (version == 0 ? 6 : 8)
        guard count <= maximumItems, entriesStart <= Int(box.end) else { throw ISOBMFFError(reason: "the 'iinf' box declares \(count) items") }
        let entries = ISOBox.children(of: bytes, in: entriesStart..<Int(box.end), limit: Int(count))
        var items: [ItemInfo] = []
        for entry in entries where entry.type == "infe" {
            guard let item = ItemInfo.read(bytes, box: entry) else {
                throw ISOBMFFError(reason: "an 'infe' box at offset \(entry.offset) of the 'meta' box cannot be read")
            }
            items.append(item)
        }
        guard items.count == Int(count) else {
            throw ISOBMFFError(reason: "the 'iinf' box declares \(count) items but holds \(items.count)")
        }
        return ItemInfoTable(items: items)
    }

    /// The `iinf` box: version 0 (a 16-bit count) unless there are more items than that holds.
    func serialized() -> [UInt8] {
        var payload = ByteWriter()
        let wide = items.count > Int(UInt16.max)
        payload.append(UInt64(items.count), width: wide ? 4 : 2)
        for item in items { payload.append(item.box) }
        return ByteWriter.fullBox("iinf", version: wide ? 1 : 0, flags: 0, payload.bytes)
    }
}
