/// How one photo of a sequence was aligned.
public struct SceneAlignment: Sendable, Equatable {
    /// What the photo was matched against.
    public enum Anchor: String, Sendable, Codable {
        /// The first photo: it is the reference itself.
        case reference
        /// The previous aligned photo (the usual case: the scene changes slowly).
        case previous
        /// The first photo, because matching the previous one failed or had drifted from the first.
        case first
    }

    /// The photo onto the reference (the first photo), in normalised coordinates.
    public var transform: SimilarityTransform
    /// What the photo was matched against.
    public var anchor: Anchor
    /// Features that agreed on the transform (for the first photo: features found).
    public var matches: Int
    /// Whether the sub-pixel refinement converged and was kept (else the feature estimate is used).
    public var refined: Bool
    /// How far, in working-image pixels, the chain of previous photos and a direct match with the first
    /// photo disagreed (nil when there was no direct match to compare with).
    public var drift: Double?
}

/// Aligns a hand-held sequence onto its first photo, one grey working image at a time, on what stays put.
///
/// Each photo is matched to the previous aligned one (ORB features, RANSAC similarity, then ECC to
/// sub-pixel over the pixels that did not change), so a subject that grows or a light that shifts from
/// photo to photo does not break the chain. Each photo is also matched directly against the first: when
/// the chain has drifted from it by more than `Options.driftTolerance`, the photo is re-anchored on the
/// first. A photo that cannot be aligned throws an `AlignmentError` and leaves the sequence as it was.
///
/// Not thread-safe: one aligner per sequence, used from one thread at a time.
public final class SceneAligner {
    /// Tuning; the defaults suit working images with a long edge of about 1024 pixels.
    public struct Options: Sendable, Hashable {
        /// ORB features looked for in each photo.
        public var maxFeatures = 800
        /// Features are looked for on a copy of the working image with at most this long edge.
        public var featureLongEdge = 512
        /// Matches that must agree for a photo to count as aligned.
        public var minimumMatches = 30
        /// How far a photo may have to move.
        public var limits = AlignmentLimits()
        /// Whether to refine the feature estimate to sub-pixel accuracy (ECC).
        public var refine = true
        /// The refinement works on a copy with at most this long edge (from 400 up, after a pass at half of it).
        public var refineLongEdge = 256
        /// RANSAC's tolerance, as a fraction of the working image's long edge (2.5 pixels of 1024).
        public var matchTolerance = 0.0025
        /// The chain may drift this far from a direct match with the first photo (a fraction of the long edge).
        public var driftTolerance = 0.0015

        public init() {}
    }

    private struct Aligned {
        let frame: NativeFrame
        let transform: SimilarityTransform
    }

    /// The options in use.
    public let options: Options
    private var first: Aligned?
    private var previous: Aligned?

    /// Throws `AlignmentError.notStarted` when `AlignmentRuntime.start(threads:)` has not run.
    public init(options: Options = Options()) throws {
        _ = try AlignmentRuntime.requireStarted()
        self.options = options
    }

    /// Aligns the next photo of the sequence: the first becomes the reference, every later one is mapped
    /// onto it. Throws an `AlignmentError` with the reason when the photo cannot be aligned.
    public func align(_ image: GreyImage) throws -> SceneAlignment {
        let frame = try NativeFrame(image, maxFeatures: options.maxFeatures,
                                    featureScale: min(1, Double(options.featureLongEdge) / Double(image.size.longEdge)))
        guard frame.featureCount >= options.minimumMatches else {
            throw AlignmentError.tooFewFeatures(found: frame.featureCount, needed: options.minimumMatches)
        }
        guard let first, let previous else {
            let aligned = Aligned(frame: frame, transform: .identity)
            (self.first, self.previous) = (aligned, aligned)
            return SceneAlignment(transform: .identity, anchor: .reference, matches: frame.featureCount, refined: false, drift: nil)
        }
        let alignment = try bestAlignment(of: frame, first: first, previous: previous)
        self.previous = Aligned(frame: frame, transform: alignment.transform)
        return alignment
    }

    private func bestAlignment(of frame: NativeFrame, first: Aligned, previous: Aligned) throws -> SceneAlignment {
        var failure: Error?
        var chained: SceneAlignment?
        do {
            let step = try match(frame, onto: previous.frame)
            let refined = try refine(frame, onto: previous.frame, step)
            chained = SceneAlignment(transform: refined.transform.then(previous.transform), anchor: .previous,
                                     matches: step.inliers, refined: refined.refined, drift: nil)
            try options.limits.check(chained!.transform, reference: first.frame.size)
        } catch let error as AlignmentError {
            failure = error
            chained = nil
        }
        guard previous.frame !== first.frame else {
            if let chained { return chained }
            throw failure ?? AlignmentError.tooFewMatches(found: 0, needed: options.minimumMatches)
        }
        let direct = try? match(frame, onto: first.frame)
        var drift: Double?
        if var chained, let direct {
            let apart = chained.transform.cornerDistance(to: direct.transform, photo: frame.size)
            drift = apart * Double(first.frame.size.longEdge)
            chained.drift = drift
            if apart <= options.driftTolerance { return chained }
        } else if let chained {
            return chained
        }
        guard let direct else { throw failure ?? AlignmentError.tooFewMatches(found: 0, needed: options.minimumMatches) }
        let refined = try refine(frame, onto: first.frame, direct)
        let alignment = SceneAlignment(transform: refined.transform, anchor: .first, matches: direct.inliers,
                                       refined: refined.refined, drift: drift)
        try options.limits.check(alignment.transform, reference: first.frame.size)
        return alignment
    }

    /// A feature match: the photo onto `reference`, normalised, and the OpenCV pixel transform it came from.
    private struct Match {
        var transform: SimilarityTransform
        var openCV: SimilarityTransform
        var inliers: Int
    }

    private func match(_ photo: NativeFrame, onto reference: NativeFrame) throws -> Match {
        let estimate = try photo.estimate(onto: reference, threshold: options.matchTolerance * Double(reference.size.longEdge))
        guard let found = estimate.transform, estimate.inliers >= options.minimumMatches else {
            throw AlignmentError.tooFewMatches(found: estimate.inliers, needed: options.minimumMatches)
        }
        return Match(transform: .normalised(openCV: found, source: photo.size, target: reference.size), openCV: found,
                     inliers: estimate.inliers)
    }

    /// The match refined by ECC when that converges near it; otherwise the match itself.
    private func refine(_ photo: NativeFrame, onto reference: NativeFrame, _ match: Match) throws -> (transform: SimilarityTransform, refined: Bool) {
        guard options.refine,
              let refinement = try photo.refine(onto: reference, initial: match.openCV,
                                                scale: min(1, Double(options.refineLongEdge) / Double(photo.size.longEdge))),
              refinement.coverage > 0.2 else { return (match.transform, false) }
        let transform = SimilarityTransform.normalised(openCV: refinement.transform, source: photo.size, target: reference.size)
        // ECC climbs to the nearest optimum: far from the features' answer, it found another one.
        let moved = transform.cornerDistance(to: match.transform, photo: photo.size)
        return moved <= 2 * options.matchTolerance ? (transform, true) : (match.transform, false)
    }
}

extension SimilarityTransform {
    /// The largest distance (normalised) the corners of a photo of `photo` size land apart under the two.
    func cornerDistance(to other: SimilarityTransform, photo: PixelSize) -> Double {
        let long = Double(photo.longEdge)
        return cornerDistance(to: other, width: Double(photo.width) / long, height: Double(photo.height) / long)
    }
}
