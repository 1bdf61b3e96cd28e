/// A forward reader over the map file's bytes: little-endian fields and LEB128 varints. Every read
/// returns nil instead of trapping when it would pass `end`, so a damaged file cannot crash a lookup.
struct ByteCursor {
    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int

    /// A cursor over `bytes[position..<end]` (`end` defaults to the whole array).
    init(_ bytes: [UInt8], at position: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        self.end = min(end ?? bytes.count, bytes.count)
        self.position = max(0, min(position, self.end))
    }

    /// An unsigned LEB128 integer of at most five bytes (below 2^35: every count, offset and
    /// coordinate in the file; anything longer is damage).
    mutating func varint() -> Int? {
        var value = 0
        var shift = 0
        while position < end, shift < 35 {
            let byte = bytes[position]
            position += 1
            value |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    /// A zigzag-encoded signed varint (0, 1, 2, 3 ... is 0, -1, 1, -2 ...).
    mutating func signedVarint() -> Int? {
        varint().map { ($0 >> 1) ^ -($0 & 1) }
    }

    /// A little-endian unsigned integer of `width` bytes.
    mutating func littleEndian(width: Int) -> Int? {
        guard let field = take(width) else { return nil }
        return field.reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    /// The next `count` bytes.
    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= end - position else { return nil }
        defer { position += count }
        return bytes[position..<position + count]
    }
}
