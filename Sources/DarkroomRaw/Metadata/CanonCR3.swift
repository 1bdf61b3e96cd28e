import Foundation

/// Canon's CR3: an ISO base media file whose `moov` box holds a Canon `uuid` box with the EXIF as
/// four small TIFF structures: CMT1 (IFD0), CMT2 (the Exif directory), CMT3 (Canon's maker notes),
/// CMT4 (the GPS directory). An XMP packet, when present, is a top-level `uuid` box.
enum CanonCR3 {
    static let canonMetadataUUID: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]
    /// The top-level `uuid` box holding an XMP packet (Adobe's XMP UUID for ISO files).
    static let xmpUUID: [UInt8] = [0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8, 0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC]
    /// A CMT box larger than this is not metadata.
    static let maximumBoxBytes = 1 << 20

    static func read(_ file: ByteSource, path: String, into collection: inout ExifCollection) throws {
        let top = ISOBoxes.children(of: file, from: 0, to: file.count)
        if let xmp = top.first(where: { $0.type == "uuid" && $0.userType == xmpUUID }), xmp.end - xmp.payload <= maximumBoxBytes {
            collection.xmp = file.bytes(at: xmp.payload, length: xmp.end - xmp.payload).map { Data($0) }
        }
        guard let moov = top.first(where: { $0.type == "moov" }) else {
            throw RawError(path: path, reason: .metadataCorrupt("the CR3 file has no moov box"))
        }
        let inMoov = ISOBoxes.children(of: file, from: moov.payload, to: moov.end)
        guard let canon = inMoov.first(where: { $0.type == "uuid" && $0.userType == canonMetadataUUID }) else {
            throw RawError(path: path, reason: .metadataCorrupt("the CR3 file has no Canon metadata box"))
        }
        for box in ISOBoxes.children(of: file, from: canon.payload, to: canon.end) {
            let length = box.end - box.payload
            guard box.type.hasPrefix("CMT"), length <= maximumBoxBytes, let bytes = file.bytes(at: box.payload, length: length),
                  let reader = TIFFReader(source: MemoryBytes(bytes)) else { continue }
            let entries = reader.directory(at: reader.firstDirectory)?.entries ?? [:]
            switch box.type {
            case "CMT1": collection.addIFD0(entries)
            case "CMT2": collection.addExif(entries)
            case "CMT3": collection.makerNoteLens = collection.makerNoteLens ?? MakerNoteLens.canon(reader)
            case "CMT4": collection.addGPS(entries)
            default: continue
            }
        }
    }
}

/// ISO base media file boxes (size, type, an optional 16-byte user type for `uuid`), bounds-checked.
enum ISOBoxes {
    struct Box {
        var type: String
        var userType: [UInt8]?
        /// Where the payload starts and where the box ends, in the source.
        var payload: Int
        var end: Int
    }

    /// At most this many boxes are read at one level (a loop guard for hostile files).
    static let maximumChildren = 4096

    /// The top-level boxes as their headers declare them, the last one possibly running past the end
    /// of a cut file (a box declared to run to the end ends at the file's end).
    static func declaredTopLevel(in source: ByteSource) -> [Box] {
        children(of: source, from: 0, to: source.count, allowingOverrun: true)
    }

    static func children(of source: ByteSource, from start: Int, to end: Int, allowingOverrun: Bool = false) -> [Box] {
        var boxes: [Box] = []
        var at = start
        while at + 8 <= end, boxes.count < maximumChildren {
            guard let size32 = source.uint32(at: at, bigEndian: true), let typeBytes = source.bytes(at: at + 4, length: 4) else { break }
            var header = 8
            var size = Int(size32)
            if size32 == 1 {
                guard let high = source.uint32(at: at + 8, bigEndian: true), let low = source.uint32(at: at + 12, bigEndian: true),
                      high < 1 << 20 else { break }
                size = Int(high) << 32 | Int(low)
                header = 16
            } else if size32 == 0 {
                size = end - at
            }
            guard size >= header, allowingOverrun || size <= end - at else { break }
            let type = String(decoding: typeBytes, as: UTF8.self)
            var userType: [UInt8]?
            if type == "uuid" {
                userType = source.bytes(at: at + header, length: 16)
                header += 16
                guard size >= header else { break }
            }
            boxes.append(Box(type: type, userType: userType, payload: at + header, end: at + size))
            at += size
        }
        return boxes
    }
}
