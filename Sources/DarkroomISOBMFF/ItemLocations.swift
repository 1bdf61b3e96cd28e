/// Where an item's bytes are, as the `iloc` box says: in the file (construction method 0), in the
/// `meta` box's `idat` (1), or in another item (2); in extents that follow each other.
public struct ItemLocation: Equatable, Sendable {
    /// One run of bytes: at `offset` (from `baseOffset`), `length` long (0: to the end of the data).
    public struct Extent: Equatable, Sendable {
        /// The extent index (construction method 2), else 0.
        public var index: UInt64
        public var offset: UInt64
        public var length: UInt64
    }

    /// The item.
    public var id: UInt32
    /// 0: file offsets; 1: offsets into the `idat` box; 2: offsets into another item.
    public var constructionMethod: UInt8
    /// 0: this file; anything else: a file named in `dinf`.
    public var dataReferenceIndex: UInt16
    /// Added to every extent's offset.
    public var baseOffset: UInt64
    /// The extents, in order.
    public var extents: [Extent]
}

/// The `iloc` box: every item's location, with the field widths it was written with.
struct ItemLocationTable: Equatable {
    var version: UInt8
    var offsetSize: Int
    var lengthSize: Int
    var baseOffsetSize: Int
    var indexSize: Int
    var locations: [ItemLocation]

    /// More entries or extents than this is no photo's.
    static let maximumItems = 65_536
    static let maximumExtents = 65_535
    /// Extents over all items: bounds the work when every field is zero bytes wide.
    static let maximumTotalExtents = 1 << 20

    /// Reads the `iloc` box `bytes[box.offset..<box.end]` (versions 0, 1 and 2); throws when it does not hold together.
    static func read(_ bytes: [UInt8], box: ISOBox) throws -> ItemLocationTable {
        let view = ByteView(bytes)
        var position = Int(box.payloadOffset)
        let end = Int(box.end)
        let cut = ISOBMFFError(reason: "the 'iloc' box is cut short")
        func field(_ width: Int) throws -> UInt64 {
            guard width == 0 || position + width <= end else { throw cut }
            defer { position += width }
            return width == 0 ? 0 : view.bigEndian(position, width: width) ?? 0
        }
        let version = UInt8(try field(1))
        _ = try field(3)  // flags
        guard version <= 2 else { throw ISOBMFFError(reason: "the 'iloc' box has version \(version), which is unknown") }
        let sizes = try field(2)
        var table = ItemLocationTable(version: version, offsetSize: Int(sizes >> 12), lengthSize: Int(sizes >> 8 & 0xF),
                                      baseOffsetSize: Int(sizes >> 4 & 0xF), indexSize: version == 0 ? 0 : Int(sizes & 0xF), locations: [])
        for width in [table.offsetSize, table.lengthSize, table.baseOffsetSize, table.indexSize] where ![0, 4, 8].contains(width) {
            throw ISOBMFFError(reason: "the 'iloc' box has a field of \(width) bytes (0, 4 or 8 are allowed)")
        }
        let idWidth = version < 2 ? 2 : 4
        let count = try field(idWidth)
        guard count <= maximumItems else { throw ISOBMFFError(reason: "the 'iloc' box declares \(count) items") }
        var total = 0
        for _ in 0..<count {
            let id = UInt32(try field(idWidth))
            let method = version >= 1 ? UInt8(try field(2) & 0xF) : 0
            let reference = UInt16(try field(2))
            let base = try field(table.baseOffsetSize)
            let extentCount = try field(2)
            total += Int(extentCount)
            guard total <= maximumTotalExtents else { throw ISOBMFFError(reason: "the 'iloc' box declares more than \(maximumTotalExtents) extents") }
            var extents: [ItemLocation.Extent] = []
            for _ in 0..<extentCount {
                extents.append(.init(index: try field(table.indexSize), offset: try field(table.offsetSize), length: try field(table.lengthSize)))
            }
            table.locations.append(ItemLocation(id: id, constructionMethod: method, dataReferenceIndex: reference, baseOffset: base, extents: extents))
        }
        return table
    }

    /// The location of `item`.
    func location(of item: UInt32) -> ItemLocation? { locations.first { $0.id == item } }

    /// The `iloc` box, with this table's version and field widths, each widened to 8 bytes where a
    /// value needs it, and version 2 where an id needs 32 bits. Throws when a location cannot be
    /// written (a construction method in version 0, too many extents).
    func serialized() throws -> [UInt8] {
        func width(_ current: Int, _ values: [UInt64]) -> Int {
            values.contains { $0 > UInt32.max } ? 8 : (current == 0 && values.contains { $0 != 0 } ? 4 : current)
        }
        let extents = locations.flatMap(\.extents)
        let offsetSize = width(offsetSize, extents.map(\.offset)), lengthSize = width(lengthSize, extents.map(\.length))
        let baseOffsetSize = width(baseOffsetSize, locations.map(\.baseOffset))
        var version = locations.contains { $0.id > UInt16.max } ? 2 : self.version
        if version == 0 && locations.contains(where: { $0.constructionMethod != 0 }) { version = 1 }
        let indexSize = version == 0 ? 0 : width(indexSize, extents.map(\.index))
        guard version > 0 || extents.allSatisfy({ $0.index == 0 }) else { throw ISOBMFFError(reason: "extent indexes need 'iloc' version 1") }

        var payload = ByteWriter()
        payload.append(UInt64(offsetSize << 12 | lengthSize << 8 | baseOffsetSize << 4 | indexSize), width: 2)
        let idWidth = version < 2 ? 2 : 4
        payload.append(UInt64(locations.count), width: idWidth)
        for location in locations {
            guard location.extents.count <= Self.maximumExtents else { throw ISOBMFFError(reason: "item \(location.id) has too many extents") }
            payload.append(UInt64(location.id), width: idWidth)
            if version >= 1 { payload.append(UInt64(location.constructionMethod), width: 2) }
            payload.append(UInt64(location.dataReferenceIndex), width: 2)
            if baseOffsetSize > 0 { payload.append(location.baseOffset, width: baseOffsetSize) }
            payload.append(UInt64(location.extents.count), width: 2)
            for extent in location.extents {
                if indexSize > 0 { payload.append(extent.index, width: indexSize) }
                if offsetSize > 0 { payload.append(extent.offset, width: offsetSize) }
                if lengthSize > 0 { payload.append(extent.length, width: lengthSize) }
            }
        }
        return ByteWriter.fullBox("iloc", version: version, flags: 0, payload.bytes)
    }
}
