/// What the import learns of a photo for finding its near-duplicates and bursts (`darkroom
/// duplicates`, `bursts: pick`): its thumbnail's fingerprint and sharpness (from the decode that
/// makes the thumbnail) and the burst its camera says it belongs to. Each part is nil when no step
/// of the run looked, so what a run did not learn never erases what the catalog has.
public struct SimilarityFacts: Sendable, Codable, Hashable {
    /// `SimilarityFingerprint.storedBytes` of the thumbnail; empty when the thumbnail was too
    /// small or featureless to hash (nothing to compare), nil when not computed.
    public var fingerprint: [UInt8]?
    /// The variance of the thumbnail's Laplacian (its focus), for choosing a burst's pick.
    public var sharpness: Double?
    /// The burst the camera wrote into the photo's metadata (none when it wrote none).
    public var burst: BurstMark?

    /// Facts with the parts given (nil: not looked at).
    public init(fingerprint: [UInt8]? = nil, sharpness: Double? = nil, burst: BurstMark? = nil) {
        self.fingerprint = fingerprint
        self.sharpness = sharpness
        self.burst = burst
    }

    /// Whether no part is known.
    public var isEmpty: Bool { fingerprint == nil && sharpness == nil && burst == nil }

    /// These facts updated by what a later run learned: each part known to `new` replaces this one's.
    public func merging(_ new: SimilarityFacts) -> SimilarityFacts {
        SimilarityFacts(fingerprint: new.fingerprint ?? fingerprint, sharpness: new.sharpness ?? sharpness, burst: new.burst ?? burst)
    }
}

/// A burst identifier a camera wrote: every frame of one burst carries the same one.
public struct BurstMark: Sendable, Codable, Hashable {
    /// Whose identifier.
    public enum Source: String, Sendable, Codable, CaseIterable {
        /// Apple's maker note (exiftool's `BurstUUID`).
        case apple
        /// Google Camera's XMP (`GCamera:BurstID`, `GCamera:BurstPrimary`).
        case google
    }

    /// Who wrote it.
    public var source: Source
    /// The identifier shared by the burst's frames.
    public var identifier: String
    /// Whether the camera marked this frame as the burst's primary (Google's `BurstPrimary`).
    public var isPrimary: Bool

    /// A mark `identifier` written by `source`.
    public init(source: Source, identifier: String, isPrimary: Bool = false) {
        self.source = source
        self.identifier = identifier
        self.isPrimary = isPrimary
    }
}
