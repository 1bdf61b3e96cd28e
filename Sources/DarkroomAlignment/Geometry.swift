/// An axis-aligned rectangle (pixels, or normalised units).
public struct Rect2D: Sendable, Codable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The middle point.
    public var centre: Point2D { Point2D(x: x + width / 2, y: y + height / 2) }
    /// Width times height.
    public var area: Double { width * height }
    /// The corners, clockwise on screen from the top left.
    public var corners: [Point2D] {
        [Point2D(x: x, y: y), Point2D(x: x + width, y: y), Point2D(x: x + width, y: y + height), Point2D(x: x, y: y + height)]
    }

    public var description: String {
        "\(Self.format(width))x\(Self.format(height)) at (\(Self.format(x)), \(Self.format(y)))"
    }

    private static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

/// How far a photo may plausibly have to move to land on the reference: beyond these a hand-held
/// retake is not what the match found, and the photo fails rather than being bent into place.
public struct AlignmentLimits: Sendable, Codable, Hashable {
    /// The largest shift, as a fraction of the reference's width (and of its height).
    public var maxShift: Double = 0.25
    /// The largest turn in degrees, either way.
    public var maxRotation: Double = 15
    /// The scales allowed.
    public var scale: ClosedRange<Double> = 0.75...1.33

    public init(maxShift: Double = 0.25, maxRotation: Double = 15, scale: ClosedRange<Double> = 0.75...1.33) {
        self.maxShift = maxShift
        self.maxRotation = maxRotation
        self.scale = scale
    }

    /// Throws `implausibleTransform` saying which limit `transform` (photo to reference, normalised)
    /// breaks; `reference` is the reference image's size.
    func check(_ transform: SimilarityTransform, reference: PixelSize) throws {
        let long = Double(reference.longEdge)
        let shiftX = abs(transform.dx) / (Double(reference.width) / long)
        let shiftY = abs(transform.dy) / (Double(reference.height) / long)
        if abs(transform.rotation) > maxRotation {
            throw AlignmentError.implausibleTransform(String(format: "the photo would have to be turned %.1f degrees (at most %g)",
                                                             abs(transform.rotation), maxRotation))
        }
        if !scale.contains(transform.scale) {
            throw AlignmentError.implausibleTransform(String(format: "the photo would have to be scaled by %.2f (%g to %g allowed)",
                                                             transform.scale, scale.lowerBound, scale.upperBound))
        }
        if max(shiftX, shiftY) > maxShift {
            throw AlignmentError.implausibleTransform(String(format: "the photo would have to move %.0f%% of the frame (at most %.0f%%)",
                                                             max(shiftX, shiftY) * 100, maxShift * 100))
        }
    }
}
