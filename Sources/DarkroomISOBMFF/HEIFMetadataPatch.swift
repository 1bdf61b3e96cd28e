/// Replaces the Exif and XMP items of a HEIF file without touching its images: the new bytes go
/// in an `mdat` box appended at the end, the `meta` box is rewritten (the items' locations in
/// `iloc`; for an item the file lacked, an `infe` and a `cdsc` reference to the primary image),
/// and every other item's file offset is moved by however much the `meta` box grew. Every other
/// box is copied byte for byte, so the images decode exactly as before.
///
/// Patching again replaces the `mdat` an earlier patch appended instead of adding another, so the
/// same patch applied twice gives the same bytes.
public enum HEIFMetadataPatch {
    /// Top-level boxes a still-image HEIF file may have beside `ftyp` and `meta`, none of which
    /// holds file offsets. A `moov` (an image sequence) does: such files are refused.
    static let movableBoxes: Set<FourCC> = ["mdat", "free", "skip", "wide", "mpvd"]

    /// The file `file` with its Exif item's bytes replaced by `exif` (an Exif item's payload: a
    /// 4-byte offset to the TIFF header, then the block) and its XMP item's by `xmp`, either
    /// added when the file has none; nil leaves that item as it is. Throws `ISOBMFFError` when the
    /// file is not a still-image HEIF file whose boxes hold together.
    public static func apply(to file: [UInt8], exif: [UInt8]?, xmp: [UInt8]?) throws -> [UInt8] {
        let boxes = try ISOBox.topLevel(of: file)
        guard let last = boxes.last, last.end == file.size, boxes.first?.type == "ftyp" else {
            throw ISOBMFFError(reason: "not a HEIF file whose boxes run to its end")
        }
        for box in boxes where box.type != "ftyp" && box.type != "meta" && !movableBoxes.contains(box.type) {
            throw ISOBMFFError(reason: "a top-level '\(box.type)' box: only still-image HEIF files are rewritten")
        }
        guard let meta = try HEIFMeta.read(from: file, boxes: boxes) else { throw ISOBMFFError(reason: "no 'meta' box") }
        guard let primary = meta.primaryItem, meta.items.contains(where: { $0.id == primary }) else {
            throw ISOBMFFError(reason: "the 'meta' box names no primary image")
        }

        var items = meta.itemTable
        var locations = meta.locationTable
        var references = meta.referenceTable ?? ItemReferenceTable(references: [])
        var appended: [(id: UInt32, bytes: [UInt8])] = []
        var nextID = (items.items.map(\.id) + locations.locations.map(\.id)).max() ?? 0
        let wanted: [(payload: [UInt8]?, existing: ItemInfo?, made: (UInt32) -> ItemInfo)] = [
            (exif, meta.exifItem, { ItemInfo.made(id: $0, type: "Exif") }),
            (xmp, meta.xmpItem, { ItemInfo.made(id: $0, type: "mime", contentType: ItemInfo.xmpContentType) }),
        ]
        for (payload, existing, made) in wanted {
            guard let payload else { continue }
            guard !payload.isEmpty else { throw ISOBMFFError(reason: "an empty metadata item") }
            if let existing {
                appended.append((existing.id, payload))
                continue
            }
            guard nextID < UInt32.max else { throw ISOBMFFError(reason: "no item id is left") }
            nextID += 1
            items.items.append(made(nextID))
            references.references.append(ItemReference(type: "cdsc", from: nextID, to: [primary]))
            appended.append((nextID, payload))
        }
        let replaced = Set(appended.map(\.id))

        // An mdat at the end holding nothing but items replaced now is an earlier patch's: dropped.
        let dropsLast = last.type == "mdat" && boxes.count > 2 && isOnlyFor(replaced, box: last, meta: meta)
        let kept = dropsLast ? Array(boxes.dropLast()) : boxes
        let keptSize = dropsLast ? last.offset : file.size

        // The meta box's size decides where everything after it moves, which decides the iloc's
        // field widths, which decide the meta box's size: settled in a few rounds.
        var newMeta: [UInt8] = []
        var growth: Int64 = 0
        for _ in 0..<4 {
            let mdatStart = UInt64(Int64(keptSize) + growth)
            locations.locations = try meta.locationTable.locations.map { location in
                if let index = appended.firstIndex(where: { $0.id == location.id }) {
                    return ItemLocation(id: location.id, constructionMethod: 0, dataReferenceIndex: 0, baseOffset: 0,
                                        extents: [.init(index: 0, offset: mdatStart + 8 + offset(of: index, in: appended), length: UInt64(appended[index].bytes.count))])
                }
                return try moved(location, meta: meta.box, by: growth)
            }
            for (index, item) in appended.enumerated() where !meta.locationTable.locations.contains(where: { $0.id == item.id }) {
                locations.locations.append(ItemLocation(id: item.id, constructionMethod: 0, dataReferenceIndex: 0, baseOffset: 0,
                                                        extents: [.init(index: 0, offset: mdatStart + 8 + offset(of: index, in: appended), length: UInt64(item.bytes.count))]))
            }
            newMeta = try rebuiltMeta(meta, items: items, locations: locations, references: references)
            let newGrowth = Int64(newMeta.count) - Int64(meta.box.size)
            if newGrowth == growth { break }
            growth = newGrowth
        }
        guard Int64(newMeta.count) - Int64(meta.box.size) == growth else { throw ISOBMFFError(reason: "the 'meta' box's size does not settle") }

        var out: [UInt8] = []
        out.reserveCapacity(Int(keptSize) + newMeta.count + appended.reduce(16) { $0 + $1.bytes.count })
        for box in kept {
            if box.type == "meta" { out += newMeta } else { out += file[Int(box.offset)..<Int(box.end)] }
        }
        out += ByteWriter.box("mdat", appended.flatMap(\.bytes))
        return out
    }

    /// Where the `index`th appended item starts in the new `mdat`'s payload.
    private static func offset(of index: Int, in appended: [(id: UInt32, bytes: [UInt8])]) -> UInt64 {
        UInt64(appended[..<index].reduce(0) { $0 + $1.bytes.count })
    }

    /// Whether every item with bytes in `box` is one of `items`, and some is.
    private static func isOnlyFor(_ items: Set<UInt32>, box: ISOBox, meta: HEIFMeta) -> Bool {
        var holdsOne = false
        for location in meta.locationTable.locations where location.constructionMethod == 0 && location.dataReferenceIndex == 0 {
            for extent in location.extents {
                let (start, overflow) = location.baseOffset.addingReportingOverflow(extent.offset)
                guard !overflow, start >= box.offset, start < box.end else { continue }
                guard items.contains(location.id) else { return false }
                holdsOne = true
            }
        }
        return holdsOne
    }

    /// `location` with every file offset after the `meta` box moved by `growth`; throws when one
    /// points inside the `meta` box.
    private static func moved(_ location: ItemLocation, meta: ISOBox, by growth: Int64) throws -> ItemLocation {
        guard location.constructionMethod == 0, location.dataReferenceIndex == 0, growth != 0 else { return location }
        var moved = location
        for (index, extent) in location.extents.enumerated() {
            let (start, overflow) = location.baseOffset.addingReportingOverflow(extent.offset)
            guard !overflow else { throw ISOBMFFError(reason: "item \(location.id)'s offset overflows") }
            if start >= meta.end {
                let (shifted, wrapped) = Int64(exactly: extent.offset).map { $0.addingReportingOverflow(growth) } ?? (0, true)
                guard !wrapped, shifted >= 0 else { throw ISOBMFFError(reason: "item \(location.id)'s offset cannot move") }
                moved.extents[index].offset = UInt64(shifted)
            } else if start >= meta.offset || (extent.length > 0 && start + extent.length > meta.offset) {
                throw ISOBMFFError(reason: "item \(location.id)'s bytes lie inside the 'meta' box")
            }
        }
        return moved
    }

    /// The `meta` box with its `iinf`, `iloc` and `iref` replaced (an `iref` added after `iinf` when
    /// there was none and references are needed) and every other child byte for byte.
    private static func rebuiltMeta(_ meta: HEIFMeta, items: ItemInfoTable, locations: ItemLocationTable,
                                    references: ItemReferenceTable) throws -> [UInt8] {
        var payload = Array(meta.bytes[Int(meta.box.headerLength)..<Int(meta.box.headerLength) + 4])  // version and flags
        for child in meta.children {
            switch child.type {
            case "iinf":
                payload += items.serialized()
                if meta.referenceTable == nil && !references.references.isEmpty { payload += references.serialized() }
            case "iloc": payload += try locations.serialized()
            case "iref": payload += references.serialized()
            default: payload += meta.bytes[Int(child.offset)..<Int(child.end)]
            }
        }
        let childrenEnd = meta.children.last.map { Int($0.end) } ?? Int(meta.box.headerLength) + 4
        guard childrenEnd == meta.bytes.count else { throw ISOBMFFError(reason: "the 'meta' box has bytes after its last child box") }
        return ByteWriter.box("meta", payload)
    }
}
