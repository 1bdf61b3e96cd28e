/// A 64-bit perceptual hash (63 bits used): the signs of the 63 lowest-frequency DCT coefficients
/// of a 32 x 32 grey image (an 8 x 8 block without the DC term), each compared with their median,
/// so exactly 31 bits are set and two hashes always differ in an even number of bits.
///
/// Re-saving, recompressing, resizing and stripping metadata move few bits (at most 8 in 99 % of
/// the corpus' copies); different photos differ in about 32. Encoded as 16 lowercase hex digits.
public struct PerceptualHash: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Bit `8u + v - 1` is set when the coefficient of vertical frequency `u` and horizontal
    /// frequency `v` is above the median; bit 63 is always clear.
    public let bits: UInt64

    /// Wraps stored bits.
    public init(bits: UInt64) { self.bits = bits }

    /// The number of bits that differ (0...63).
    @inline(__always)
    public func distance(to other: PerceptualHash) -> Int { (bits ^ other.bits).nonzeroBitCount }

    /// 16 lowercase hex digits.
    public var description: String {
        let hex = String(bits, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Reads 16 hex digits; nil otherwise.
    public init?(hex: String) {
        guard hex.count == 16, let value = UInt64(hex, radix: 16) else { return nil }
        bits = value
    }

    /// Orders by the bits as a number (for sorted output).
    public static func < (a: PerceptualHash, b: PerceptualHash) -> Bool { a.bits < b.bits }
}

extension PerceptualHash: Codable {
    /// Decodes 16 hex digits; throws on anything else.
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let hash = PerceptualHash(hex: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected 16 hex digits, got '\(text)'"))
        }
        self = hash
    }

    /// Encodes as 16 hex digits.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
