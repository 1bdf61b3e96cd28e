import DarkroomModel

/// One row of `similarity`: what the import learned of a photo for finding its near-duplicates and
/// bursts (`SimilarityFacts`), by content hash, as every store keeps it.
public struct SimilarityRow: Sendable, Hashable {
    public var contentHash: String
    public var facts: SimilarityFacts

    /// The row of `facts` for the photo with `contentHash`.
    public init(contentHash: String, facts: SimilarityFacts) {
        self.contentHash = contentHash
        self.facts = facts
    }

    /// The fingerprint column: lower-case hex (empty for a photo with nothing to hash), NULL when not computed.
    public var fingerprintHex: String? {
        facts.fingerprint.map { bytes in String(decoding: bytes.flatMap { [Self.hexDigits[Int($0 >> 4)], Self.hexDigits[Int($0 & 15)]] }, as: UTF8.self) }
    }

    /// A row from its columns; a fingerprint column that is not hex is read as not computed (the
    /// next `darkroom duplicates` computes it again).
    public init(contentHash: String, fingerprintHex: String?, sharpness: Double?, burstSource: String?, burstIdentifier: String?, burstPrimary: Bool) {
        let burst = burstSource.flatMap(BurstMark.Source.init(rawValue:)).flatMap { source in
            burstIdentifier.map { BurstMark(source: source, identifier: $0, isPrimary: burstPrimary) }
        }
        self.init(contentHash: contentHash,
                  facts: SimilarityFacts(fingerprint: fingerprintHex.flatMap(Self.bytes(hex:)), sharpness: sharpness, burst: burst))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(of: digits[index]), let low = value(of: digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// What burst grouping needs of a catalogued photo, read without its capture date's JSON or its
/// fingerprint: the original's path (its name and folder), the camera, the burst the camera wrote and
/// the thumbnail's sharpness.
public struct BurstFacts: Sendable, Hashable {
    public var contentHash: String
    public var originalPath: String
    public var camera: String?
    public var burst: BurstMark?
    public var sharpness: Double?

    /// A photo's values (see each property).
    public init(contentHash: String, originalPath: String, camera: String?, burst: BurstMark?, sharpness: Double?) {
        self.contentHash = contentHash
        self.originalPath = originalPath
        self.camera = camera
        self.burst = burst
        self.sharpness = sharpness
    }

    /// The values from their columns (`burst_source`, `burst_id`, `burst_primary` of `similarity`).
    public init(contentHash: String, originalPath: String, camera: String?, burstSource: String?, burstIdentifier: String?,
                burstPrimary: Bool?, sharpness: Double?) {
        let burst = burstSource.flatMap(BurstMark.Source.init(rawValue:)).flatMap { source in
            burstIdentifier.map { BurstMark(source: source, identifier: $0, isPrimary: burstPrimary ?? false) }
        }
        self.init(contentHash: contentHash, originalPath: originalPath, camera: camera, burst: burst, sharpness: sharpness)
    }
}
