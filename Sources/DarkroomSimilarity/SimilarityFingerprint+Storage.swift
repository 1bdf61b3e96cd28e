extension SimilarityFingerprint {
    /// The version byte of the stored form.
    static let storageVersion: UInt8 = 1
    /// The stored form's length: version, brightness, then each framing's two hashes.
    public static let storedLength = 2 + 16 * (1 + cropCount)

    /// The fingerprint as 98 bytes, for a catalog's blob column: version 1, brightness, then the
    /// whole frame's and each crop's perceptual hash and detail hash (8 bytes each, little-endian).
    public var storedBytes: [UInt8] {
        var bytes: [UInt8] = [Self.storageVersion, brightness]
        bytes.reserveCapacity(Self.storedLength)
        for framing in [whole] + crops {
            for value in [framing.hash.bits, framing.detail.bits] {
                for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
            }
        }
        return bytes
    }

    /// Reads `storedBytes`; throws on any other length or version.
    public init(storedBytes bytes: [UInt8]) throws {
        guard bytes.count == Self.storedLength else {
            throw SimilarityError.malformedFingerprint("expected \(Self.storedLength) bytes, got \(bytes.count)")
        }
        guard bytes[0] == Self.storageVersion else {
            throw SimilarityError.malformedFingerprint("unknown version \(bytes[0])")
        }
        let word = { (index: Int) in
            PerceptualHash(bits: (0..<8).reduce(UInt64(0)) { value, byte in value | UInt64(bytes[2 + 8 * index + byte]) << UInt64(8 * byte) })
        }
        let framings = (0...Self.cropCount).map { Framing(hash: word(2 * $0), detail: word(2 * $0 + 1)) }
        try self.init(whole: framings[0], crops: Array(framings.dropFirst()), brightness: bytes[1])
    }
}
