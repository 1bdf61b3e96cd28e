/// ISO base media file boxes (HEIF, MP4): headers read one at a time, sizes checked.
struct ISOBox: Equatable {
    /// The four-character type (`ftyp`, `meta`, `mpvd`...).
    var type: [UInt8]
    /// Where the box starts, relative to whatever was walked (the file, or a parent's payload).
    var offset: UInt64
    /// The whole box, header included, as declared.
    var size: UInt64
    /// 8, or 16 with a 64-bit size.
    var headerLength: UInt64

    var payloadOffset: UInt64 { offset + headerLength }
    var payloadLength: UInt64 { size - headerLength }

    /// Whether `header` starts an ISO base media file (an `ftyp` box first).
    static func isISOBMFF(_ header: [UInt8]) -> Bool { ByteView(header).matches(fourCC("ftyp"), at: 4) }

    /// The header of the box at `offset` out of 16 bytes read there, `available` bytes being left
    /// in the container; nil when they do not make a box header (size 0 means "to the end").
    static func header(_ bytes: [UInt8], at offset: UInt64, available: UInt64) -> ISOBox? {
        let view = ByteView(bytes)
        guard let size32 = view.uint32BE(0), let type = view.slice(4, 4) else { return nil }
        switch size32 {
        case 0:
            return available >= 8 ? ISOBox(type: Array(type), offset: offset, size: available, headerLength: 8) : nil
        case 1:
            guard let size64 = view.uint64BE(8), size64 >= 16 else { return nil }
            return ISOBox(type: Array(type), offset: offset, size: size64, headerLength: 16)
        default:
            guard size32 >= 8 else { return nil }
            return ISOBox(type: Array(type), offset: offset, size: size32, headerLength: 8)
        }
    }

    /// The top-level boxes of `file`, header by header. The walk stops at the first header that is
    /// not one, and after a box that runs past the end of the file (returned, so callers can tell
    /// a truncated box from a missing one).
    static func topLevel(of file: SourceFile, limit: Int = 4096) throws -> [ISOBox] {
        var boxes: [ISOBox] = []
        var position: UInt64 = 0
        while boxes.count < limit, position < file.size {
            guard let box = header(try file.read(at: position, count: 16), at: position, available: file.size - position)
            else { break }
            boxes.append(box)
            let (end, overflow) = position.addingReportingOverflow(box.size)
            guard !overflow, end < file.size else { break }
            position = end
        }
        return boxes
    }

    /// The boxes inside an in-memory payload (a `meta` box's children, say), starting at `start`.
    static func children(of bytes: [UInt8], from start: Int = 0, limit: Int = 4096) -> [ISOBox] {
        var boxes: [ISOBox] = []
        var position = start
        while boxes.count < limit, position < bytes.count {
            let available = UInt64(bytes.count - position)
            guard let box = header(Array(bytes[position..<min(position + 16, bytes.count)]), at: UInt64(position),
                                   available: available), box.size <= available else { break }
            boxes.append(box)
            position += Int(box.size)
        }
        return boxes
    }
}
