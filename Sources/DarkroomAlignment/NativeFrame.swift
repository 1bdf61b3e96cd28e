internal import CAlignment

/// A grey photo and its features on the C++ side. Owns its `calign_frame` and frees it in `deinit`.
final class NativeFrame {
    private let pointer: OpaquePointer
    /// The photo's size in pixels.
    let size: PixelSize

    init(_ image: GreyImage, maxFeatures: Int, featureScale: Double) throws {
        var error = calign_error()
        var made: OpaquePointer?
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            calign_frame_create(pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width),
                                Int32(maxFeatures), featureScale, &made, &error)
        }
        try check(status, &error)
        guard let made else { throw AlignmentError.native("calign_frame_create returned no frame") }
        pointer = made
        size = image.size
    }

    deinit { calign_frame_free(pointer) }

    /// How many features were found.
    var featureCount: Int { Int(calign_frame_feature_count(pointer)) }

    /// What matching this photo's features against `reference`'s gave.
    struct Estimate {
        /// Photo pixels to reference pixels (OpenCV's coordinates: pixel centres at integers); nil with under 3 inliers.
        var transform: SimilarityTransform?
        var matches: Int
        var inliers: Int
    }

    /// The similarity mapping this photo onto `reference`, from features (RANSAC within `threshold` pixels).
    func estimate(onto reference: NativeFrame, threshold: Double) throws -> Estimate {
        var error = calign_error()
        var found = calign_similarity()
        var stats = calign_match_stats()
        try check(calign_estimate(pointer, reference.pointer, threshold, &found, &stats, &error), &error)
        let transform = stats.inliers >= 3 ? SimilarityTransform(a: found.a, b: found.b, tx: found.tx, ty: found.ty) : nil
        return Estimate(transform: transform, matches: Int(stats.matches), inliers: Int(stats.inliers))
    }

    /// What the sub-pixel refinement gave.
    struct Refinement {
        var transform: SimilarityTransform
        var correlation: Double
        var coverage: Double
    }

    /// `initial` (this photo to `reference`, OpenCV's pixel coordinates) refined by ECC on copies shrunk by
    /// `scale`; nil when it does not converge.
    func refine(onto reference: NativeFrame, initial: SimilarityTransform, scale: Double) throws -> Refinement? {
        var error = calign_error()
        var start = calign_similarity(a: initial.a, b: initial.b, tx: initial.dx, ty: initial.dy)
        var found = calign_similarity()
        var correlation = 0.0, coverage = 0.0
        let status = calign_refine(pointer, reference.pointer, &start, scale, &found, &correlation, &coverage, &error)
        if status == CALIGN_NOT_CONVERGED.rawValue { return nil }
        try check(status, &error)
        return Refinement(transform: SimilarityTransform(a: found.a, b: found.b, tx: found.tx, ty: found.ty),
                          correlation: correlation, coverage: coverage)
    }
}

extension SimilarityTransform {
    /// From OpenCV's pixel coordinates of an image of `size` (pixel centres at integers) to normalised ones.
    static func normalisingOpenCV(_ size: PixelSize) -> SimilarityTransform {
        SimilarityTransform(dx: 0.5, dy: 0.5).then(.normalising(size))
    }

    /// An OpenCV pixel transform between images of `source` and `target` size, made normalised.
    static func normalised(openCV transform: SimilarityTransform, source: PixelSize, target: PixelSize) -> SimilarityTransform {
        normalisingOpenCV(source).inverse.then(transform).then(normalisingOpenCV(target))
    }

    /// This normalised transform in OpenCV's pixel coordinates, between images of `source` and `target` size.
    func openCV(source: PixelSize, target: PixelSize) -> SimilarityTransform {
        SimilarityTransform.normalisingOpenCV(source).then(self).then(SimilarityTransform.normalisingOpenCV(target).inverse)
    }
}

/// A Haar or LBP cascade on the C++ side. Owns its `calign_cascade`; use from one thread at a time.
final class NativeCascade {
    private let pointer: OpaquePointer
    let path: String

    init(path: String) throws {
        var error = calign_error()
        var made: OpaquePointer?
        let status = calign_cascade_load(path, &made, &error)
        guard status == CALIGN_OK.rawValue, let made else {
            let reason = withUnsafeBytes(of: &error.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw AlignmentError.missingCascade(path: path, reason: reason.replacingOccurrences(of: path + ": ", with: ""))
        }
        pointer = made
        self.path = path
    }

    deinit { calign_cascade_free(pointer) }

    /// Boxes found within `region` of `image` (pixel coordinates), largest first.
    func detect(in image: GreyImage, region: Rect2D, minimumSize: Double, maximumSize: Double = 0, scaleStep: Double = 1.1,
                minimumNeighbours: Int = 3) throws -> [Rect2D] {
        var error = calign_error()
        var boxes = [calign_rect](repeating: calign_rect(), count: 32)
        var count: Int32 = 0
        let area = calign_rect(x: region.x, y: region.y, width: region.width, height: region.height)
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            calign_cascade_detect(pointer, pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width),
                                  area, minimumSize, maximumSize, scaleStep, Int32(minimumNeighbours), &boxes, Int32(boxes.count),
                                  &count, &error)
        }
        try check(status, &error)
        return boxes.prefix(min(Int(count), boxes.count)).map { Rect2D(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
    }
}

/// `initial` (photo pixels to reference pixels, continuous coordinates) refined by ECC so that `region` of
/// the reference and the photo agree; nil when it does not converge. Gives the correlation reached too.
func refineRegion(photo: GreyImage, reference: GreyImage, region: Rect2D,
                  initial: SimilarityTransform) throws -> (transform: SimilarityTransform, correlation: Double)? {
    // Continuous coordinates to OpenCV's (pixel centres at integers) and back.
    let toOpenCV = SimilarityTransform(dx: 0.5, dy: 0.5).then(initial).then(SimilarityTransform(dx: -0.5, dy: -0.5))
    var start = calign_similarity(a: toOpenCV.a, b: toOpenCV.b, tx: toOpenCV.dx, ty: toOpenCV.dy)
    var found = calign_similarity()
    var correlation = 0.0
    var error = calign_error()
    let area = calign_rect(x: region.x.rounded(), y: region.y.rounded(), width: region.width.rounded(), height: region.height.rounded())
    let status = photo.pixels.withUnsafeBufferPointer { p in
        reference.pixels.withUnsafeBufferPointer { r in
            calign_refine_region(p.baseAddress, Int32(photo.width), Int32(photo.height), Int32(photo.width),
                                 r.baseAddress, Int32(reference.width), Int32(reference.height), Int32(reference.width),
                                 area, &start, &found, &correlation, &error)
        }
    }
    if status == CALIGN_NOT_CONVERGED.rawValue { return nil }
    try check(status, &error)
    let refined = SimilarityTransform(dx: -0.5, dy: -0.5).then(SimilarityTransform(a: found.a, b: found.b, tx: found.tx, ty: found.ty))
        .then(SimilarityTransform(dx: 0.5, dy: 0.5))
    return (refined, correlation)
}
