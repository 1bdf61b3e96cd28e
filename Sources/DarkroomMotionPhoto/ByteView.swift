/// Bounds-checked integer reads from a byte buffer: every read returns nil instead of trapping
/// when it would leave the buffer, so hostile lengths and offsets cannot crash a parser.
struct ByteView {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var count: Int { bytes.count }

    /// `length` bytes at `offset`, or nil when any is out of bounds.
    func slice(_ offset: Int, _ length: Int) -> ArraySlice<UInt8>? {
        guard offset >= 0, length >= 0, offset <= bytes.count, length <= bytes.count - offset else { return nil }
        return bytes[offset..<offset + length]
    }

    /// Whether the bytes at `offset` are `expected`.
    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        slice(offset, expected.count).map { $0.elementsEqual(expected) } ?? false
    }

    /// An unsigned big-endian integer of `width` bytes (1...8) at `offset`.
    func bigEndian(_ offset: Int, width: Int) -> UInt64? {
        guard (1...8).contains(width), let field = slice(offset, width) else { return nil }
        return field.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// An unsigned little-endian integer of `width` bytes (1...8) at `offset`.
    func littleEndian(_ offset: Int, width: Int) -> UInt64? {
        guard (1...8).contains(width), let field = slice(offset, width) else { return nil }
        return field.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    func uint16BE(_ offset: Int) -> UInt64? { bigEndian(offset, width: 2) }
    func uint32BE(_ offset: Int) -> UInt64? { bigEndian(offset, width: 4) }
    func uint64BE(_ offset: Int) -> UInt64? { bigEndian(offset, width: 8) }
    func uint16LE(_ offset: Int) -> UInt64? { littleEndian(offset, width: 2) }
    func uint32LE(_ offset: Int) -> UInt64? { littleEndian(offset, width: 4) }

    /// The bytes from `offset` up to (not including) the first NUL or the end, as UTF-8.
    func cString(_ offset: Int) -> (text: String, end: Int)? {
        guard offset >= 0, offset <= bytes.count else { return nil }
        let end = bytes[offset...].firstIndex(of: 0) ?? bytes.count
        return (String(decoding: bytes[offset..<end], as: UTF8.self), end)
    }
}

/// A four-character code as its ASCII bytes (`"ftyp"` -> `[0x66, 0x74, 0x79, 0x70]`).
func fourCC(_ code: String) -> [UInt8] { Array(code.utf8) }
