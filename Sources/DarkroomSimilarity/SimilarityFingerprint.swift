/// What the import stores of a photo to find its near-duplicates later, computed from a 64 x 64
/// grey copy of it (the thumbnail squeezed to a square, whatever its aspect ratio): the perceptual
/// hash and detail hash of the whole frame and of five crops, and the mean brightness.
///
/// Two photos are near-duplicates when, for one's whole frame against the other's whole frame or
/// one of its crops (either way round), the perceptual hashes are within `maximumDistance` bits and
/// the detail hashes within `maximumDetailDistance`, and their brightness differs by at most
/// `maximumBrightnessDifference`:
/// - the crops (96 % of each side: centre and corners) let a copy cropped by 1-5 % match its
///   original: the whole-frame hash alone moves up to 20 bits (99th percentile) for a 5 % crop, as
///   far as the nearest different photos of the corpus;
/// - the detail hash tells apart different photos whose coarse layout agrees (a bright sky over
///   a dark ground), which the 63 low frequencies cannot;
/// - the brightness keeps apart two exposures of one scene (HDR on and off) and dark frames with a
///   single bright spot.
/// See docs/duplicates.md for the measurements behind each limit.
public struct SimilarityFingerprint: Hashable, Sendable {
    /// The side of the grey copy a fingerprint is computed from.
    public static let side = 64
    /// The largest perceptual hash distance between near-duplicates.
    public static let maximumDistance = 8
    /// The largest detail hash distance between near-duplicates (at the same framing).
    public static let maximumDetailDistance = 14
    /// The largest difference of mean brightness (0...255) between near-duplicates.
    public static let maximumBrightnessDifference = 28
    /// Below this standard deviation of grey levels (0...255) a photo is featureless (a blank
    /// frame, a flat colour): its hash bits would be noise, so it gets no fingerprint.
    public static let minimumContrast = 2.0
    /// How many crops are hashed.
    public static let cropCount = 5
    /// The side of a crop, as a fraction of the frame's.
    static let cropScale = 0.96

    /// The hashes of one framing (the whole frame or a crop).
    public struct Framing: Hashable, Sendable {
        /// The perceptual hash: 63 lowest DCT frequencies.
        public var hash: PerceptualHash
        /// The detail hash: the 57 next frequencies (bits 0...56).
        public var detail: PerceptualHash

        /// Wraps stored hashes.
        public init(hash: PerceptualHash, detail: PerceptualHash) {
            self.hash = hash
            self.detail = detail
        }
    }

    /// The whole frame's hashes.
    public let whole: Framing
    /// The hashes of the five 96 % crops: centre, top-left, top-right, bottom-left, bottom-right.
    public let crops: [Framing]
    /// The mean grey level, 0...255.
    public let brightness: UInt8

    /// The perceptual hash of the whole frame.
    public var hash: PerceptualHash { whole.hash }

    /// Wraps stored values; `crops` must hold `cropCount` framings.
    public init(whole: Framing, crops: [Framing], brightness: UInt8) throws {
        guard crops.count == Self.cropCount else {
            throw SimilarityError.malformedFingerprint("expected \(Self.cropCount) crops, got \(crops.count)")
        }
        self.whole = whole
        self.crops = crops
        self.brightness = brightness
    }

    /// The fingerprint of a `side` x `side` grey copy; nil when the photo is featureless (flat, or
    /// a gradient so smooth that its hash bits are noise). Throws when the copy is not `side` x `side`.
    public static func make(from grey: GreyImage) throws -> SimilarityFingerprint? {
        guard grey.width == side, grey.height == side else {
            throw SimilarityError.wrongFingerprintSize(expected: side, width: grey.width, height: grey.height)
        }
        let full = AreaResample.region(of: grey, x: 0, y: 0, width: Double(side), height: Double(side), side: DCTHasher.side)
        let mean = full.reduce(0, +) / Double(full.count)
        let variance = full.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(full.count)
        guard variance.squareRoot() >= minimumContrast else { return nil }
        let whole = DCTHasher.hashes(full)
        guard whole.isStable else { return nil }
        let length = Double(side) * cropScale, slack = Double(side) - length
        let corners = [(slack / 2, slack / 2), (0, 0), (slack, 0), (0, slack), (slack, slack)]
        let crops = corners.map { x, y in
            let hashes = DCTHasher.hashes(AreaResample.region(of: grey, x: x, y: y, width: length, height: length, side: DCTHasher.side))
            return Framing(hash: hashes.hash, detail: hashes.detail)
        }
        let brightness = Double(grey.pixels.reduce(0) { $0 + Int($1) }) / Double(grey.pixels.count)
        return try SimilarityFingerprint(whole: Framing(hash: whole.hash, detail: whole.detail), crops: crops,
                                         brightness: UInt8(brightness.rounded()))
    }

    /// The closest framing of two photos: one's whole frame against the other's whole frame or a
    /// crop, either way round; the smallest perceptual hash distance, then the smallest detail distance.
    public func closestFraming(to other: SimilarityFingerprint) -> (distance: Int, detailDistance: Int) {
        var best = (distance: Int.max, detailDistance: Int.max)
        func consider(_ a: Framing, _ b: Framing) {
            let candidate = (distance: a.hash.distance(to: b.hash), detailDistance: a.detail.distance(to: b.detail))
            if candidate < best { best = candidate }
        }
        consider(whole, other.whole)
        for crop in other.crops { consider(whole, crop) }
        for crop in crops { consider(other.whole, crop) }
        return best
    }

    /// The perceptual hash distance of the closest framing (0...63).
    public func distance(to other: SimilarityFingerprint) -> Int { closestFraming(to: other).distance }

    /// Whether the brightness of the two differs by at most `maximumBrightnessDifference`.
    public func hasSimilarBrightness(to other: SimilarityFingerprint) -> Bool {
        abs(Int(brightness) - Int(other.brightness)) <= Self.maximumBrightnessDifference
    }

    /// The perceptual hash distance when the two are near-duplicates, nil when they are not.
    public func nearDuplicateDistance(to other: SimilarityFingerprint) -> Int? {
        guard hasSimilarBrightness(to: other) else { return nil }
        var best: Int?
        func consider(_ a: Framing, _ b: Framing) {
            let distance = a.hash.distance(to: b.hash)
            if distance <= Self.maximumDistance, a.detail.distance(to: b.detail) <= Self.maximumDetailDistance, distance < best ?? Int.max {
                best = distance
            }
        }
        consider(whole, other.whole)
        for crop in other.crops { consider(whole, crop) }
        for crop in crops { consider(other.whole, crop) }
        return best
    }
}
