/// The XMP item of a HEIF file, found through its `meta` box (`iinf` names the item, `iloc` says
/// where its bytes are), read without libheif.
enum HEIFMetadata {
    /// A `meta` box larger than this is not read (a camera's is a few KB).
    static let maximumMetaBox = 4 << 20
    /// An XMP item larger than this is not read.
    static let maximumXMP: UInt64 = 1 << 20
    static let xmpContentType = "application/rdf+xml"

    /// The XMP packet of the file whose top-level boxes are `boxes`; nil when there is none or the
    /// boxes describing it do not hold together.
    static func xmpPacket(in file: SourceFile, boxes: [ISOBox]) throws -> [UInt8]? {
        guard let meta = boxes.first(where: { $0.type == fourCC("meta") }), meta.size <= UInt64(maximumMetaBox),
              meta.offset + meta.size <= file.size else { return nil }
        let payload = try file.read(at: meta.payloadOffset, count: Int(meta.payloadLength))
        let children = ISOBox.children(of: payload, from: 4)  // meta is a full box: version and flags first
        func content(_ type: String) -> [UInt8]? {
            children.first { $0.type == fourCC(type) }.map { Array(payload[Int($0.payloadOffset)..<Int($0.offset + $0.size)]) }
        }
        guard let iinf = content("iinf"), let iloc = content("iloc"), let item = xmpItemID(iinf),
              let location = itemLocation(iloc, item: item) else { return nil }
        let dataStart: UInt64
        let dataEnd: UInt64
        switch location.constructionMethod {
        case 0:
            (dataStart, dataEnd) = (0, file.size)
        case 1:  // inside the meta box's idat
            guard let idat = children.first(where: { $0.type == fourCC("idat") }) else { return nil }
            dataStart = meta.payloadOffset + idat.payloadOffset
            dataEnd = dataStart + idat.payloadLength
        default:
            return nil
        }
        var packet: [UInt8] = []
        for extent in location.extents {
            let (base, baseOverflow) = dataStart.addingReportingOverflow(location.baseOffset)
            let (start, overflow) = base.addingReportingOverflow(extent.offset)
            guard !baseOverflow, !overflow, extent.length > 0, extent.length <= maximumXMP - UInt64(packet.count),
                  start <= dataEnd, extent.length <= dataEnd - start else { return nil }
            packet += try file.read(at: start, count: Int(extent.length))
        }
        return packet.isEmpty ? nil : packet
    }

    /// The id of the first `mime` item whose content type is XMP's, from the `iinf` payload.
    static func xmpItemID(_ iinf: [UInt8]) -> UInt64? {
        let view = ByteView(iinf)
        guard let version = view.slice(0, 1)?.first else { return nil }
        let entriesStart = version == 0 ? 6 : 8  // full box header, then a 16- or 32-bit entry count
        for infe in ISOBox.children(of: iinf, from: entriesStart) where infe.type == fourCC("infe") {
            let start = Int(infe.payloadOffset)
            guard let infeVersion = view.slice(start, 1)?.first, infeVersion >= 2 else { continue }
            let idWidth = infeVersion == 2 ? 2 : 4
            guard let id = view.bigEndian(start + 4, width: idWidth) else { continue }
            let typeOffset = start + 4 + idWidth + 2  // after the protection index
            guard view.matches(fourCC("mime"), at: typeOffset), let name = view.cString(typeOffset + 4),
                  let contentType = view.cString(name.end + 1), contentType.end <= Int(infe.offset + infe.size) else { continue }
            if contentType.text == xmpContentType { return id }
        }
        return nil
    }

    /// Where an item's bytes are, from `iloc`.
    struct ItemLocation: Equatable {
        var constructionMethod: UInt64
        var baseOffset: UInt64
        var extents: [(offset: UInt64, length: UInt64)]

        static func == (a: ItemLocation, b: ItemLocation) -> Bool {
            a.constructionMethod == b.constructionMethod && a.baseOffset == b.baseOffset
                && a.extents.elementsEqual(b.extents, by: { $0.offset == $1.offset && $0.length == $1.length })
        }
    }

    /// The location of `item` from the `iloc` payload (versions 0, 1 and 2).
    static func itemLocation(_ iloc: [UInt8], item: UInt64) -> ItemLocation? {
        let view = ByteView(iloc)
        guard let version = view.bigEndian(0, width: 1), version <= 2, let sizes = view.uint16BE(4) else { return nil }
        let offsetSize = Int(sizes >> 12), lengthSize = Int(sizes >> 8 & 0x0F)
        let baseOffsetSize = Int(sizes >> 4 & 0x0F), indexSize = version == 0 ? 0 : Int(sizes & 0x0F)
        let idWidth = version < 2 ? 2 : 4
        var position = 6
        func field(_ width: Int) -> UInt64? {
            defer { position += width }
            return width == 0 ? 0 : view.bigEndian(position, width: width)
        }
        guard let itemCount = field(idWidth) else { return nil }
        for _ in 0..<min(itemCount, UInt64(iloc.count)) {
            guard let id = field(idWidth) else { return nil }
            var construction: UInt64 = 0
            if version >= 1 {
                guard let value = field(2) else { return nil }
                construction = value & 0x0F
            }
            guard let dataReference = field(2), let base = field(baseOffsetSize), let extentCount = field(2) else { return nil }
            var extents: [(offset: UInt64, length: UInt64)] = []
            for _ in 0..<extentCount {
                _ = field(indexSize)
                guard let offset = field(offsetSize), let length = field(lengthSize) else { return nil }
                extents.append((offset, length))
            }
            if id == item {
                guard dataReference == 0 else { return nil }  // data in another file
                return ItemLocation(constructionMethod: construction, baseOffset: base, extents: extents)
            }
        }
        return nil
    }
}
