/// The one crop of the output frame that every aligned photo covers, chosen once for the whole sequence.
///
/// Aligned photos are turned, shifted and scaled, so each leaves part of the frame empty. `rect` is the
/// largest axis-aligned rectangle of the frame's aspect ratio that all of them cover: zooming it to
/// the whole frame (`zoom`) leaves no border anywhere. For `fill: blur`, `uncovered(by:)` gives the
/// parts of the frame a photo leaves empty, to be filled from a blurred copy instead of cropped.
public struct CommonCrop: Sendable, Equatable {
    /// One aligned photo: its size and where its pixels go in the frame.
    public struct Photo: Sendable, Equatable {
        /// The photo's size in pixels (at the resolution `transform` starts from).
        public var size: PixelSize
        /// The photo's pixels to the frame's pixels.
        public var transform: SimilarityTransform

        public init(size: PixelSize, transform: SimilarityTransform) {
            self.size = size
            self.transform = transform
        }

        /// The photo's outline in the frame, clockwise on screen.
        public var outline: [Point2D] {
            Rect2D(x: 0, y: 0, width: Double(size.width), height: Double(size.height)).corners.map(transform.apply)
        }
    }

    /// The output frame's size.
    public let frame: PixelSize
    /// The crop, in frame pixels, of the frame's aspect ratio.
    public let rect: Rect2D

    /// The largest crop of `frame`'s aspect ratio inside the frame and inside every photo's outline.
    /// Throws `implausibleTransform` when the photos share no area of the frame.
    public init(frame: PixelSize, photos: [Photo]) throws {
        self.frame = frame
        let bounds = Rect2D(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height))
        let constraints = [HalfPlane].inside(bounds.corners) + photos.flatMap { [HalfPlane].inside($0.outline) }
        guard let rect = Self.largestRectangle(aspectRatio: frame.aspectRatio, within: constraints, bounds: bounds) else {
            throw AlignmentError.implausibleTransform("the aligned photos share no common area of the frame")
        }
        self.rect = rect
    }

    /// How much the crop is enlarged to fill the frame (1: no crop).
    public var zoomFactor: Double { Double(frame.width) / rect.width }

    /// Frame pixels to frame pixels: the crop enlarged to fill the whole frame. Follow each photo's
    /// transform with it to get the photo's final placement.
    public var zoom: SimilarityTransform {
        let scale = zoomFactor
        return SimilarityTransform(scale: scale, dx: -rect.x * scale, dy: -rect.y * scale)
    }

    /// The parts of the frame that `photo` leaves empty, as convex polygons (frame pixels), and their
    /// share of the frame's area: what `fill: blur` has to fill. Empty when the photo covers the frame.
    public static func uncovered(frame: PixelSize, by photo: Photo) -> (polygons: [[Point2D]], fraction: Double) {
        var polygons: [[Point2D]] = []
        var remaining = Rect2D(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height)).corners
        // The frame outside edge k of the photo but inside edges 0..<k: disjoint pieces.
        for edge in [HalfPlane].inside(photo.outline) {
            let outside = edge.clip(remaining, keepInside: false)
            if polygonArea(outside) > 1e-6 { polygons.append(outside) }
            remaining = edge.clip(remaining, keepInside: true)
        }
        let total = polygons.reduce(0) { $0 + polygonArea($1) }
        return (polygons, total / Double(frame.width * frame.height))
    }

    /// The largest rectangle of `aspectRatio` whose corners satisfy every constraint: a binary search on
    /// its height, each step intersecting the half-planes its centre may lie in.
    static func largestRectangle(aspectRatio: Double, within constraints: [HalfPlane], bounds: Rect2D) -> Rect2D? {
        func centres(height: Double) -> [Point2D] {
            var region = bounds.corners
            for c in constraints {
                // Every corner inside: n . centre + (|nx| w + |ny| h) / 2 <= offset.
                let slack = (abs(c.normal.x) * aspectRatio * height + abs(c.normal.y) * height) / 2
                region = HalfPlane(normal: c.normal, offset: c.offset - slack).clip(region, keepInside: true)
                if region.count < 3 { return [] }
            }
            return region
        }
        var low = 0.0, high = bounds.height
        var best: [Point2D] = []
        for _ in 0..<60 {
            let middle = (low + high) / 2
            let region = centres(height: middle)
            if region.isEmpty { high = middle } else { low = middle; best = region }
        }
        guard !best.isEmpty, low > 1e-6 else { return nil }
        let centre = Point2D(x: best.map(\.x).reduce(0, +) / Double(best.count), y: best.map(\.y).reduce(0, +) / Double(best.count))
        let width = low * aspectRatio
        return Rect2D(x: centre.x - width / 2, y: centre.y - low / 2, width: width, height: low)
    }
}

/// The points `p` with `normal . p <= offset`.
struct HalfPlane {
    var normal: Point2D
    var offset: Double

    func value(_ p: Point2D) -> Double { normal.x * p.x + normal.y * p.y - offset }

    /// The part of a convex polygon inside (or outside) this half-plane (Sutherland-Hodgman).
    func clip(_ polygon: [Point2D], keepInside: Bool) -> [Point2D] {
        guard !polygon.isEmpty else { return [] }
        let sign = keepInside ? 1.0 : -1.0
        var out: [Point2D] = []
        for (i, current) in polygon.enumerated() {
            let next = polygon[(i + 1) % polygon.count]
            let vc = sign * value(current), vn = sign * value(next)
            if vc <= 0 { out.append(current) }
            if (vc < 0 && vn > 0) || (vc > 0 && vn < 0) {
                let t = vc / (vc - vn)
                out.append(Point2D(x: current.x + t * (next.x - current.x), y: current.y + t * (next.y - current.y)))
            }
        }
        return out
    }
}

extension [HalfPlane] {
    /// The half-planes whose intersection is the convex polygon `outline` (either winding).
    static func inside(_ outline: [Point2D]) -> [HalfPlane] {
        let centroid = Point2D(x: outline.map(\.x).reduce(0, +) / Double(outline.count),
                               y: outline.map(\.y).reduce(0, +) / Double(outline.count))
        return outline.indices.map { i in
            let a = outline[i], b = outline[(i + 1) % outline.count]
            var normal = Point2D(x: b.y - a.y, y: a.x - b.x)
            var plane = HalfPlane(normal: normal, offset: normal.x * a.x + normal.y * a.y)
            if plane.value(centroid) > 0 {
                normal = Point2D(x: -normal.x, y: -normal.y)
                plane = HalfPlane(normal: normal, offset: -plane.offset)
            }
            let length = (normal.x * normal.x + normal.y * normal.y).squareRoot()
            return HalfPlane(normal: Point2D(x: normal.x / length, y: normal.y / length), offset: plane.offset / length)
        }
    }
}

/// The area of a simple polygon (shoelace formula).
func polygonArea(_ polygon: [Point2D]) -> Double {
    guard polygon.count >= 3 else { return 0 }
    var sum = 0.0
    for i in polygon.indices {
        let a = polygon[i], b = polygon[(i + 1) % polygon.count]
        sum += a.x * b.y - b.x * a.y
    }
    return abs(sum) / 2
}
