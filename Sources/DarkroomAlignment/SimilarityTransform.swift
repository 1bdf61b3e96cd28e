import Foundation

/// A point in a plane (pixels, or normalised units: see `SimilarityTransform.normalising`).
public struct Point2D: Sendable, Codable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The distance to another point.
    public func distance(to other: Point2D) -> Double { hypot(x - other.x, y - other.y) }

    public var description: String { String(format: "(%.3f, %.3f)", x, y) }
}

/// A shift, a turn and a uniform scale: `p' = scale * R(rotation) * p + (dx, dy)`.
///
/// What a hand-held retake needs to land on the one before. The aligners give it in normalised
/// coordinates (`normalising`: the image's centre at 0, its long edge 1 unit long), so that one
/// transform holds for the working image and the full-size photo alike; `inPixels(from:to:)` turns it
/// into a pixel mapping at any size, and `matrix` gives what libvips' `affine` takes.
///
/// Pixel coordinates are continuous: pixel (i, j) covers [i, i+1) x [j, j+1), its centre is at
/// (i + 0.5, j + 0.5). `y` points down, so a positive `rotation` turns clockwise on screen.
public struct SimilarityTransform: Sendable, Codable, Hashable, CustomStringConvertible {
    /// Uniform scale (1: same size).
    public var scale: Double
    /// Rotation in degrees, clockwise on screen.
    public var rotation: Double
    /// Horizontal shift, applied after scaling and turning.
    public var dx: Double
    /// Vertical shift, applied after scaling and turning.
    public var dy: Double

    public init(scale: Double = 1, rotation: Double = 0, dx: Double = 0, dy: Double = 0) {
        self.scale = scale
        self.rotation = rotation
        self.dx = dx
        self.dy = dy
    }

    /// The transform of the matrix `[[a, -b, tx], [b, a, ty]]`.
    public init(a: Double, b: Double, tx: Double, ty: Double) {
        self.init(scale: hypot(a, b), rotation: atan2(b, a) * 180 / .pi, dx: tx, dy: ty)
    }

    /// Leaves every point where it is.
    public static let identity = SimilarityTransform()

    /// `scale * cos(rotation)`: the matrix's first column is (a, b).
    public var a: Double { scale * cos(rotation * .pi / 180) }
    /// `scale * sin(rotation)`.
    public var b: Double { scale * sin(rotation * .pi / 180) }

    /// Where `point` goes.
    public func apply(_ point: Point2D) -> Point2D {
        let a = self.a, b = self.b
        return Point2D(x: a * point.x - b * point.y + dx, y: b * point.x + a * point.y + dy)
    }

    /// This transform followed by `next` (`next.apply(apply(p))`).
    public func then(_ next: SimilarityTransform) -> SimilarityTransform {
        let a = next.a * self.a - next.b * self.b, b = next.b * self.a + next.a * self.b
        let shift = next.apply(Point2D(x: dx, y: dy))
        return SimilarityTransform(a: a, b: b, tx: shift.x, ty: shift.y)
    }

    /// The transform that undoes this one.
    public var inverse: SimilarityTransform {
        let s2 = a * a + b * b
        let ia = a / s2, ib = -b / s2
        return SimilarityTransform(a: ia, b: ib, tx: -(ia * dx - ib * dy), ty: -(ib * dx + ia * dy))
    }

    /// The largest distance any corner of a `width` x `height` rectangle centred on 0 moves between this
    /// transform and `other`: how far apart two estimates are where it shows most.
    public func cornerDistance(to other: SimilarityTransform, width: Double, height: Double) -> Double {
        [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { sx, sy in
            let corner = Point2D(x: sx * width / 2, y: sy * height / 2)
            return apply(corner).distance(to: other.apply(corner))
        }.max() ?? 0
    }

    /// From pixel coordinates of an image of `size` to normalised ones: its centre at 0, its long edge 1.
    public static func normalising(_ size: PixelSize) -> SimilarityTransform {
        let long = Double(size.longEdge)
        return SimilarityTransform(scale: 1 / long, dx: -Double(size.width) / 2 / long, dy: -Double(size.height) / 2 / long)
    }

    /// This normalised transform as a mapping from the pixels of an image of `source` size to the pixels
    /// of one of `target` size (the same pictures at any resolution: the full-size photo to the frame).
    public func inPixels(from source: PixelSize, to target: PixelSize) -> SimilarityTransform {
        SimilarityTransform.normalising(source).then(self).then(SimilarityTransform.normalising(target).inverse)
    }

    /// The transform that sends `from.0` to `to.0` and `from.1` to `to.1` (nil when `from`'s points coincide).
    public static func mapping(_ from: (Point2D, Point2D), onto to: (Point2D, Point2D)) -> SimilarityTransform? {
        let fx = from.1.x - from.0.x, fy = from.1.y - from.0.y
        let tx = to.1.x - to.0.x, ty = to.1.y - to.0.y
        let length2 = fx * fx + fy * fy
        guard length2 > 1e-18 else { return nil }
        // (a + ib) * f = t as complex numbers.
        let a = (tx * fx + ty * fy) / length2, b = (ty * fx - tx * fy) / length2
        let turned = SimilarityTransform(a: a, b: b, tx: 0, ty: 0).apply(from.0)
        return SimilarityTransform(a: a, b: b, tx: to.0.x - turned.x, ty: to.0.y - turned.y)
    }

    /// The affine matrix `x' = a x + b y + tx, y' = c x + d y + ty` of a pixel transform, as libvips'
    /// `affine` takes it (see `Image.warped` in DarkroomVips).
    public var matrix: (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        let a = self.a, b = self.b
        return (a, -b, b, a, dx, dy)
    }

    public var description: String {
        String(format: "scale %.4f, rotation %.3f°, shift (%.4f, %.4f)", scale, rotation, dx, dy)
    }
}

extension SimilarityTransform {
    /// From normalised coordinates of a picture of `aspectRatio` (width / height) to the pixels of
    /// `frame`, the picture centred and scaled to cover the frame (what overflows is cropped) or, with
    /// `cover: false`, to fit inside it.
    public static func placing(aspectRatio: Double, in frame: PixelSize, cover: Bool = true) -> SimilarityTransform {
        let width = aspectRatio >= 1 ? 1 : aspectRatio, height = aspectRatio >= 1 ? 1 / aspectRatio : 1
        let fits = (Double(frame.width) / width, Double(frame.height) / height)
        let scale = cover ? max(fits.0, fits.1) : min(fits.0, fits.1)
        return SimilarityTransform(scale: scale, dx: Double(frame.width) / 2, dy: Double(frame.height) / 2)
    }

    /// A photo's pixels to the frame's pixels, for an alignment (this transform: the photo normalised onto the
    /// reference normalised) whose reference has `referenceAspectRatio`, the reference covering `frame`.
    /// `photo` is the photo's size at the resolution the warp starts from (any: the full-size decode).
    public func photoToFrame(photo: PixelSize, referenceAspectRatio: Double, frame: PixelSize) -> SimilarityTransform {
        SimilarityTransform.normalising(photo).then(self).then(.placing(aspectRatio: referenceAspectRatio, in: frame))
    }
}
