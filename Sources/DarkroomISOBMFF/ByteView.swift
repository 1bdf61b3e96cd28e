/// Bounds-checked integer reads from a byte buffer: every read returns nil instead of trapping
/// when it would leave the buffer, so hostile lengths and offsets cannot crash a parser.
public struct ByteView: Sendable {
    /// The bytes read.
    public let bytes: [UInt8]

    /// A view of `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// How many bytes there are.
    public var count: Int { bytes.count }

    /// `length` bytes at `offset`, or nil when any is out of bounds.
    public func slice(_ offset: Int, _ length: Int) -> ArraySlice<UInt8>? {
        guard offset >= 0, length >= 0, offset <= bytes.count, length <= bytes.count - offset else { return nil }
        return bytes[offset..<offset + length]
    }

    /// Whether the bytes at `offset` are `expected`.
    public func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        slice(offset, expected.count).map { $0.elementsEqual(expected) } ?? false
    }

    /// Whether the bytes at `offset` are the four-character code `code`.
    public func matches(_ code: FourCC, at offset: Int) -> Bool { matches(code.bytes, at: offset) }

    /// The four-character code at `offset`.
    public func fourCC(at offset: Int) -> FourCC? { slice(offset, 4).flatMap(FourCC.init) }

    /// An unsigned big-endian integer of `width` bytes (1...8) at `offset`.
    public func bigEndian(_ offset: Int, width: Int) -> UInt64? {
        guard (1...8).contains(width), let field = slice(offset, width) else { return nil }
        return field.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// An unsigned little-endian integer of `width` bytes (1...8) at `offset`.
    public func littleEndian(_ offset: Int, width: Int) -> UInt64? {
        guard (1...8).contains(width), let field = slice(offset, width) else { return nil }
        return field.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A byte at `offset`.
    public func uint8(_ offset: Int) -> UInt64? { bigEndian(offset, width: 1) }
    /// A big-endian 16-bit integer at `offset`.
    public func uint16BE(_ offset: Int) -> UInt64? { bigEndian(offset, width: 2) }
    /// A big-endian 32-bit integer at `offset`.
    public func uint32BE(_ offset: Int) -> UInt64? { bigEndian(offset, width: 4) }
    /// A big-endian 64-bit integer at `offset`.
    public func uint64BE(_ offset: Int) -> UInt64? { bigEndian(offset, width: 8) }
    /// A little-endian 16-bit integer at `offset`.
    public func uint16LE(_ offset: Int) -> UInt64? { littleEndian(offset, width: 2) }
    /// A little-endian 32-bit integer at `offset`.
    public func uint32LE(_ offset: Int) -> UInt64? { littleEndian(offset, width: 4) }

    /// The bytes from `offset` up to (not including) the first NUL or the end, as UTF-8, and where
    /// they end (the NUL's index, or the count).
    public func cString(_ offset: Int) -> (text: String, end: Int)? {
        guard offset >= 0, offset <= bytes.count else { return nil }
        let end = bytes[offset...].firstIndex(of: 0) ?? bytes.count
        return (String(decoding: bytes[offset..<end], as: UTF8.self), end)
    }
}

/// Big-endian fields appended to a byte buffer, for writing boxes.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    /// Appends `value` in `width` bytes (1...8), most significant first.
    mutating func append(_ value: UInt64, width: Int) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// Appends raw bytes.
    mutating func append(_ raw: some Sequence<UInt8>) { bytes.append(contentsOf: raw) }

    /// Appends a four-character code.
    mutating func append(_ code: FourCC) { bytes.append(contentsOf: code.bytes) }

    /// Appends text and its terminating NUL.
    mutating func appendCString(_ text: String) { bytes.append(contentsOf: Array(text.utf8) + [0]) }

    /// A whole box: a 32-bit size (a 64-bit one when needed), `type`, then `payload`.
    static func box(_ type: FourCC, _ payload: [UInt8]) -> [UInt8] {
        var writer = ByteWriter()
        if payload.count + 8 <= Int(UInt32.max) {
            writer.append(UInt64(payload.count + 8), width: 4)
            writer.append(type)
        } else {
            writer.append(1, width: 4)
            writer.append(type)
            writer.append(UInt64(payload.count + 16), width: 8)
        }
        writer.append(payload)
        return writer.bytes
    }

    /// A full box: a box whose payload starts with a version byte and 24 bits of flags.
    static func fullBox(_ type: FourCC, version: UInt8, flags: UInt32, _ payload: [UInt8]) -> [UInt8] {
        var header = ByteWriter()
        header.append(UInt64(version), width: 1)
        header.append(UInt64(flags & 0xFF_FFFF), width: 3)
        return box(type, header.bytes + payload)
    }
}
