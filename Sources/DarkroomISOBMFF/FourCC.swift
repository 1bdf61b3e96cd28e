/// A four-character code naming a box or an item type (`ftyp`, `meta`, `Exif`, `mime`), kept as
/// its four bytes.
public struct FourCC: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The code as a big-endian integer: the four bytes in file order.
    public let value: UInt32

    /// The code whose four bytes are `bytes` (exactly four).
    public init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count == 4 else { return nil }
        value = bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// `"ftyp"`: four ASCII characters (a programming error otherwise).
    public init(stringLiteral text: StaticString) {
        let bytes = text.withUTF8Buffer { Array($0) }
        precondition(bytes.count == 4, "a four-character code has four ASCII characters")
        value = bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The four bytes, as written in a file.
    public var bytes: [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    /// Whether every byte is printable ASCII, as in every top-level box type files use.
    public var isPrintable: Bool { bytes.allSatisfy { (0x20...0x7E).contains($0) } }

    /// The code as text, with any byte that is not printable ASCII written `\xNN`.
    public var description: String {
        bytes.map { (0x20...0x7E).contains($0) ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined()
    }
}
