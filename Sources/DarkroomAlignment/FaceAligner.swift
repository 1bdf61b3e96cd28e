/// How one portrait was aligned.
public struct FaceAlignment: Sendable, Equatable {
    /// Where the eye centres came from.
    public enum EyeSource: String, Sendable, Codable {
        /// The eye cascades found both eyes within the face.
        case detected
        /// One eye was found; the other is its mirror image across the middle of the face box.
        case oneDetected
        /// No eye was found (closed, glasses, turned): both are placed at fixed proportions of the face box.
        case faceProportions
    }

    /// The photo (normalised) onto the output frame (normalised: see `FaceAligner.Options.frameAspectRatio`).
    public var transform: SimilarityTransform
    /// The face used, in the photo's normalised coordinates.
    public var face: Rect2D
    /// The eye on the left of the picture (the subject's right eye), normalised.
    public var leftEye: Point2D
    /// The eye on the right of the picture, normalised.
    public var rightEye: Point2D
    /// Where the eyes came from.
    public var eyes: EyeSource
    /// Whether the face was then matched to the first photo's face to sub-pixel accuracy (the eyes given
    /// are then where the first photo's eyes land in this one).
    public var refined: Bool
    /// How many faces the photo shows (the largest, or the one nearest the previous photo's, is used).
    public var facesFound: Int
}

/// Aligns portraits so that the eyes land at fixed places of the output frame (a face over a year).
///
/// OpenCV's Haar cascades from Debian's `opencv-data` find the faces: the first photo uses the largest,
/// each later photo the one nearest the previous photo's face. The eye cascades then look for the eyes
/// in the face's upper half (both eyes, then each eye on its own); an eye not found is mirrored from the
/// other, or both are placed at fixed proportions of the face box, and the result says which. The first
/// photo's eyes are mapped onto `eyeTargets`; each later face is mapped onto the first photo's face by
/// ECC over the face (started from the face boxes), so that the detectors' jitter of a few pixels does
/// not make the eyes wobble; when that fails, its own eyes are mapped onto the first photo's. A photo
/// without a face throws `AlignmentError.noFace`.
///
/// Not thread-safe: one aligner per sequence, used from one thread at a time.
public final class FaceAligner {
    /// Where the eyes go, and which faces count.
    public struct Options: Sendable, Hashable {
        /// The output frame's width divided by its height.
        public var frameAspectRatio = 1.0
        /// The eyes' height in the frame, as a fraction of the frame's height from the top.
        public var eyeLine = 0.42
        /// The distance between the eye centres, as a fraction of the frame's width.
        public var eyeDistance = 0.28
        /// The smallest face looked for, as a fraction of the working image's short edge.
        public var minimumFace = 0.08
        /// Whether to refine each face onto the first photo's (ECC over the face).
        public var refine = true
        /// How far the photo may have to turn or scale to put the eyes in place.
        /// (The face may be anywhere in the photo, so the shift is not limited.)
        public var limits = AlignmentLimits(maxShift: 1000, maxRotation: 30, scale: 0.1...20)

        public init() {}
    }

    /// Eye centres as fractions of the face box when the eye cascades do not find them.
    static let eyeProportions = (left: Point2D(x: 0.31, y: 0.39), right: Point2D(x: 0.69, y: 0.39))

    private struct Reference {
        let image: GreyImage
        /// Eye centres, pixels.
        let eyes: (Point2D, Point2D)
        /// The face, pixels.
        let face: Rect2D
        /// The reference's normalised coordinates onto the frame's.
        let transform: SimilarityTransform
    }

    /// The options in use.
    public let options: Options
    private let cascades: (face: NativeCascade, eyes: NativeCascade, pictureLeftEye: NativeCascade, pictureRightEye: NativeCascade)
    private var reference: Reference?
    private var previousFace: Point2D?

    /// Loads the cascades; throws `AlignmentError.notStarted` when `AlignmentRuntime.start(threads:)` has not run, and
    /// `missingCascade` (naming the file) when one cannot be loaded.
    public init(options: Options = Options()) throws {
        let started = try AlignmentRuntime.requireStarted()
        let names = AlignmentRuntime.cascadeNames
        self.options = options
        cascades = (try NativeCascade(path: started.cascade(names.face)), try NativeCascade(path: started.cascade(names.eyes)),
                    try NativeCascade(path: started.cascade(names.pictureLeftEye)),
                    try NativeCascade(path: started.cascade(names.pictureRightEye)))
    }

    /// The frame's target positions of the eyes (normalised frame coordinates).
    public var eyeTargets: (left: Point2D, right: Point2D) {
        let aspect = options.frameAspectRatio
        let width = aspect >= 1 ? 1 : aspect, height = aspect >= 1 ? 1 / aspect : 1
        let y = (options.eyeLine - 0.5) * height, half = options.eyeDistance * width / 2
        return (Point2D(x: -half, y: y), Point2D(x: half, y: y))
    }

    /// Finds the face and its eyes and maps the eyes onto `eyeTargets`.
    public func align(_ image: GreyImage) throws -> FaceAlignment {
        let minimum = Double(min(image.width, image.height)) * options.minimumFace
        let whole = Rect2D(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        let found = try cascades.face.detect(in: image, region: whole, minimumSize: minimum, minimumNeighbours: 4)
        // Boxes are in continuous pixel coordinates: a box at x, w wide covers [x, x + w).
        let toNormalised = SimilarityTransform.normalising(image.size)
        guard let face = choose(found, toNormalised: toNormalised) else { throw AlignmentError.noFace(minimumSize: Int(minimum)) }
        let (left, right, source) = try eyeCentres(in: face, image: image)

        var photoToReference = SimilarityTransform.identity  // pixels
        var refined = false
        if let reference {
            guard let byEyes = SimilarityTransform.mapping((left, right), onto: reference.eyes) else {
                throw AlignmentError.implausibleTransform("the two eyes were found at the same place")
            }
            photoToReference = byEyes
            // The face boxes give a start that does not depend on finding the eyes; ECC over the face does the rest.
            let byBoxes = SimilarityTransform(dx: -face.centre.x, dy: -face.centre.y)
                .then(SimilarityTransform(scale: reference.face.width / face.width))
                .then(SimilarityTransform(dx: reference.face.centre.x, dy: reference.face.centre.y))
            if options.refine, let better = try refineOnReference(image, reference: reference, initial: byBoxes) {
                (photoToReference, refined) = (better, true)
            }
        } else {
            let eyes = (toNormalised.apply(left), toNormalised.apply(right))
            guard let transform = SimilarityTransform.mapping(eyes, onto: eyeTargets) else {
                throw AlignmentError.implausibleTransform("the two eyes were found at the same place")
            }
            reference = Reference(image: image, eyes: (left, right), face: face, transform: transform)
        }
        let reference = reference!
        let transform = toNormalised.inverse.then(photoToReference).then(.normalising(reference.image.size)).then(reference.transform)
        try options.limits.check(transform, reference: PixelSize(width: Int(options.frameAspectRatio * 1000), height: 1000))
        let eyes = refined ? (photoToReference.inverse.apply(reference.eyes.0), photoToReference.inverse.apply(reference.eyes.1)) : (left, right)
        let corner = toNormalised.apply(Point2D(x: face.x, y: face.y))
        previousFace = toNormalised.apply(face.centre)
        return FaceAlignment(transform: transform,
                             face: Rect2D(x: corner.x, y: corner.y, width: face.width * toNormalised.scale, height: face.height * toNormalised.scale),
                             leftEye: toNormalised.apply(eyes.0), rightEye: toNormalised.apply(eyes.1), eyes: source,
                             refined: refined, facesFound: found.count)
    }

    /// The largest face, or (after the first photo) the one nearest the previous photo's among those at
    /// least half as wide as the largest.
    private func choose(_ found: [Rect2D], toNormalised: SimilarityTransform) -> Rect2D? {
        guard let largest = found.first else { return nil }
        guard let previousFace else { return largest }
        return found.filter { $0.width >= largest.width / 2 }
            .min { toNormalised.apply($0.centre).distance(to: previousFace) < toNormalised.apply($1.centre).distance(to: previousFace) }
    }

    /// `initial` refined so that the reference's face (with a margin) matches this photo; nil when ECC does
    /// not converge, matches poorly, or moves the face more than a quarter of its width from `initial`.
    private func refineOnReference(_ image: GreyImage, reference: Reference, initial: SimilarityTransform) throws -> SimilarityTransform? {
        let face = reference.face, margin = 0.1 * face.width
        let region = Rect2D(x: face.x - margin, y: face.y - margin, width: face.width + 2 * margin, height: face.height + 2 * margin)
        guard let (refined, correlation) = try refineRegion(photo: image, reference: reference.image, region: region, initial: initial),
              correlation > 0.5 else { return nil }
        let moved = refined.inverse.apply(face.centre).distance(to: initial.inverse.apply(face.centre)) * initial.scale
        return moved <= 0.25 * face.width ? refined : nil
    }

    /// The eye centres (pixels) within `face`: candidates from the eye cascade and from each eye's own
    /// cascade in the face's upper half; the pair most like a pair of eyes (about 0.36 of the face apart,
    /// level, near where eyes sit in a face box) wins. With one side empty the other eye is mirrored across
    /// the face's middle; with none, both are placed by `eyeProportions`.
    private func eyeCentres(in face: Rect2D, image: GreyImage) throws -> (Point2D, Point2D, FaceAlignment.EyeSource) {
        let expected = (point(in: face, Self.eyeProportions.left), point(in: face, Self.eyeProportions.right))
        let band = Rect2D(x: face.x, y: face.y + 0.15 * face.height, width: face.width, height: 0.45 * face.height)
        let middle = face.centre.x, side = 0.6 * face.width
        func search(_ cascade: NativeCascade, in region: Rect2D, neighbours: Int) throws -> [Point2D] {
            try cascade.detect(in: image, region: region, minimumSize: 0.12 * face.width, maximumSize: 0.4 * face.width,
                               scaleStep: 1.05, minimumNeighbours: neighbours).map(\.centre)
        }
        let both = try search(cascades.eyes, in: band, neighbours: 2)
        let lefts = (both + (try search(cascades.pictureLeftEye, in: Rect2D(x: band.x, y: band.y, width: side, height: band.height),
                                        neighbours: 2))).filter { $0.x < middle }
        let rights = (both + (try search(cascades.pictureRightEye, in: Rect2D(x: band.x + band.width - side, y: band.y, width: side,
                                                                              height: band.height), neighbours: 2))).filter { $0.x >= middle }
        let w = face.width
        var pairs: [(Point2D, Point2D)] = []
        for l in lefts {
            for r in rights where (0.26 * w...0.45 * w).contains(r.x - l.x) && abs(r.y - l.y) <= 0.12 * w { pairs.append((l, r)) }
        }
        func cost(_ pair: (Point2D, Point2D)) -> Double {
            let (l, r) = pair
            let spacing: Double = abs((r.x - l.x) / w - 0.36)
            let tilt: Double = 2 * abs(r.y - l.y) / w
            let placement: Double = 0.5 * (l.distance(to: expected.0) + r.distance(to: expected.1)) / w
            return spacing + tilt + placement
        }
        if let best = pairs.min(by: { cost($0) < cost($1) }) { return (best.0, best.1, .detected) }
        let left = lefts.min { $0.distance(to: expected.0) < $1.distance(to: expected.0) }
        let right = rights.min { $0.distance(to: expected.1) < $1.distance(to: expected.1) }
        switch (left, right) {
        case let (left?, right?):
            // No plausible pair: keep the eye nearer its expected place and mirror it.
            return left.distance(to: expected.0) <= right.distance(to: expected.1)
                ? (left, Point2D(x: 2 * middle - left.x, y: left.y), .oneDetected)
                : (Point2D(x: 2 * middle - right.x, y: right.y), right, .oneDetected)
        case let (left?, nil):
            return (left, Point2D(x: 2 * middle - left.x, y: left.y), .oneDetected)
        case let (nil, right?):
            return (Point2D(x: 2 * middle - right.x, y: right.y), right, .oneDetected)
        case (nil, nil):
            return (expected.0, expected.1, .faceProportions)
        }
    }

    private func point(in box: Rect2D, _ proportion: Point2D) -> Point2D {
        Point2D(x: box.x + proportion.x * box.width, y: box.y + proportion.y * box.height)
    }
}
