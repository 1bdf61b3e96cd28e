/// Finds every pair of near-duplicate fingerprints without comparing all pairs: a multi-index
/// hash join (see `HashTables`) of the photos' whole-frame perceptual hashes against all their
/// perceptual hashes (whole frame and crops) within `SimilarityFingerprint.maximumDistance` bits,
/// then `nearDuplicateDistance` (detail hash and brightness) on the pairs found.
public struct NearDuplicateIndex<ID: Hashable & Sendable>: Sendable {
    /// A pair of near-duplicates: positions in `ids`, `first < second`, and their hash distance.
    public struct Pair: Hashable, Sendable {
        /// The lower position.
        public var first: Int
        /// The higher position.
        public var second: Int
        /// `SimilarityFingerprint.nearDuplicateDistance` of the two.
        public var distance: Int
    }

    /// The photos, in the order given.
    public let ids: [ID]
    /// Their fingerprints, in the same order.
    public let fingerprints: [SimilarityFingerprint]

    /// Indexes `entries` (photos without a fingerprint are simply not given).
    public init(_ entries: [(id: ID, fingerprint: SimilarityFingerprint)]) {
        ids = entries.map(\.id)
        fingerprints = entries.map(\.fingerprint)
    }

    /// Every pair of near-duplicates (`SimilarityFingerprint.nearDuplicateDistance`), each once,
    /// sorted by positions.
    public func pairs() -> [Pair] {
        let queries = fingerprints.enumerated().map { (hash: $1.hash.bits, owner: Int32($0)) }
        var entries: [(hash: UInt64, owner: Int32)] = []
        entries.reserveCapacity(fingerprints.count * (1 + SimilarityFingerprint.cropCount))
        for (position, fingerprint) in fingerprints.enumerated() {
            entries.append((fingerprint.hash.bits, Int32(position)))
            for crop in fingerprint.crops { entries.append((crop.hash.bits, Int32(position))) }
        }
        // Each hit as (lower position, higher position) in one word, sorted, each pair once.
        var pairs = HashTables.join(queries: queries, entries: entries, radius: SimilarityFingerprint.maximumDistance).map { hit in
            let (a, b) = (hit >> 32, hit & 0xFFFF_FFFF)
            return min(a, b) << 32 | max(a, b)
        }
        pairs.sort()
        var result: [Pair] = []
        for (index, pair) in pairs.enumerated() where index == 0 || pairs[index - 1] != pair {
            let (first, second) = (Int(pair >> 32), Int(pair & 0xFFFF_FFFF))
            if let distance = fingerprints[first].nearDuplicateDistance(to: fingerprints[second]) {
                result.append(Pair(first: first, second: second, distance: distance))
            }
        }
        return result
    }
}
