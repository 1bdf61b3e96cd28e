/// One box of an ISO base media file (HEIF, AVIF, MP4, QuickTime), from its header: sizes checked,
/// walks bounded.
///
/// A box is a 32-bit size, a four-character type, and with size 1 a 64-bit size after the type;
/// size 0 runs to the end of the container. Headers that cannot be one (a size smaller than the
/// header, a type that is not printable at the top level) end a walk instead of being trusted.
public struct ISOBox: Equatable, Sendable {
    /// The four-character type (`ftyp`, `meta`, `mpvd`...).
    public var type: FourCC
    /// Where the box starts, relative to whatever was walked (the file, or a buffer).
    public var offset: UInt64
    /// The whole box, header included, as declared.
    public var size: UInt64
    /// 8, or 16 with a 64-bit size.
    public var headerLength: UInt64

    /// The box of `type` at `offset`, `size` bytes long with a header of `headerLength`.
    public init(type: FourCC, offset: UInt64, size: UInt64, headerLength: UInt64) {
        self.type = type
        self.offset = offset
        self.size = size
        self.headerLength = headerLength
    }

    /// Where the payload starts.
    public var payloadOffset: UInt64 { offset + headerLength }
    /// The payload's length as declared.
    public var payloadLength: UInt64 { size - headerLength }
    /// Where the box ends as declared (saturating: a hostile size cannot wrap around).
    public var end: UInt64 { offset.addingReportingOverflow(size).overflow ? .max : offset + size }

    /// How many boxes one walk lists at most (a hostile file cannot make it long).
    public static let defaultLimit = 4096

    /// Whether `header` (the first bytes of a file) starts an ISO base media file: an `ftyp` box first.
    public static func isISOBMFF(_ header: [UInt8]) -> Bool { ByteView(header).matches("ftyp", at: 4) }

    /// The header of the box at `offset` out of (up to) 16 bytes read there, `available` bytes being
    /// left in the container; nil when they do not make a box header (size 0 means "to the end").
    public static func header(_ bytes: [UInt8], at offset: UInt64, available: UInt64) -> ISOBox? {
        let view = ByteView(bytes)
        guard let size32 = view.uint32BE(0), let type = view.fourCC(at: 4) else { return nil }
        switch size32 {
        case 0:
            return available >= 8 ? ISOBox(type: type, offset: offset, size: available, headerLength: 8) : nil
        case 1:
            guard let size64 = view.uint64BE(8), size64 >= 16 else { return nil }
            return ISOBox(type: type, offset: offset, size: size64, headerLength: 16)
        default:
            guard size32 >= 8 else { return nil }
            return ISOBox(type: type, offset: offset, size: size32, headerLength: 8)
        }
    }

    /// The top-level boxes of `source`, header by header, at most `limit`. The walk stops at the
    /// first header that is not one (or whose type is not printable ASCII), and after a box that
    /// runs past the end (returned, so that callers can tell a truncated box from a missing one).
    public static func topLevel(of source: some ByteSource, limit: Int = defaultLimit) throws -> [ISOBox] {
        var boxes: [ISOBox] = []
        var position: UInt64 = 0
        while boxes.count < limit, position < source.size {
            guard let box = header(try source.read(at: position, count: 16), at: position, available: source.size - position),
                  box.type.isPrintable else { break }
            boxes.append(box)
            guard box.end < source.size else { break }
            position = box.end
        }
        return boxes
    }

    /// The boxes in `bytes[range]` (a payload read whole, such as a `meta` box's), at most `limit`,
    /// with offsets into `bytes`. The walk stops at the first header that is not one or that runs
    /// past the end of the range.
    public static func children(of bytes: [UInt8], in range: Range<Int>, limit: Int = defaultLimit) -> [ISOBox] {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return [] }
        var boxes: [ISOBox] = []
        var position = range.lowerBound
        while boxes.count < limit, position < range.upperBound {
            let available = UInt64(range.upperBound - position)
            guard let box = header(Array(bytes[position..<min(position + 16, range.upperBound)]), at: UInt64(position),
                                   available: available), box.size <= available else { break }
            boxes.append(box)
            position += Int(box.size)
        }
        return boxes
    }

    /// The payload's range in the buffer the box was found in (by `children(of:in:)`).
    public var payloadRange: Range<Int> { Int(payloadOffset)..<Int(end) }
}
