/// The file-level `meta` box of a HEIF file (HEIC, AVIF), read without libheif: its items (`iinf`),
/// where their bytes are (`iloc`, `idat`), how they refer to each other (`iref`) and the primary
/// item (`pitm`). Reading checks every size against the box; a `meta` box that does not hold
/// together throws `ISOBMFFError` saying what is wrong.
public struct HEIFMeta: Sendable {
    /// The `meta` box in the file.
    public let box: ISOBox
    /// The primary item's id (`pitm`), when the box names one.
    public let primaryItem: UInt32?
    /// Every item, in `iinf` order.
    public var items: [ItemInfo] { itemTable.items }
    /// Every reference between items.
    public var references: [ItemReference] { referenceTable?.references ?? [] }

    /// The whole `meta` box as read.
    let bytes: [UInt8]
    /// Its children, with offsets into `bytes`.
    let children: [ISOBox]
    let itemTable: ItemInfoTable
    let locationTable: ItemLocationTable
    let referenceTable: ItemReferenceTable?

    /// A `meta` box larger than this is not read (a phone's is a few kilobytes).
    public static let maximumSize = 4 << 20

    /// The `meta` box among `boxes` (the top-level boxes of `source`), read; nil when there is none.
    public static func read(from source: some ByteSource, boxes: [ISOBox]) throws -> HEIFMeta? {
        let metas = boxes.filter { $0.type == "meta" }
        guard let box = metas.first else { return nil }
        guard metas.count == 1 else { throw ISOBMFFError(reason: "the file has \(metas.count) top-level 'meta' boxes") }
        guard box.size <= UInt64(maximumSize) else { throw ISOBMFFError(reason: "its 'meta' box of \(box.size) bytes is too large") }
        guard box.end <= source.size else { throw ISOBMFFError(reason: "its 'meta' box runs past the end of the file (truncated?)") }
        return try HEIFMeta(box: box, bytes: try source.read(at: box.offset, count: Int(box.size)))
    }

    /// Reads `bytes`, the whole `meta` box found as `box`.
    init(box: ISOBox, bytes: [UInt8]) throws {
        guard bytes.count == Int(box.size), box.headerLength + 4 <= box.size else { throw ISOBMFFError(reason: "the 'meta' box is cut short") }
        self.box = box
        self.bytes = bytes
        // meta is a full box: version and flags before its children.
        let children = ISOBox.children(of: bytes, in: Int(box.headerLength) + 4..<bytes.count, limit: 256)
        self.children = children
        func only(_ type: FourCC) throws -> ISOBox? {
            let found = children.filter { $0.type == type }
            guard found.count <= 1 else { throw ISOBMFFError(reason: "the 'meta' box has \(found.count) '\(type)' boxes") }
            return found.first
        }
        guard let iinf = try only("iinf"), let iloc = try only("iloc") else {
            throw ISOBMFFError(reason: "the 'meta' box has no item table ('iinf' and 'iloc')")
        }
        itemTable = try ItemInfoTable.read(bytes, box: iinf)
        locationTable = try ItemLocationTable.read(bytes, box: iloc)
        referenceTable = try only("iref").map { try ItemReferenceTable.read(bytes, box: $0) }
        primaryItem = try only("pitm").flatMap { pitm in
            let view = ByteView(bytes)
            let start = Int(pitm.payloadOffset)
            return view.uint8(start).flatMap { view.bigEndian(start + 4, width: $0 == 0 ? 2 : 4) }.map(UInt32.init)
        }
    }

    /// The first XMP item (a `mime` item of type `application/rdf+xml`).
    public var xmpItem: ItemInfo? { items.first(where: \.isXMP) }
    /// The first Exif item.
    public var exifItem: ItemInfo? { items.first(where: \.isExif) }

    /// Where `item`'s bytes are.
    public func location(of item: UInt32) -> ItemLocation? { locationTable.location(of: item) }

    /// The bytes of `item` (at most `limit`), read from `source` (the file this box came from) or
    /// from the `idat` box. Throws when its location is unknown, lies outside the file or its
    /// `idat`, is in another item or another file, or is larger than `limit`.
    public func data(of item: UInt32, in source: some ByteSource, limit: UInt64) throws -> [UInt8] {
        guard let location = location(of: item) else { throw ISOBMFFError(reason: "item \(item) has no location in 'iloc'") }
        guard location.dataReferenceIndex == 0 else { throw ISOBMFFError(reason: "item \(item) is in another file") }
        let read: (UInt64, Int) throws -> [UInt8]
        let dataSize: UInt64
        switch location.constructionMethod {
        case 0:
            (read, dataSize) = ({ try source.read(at: $0, count: $1) }, source.size)
        case 1:
            guard let idat = children.first(where: { $0.type == "idat" }) else { throw ISOBMFFError(reason: "item \(item) is in an 'idat' box there is none of") }
            let payload = Array(bytes[idat.payloadRange])
            (read, dataSize) = ({ payload.read(at: $0, count: $1) }, UInt64(payload.count))
        default:
            throw ISOBMFFError(reason: "item \(item) is made of another item's bytes (construction method \(location.constructionMethod))")
        }
        var data: [UInt8] = []
        for extent in location.extents {
            let (start, overflow) = location.baseOffset.addingReportingOverflow(extent.offset)
            let length = extent.length == 0 && location.extents.count == 1 && !overflow && start <= dataSize ? dataSize - start : extent.length
            guard !overflow, length > 0, start <= dataSize, length <= dataSize - start else {
                throw ISOBMFFError(reason: "item \(item)'s bytes at \(start) (\(extent.length) bytes) lie outside the file")
            }
            guard length <= limit - UInt64(data.count) else { throw ISOBMFFError(reason: "item \(item) is larger than \(limit) bytes") }
            data += try read(start, Int(length))
        }
        return data
    }
}

extension HEIFMeta {
    /// An XMP item larger than this is not read.
    public static let maximumXMP: UInt64 = 4 << 20

    /// The XMP packet of the HEIF file `source` whose top-level boxes are `boxes`; nil when it has
    /// none, or when the boxes describing it do not hold together. Throws only when the file
    /// cannot be read.
    public static func xmpPacket(of source: some ByteSource, boxes: [ISOBox]) throws -> [UInt8]? {
        do {
            guard let meta = try read(from: source, boxes: boxes), let item = meta.xmpItem else { return nil }
            let packet = try meta.data(of: item.id, in: source, limit: maximumXMP)
            return packet.isEmpty ? nil : packet
        } catch let error as ISOBMFFError where error.path == nil {
            return nil  // the boxes do not hold together: no packet
        }
    }

    /// The XMP packet of the HEIF file (HEIC, AVIF) at `path`, read from its XMP item (libvips
    /// 8.14 gives none for HEIF files); nil when it has none. Throws `ISOBMFFError` naming the
    /// file when it cannot be read.
    public static func xmpPacket(ofFileAt path: String) throws -> [UInt8]? {
        let file = try ByteFile(path: path)
        return try xmpPacket(of: file, boxes: try ISOBox.topLevel(of: file))
    }
}
