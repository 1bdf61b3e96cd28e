import Foundation

/// One aligned photo's move as a user reads it (the `-v` log line and the run's JSON report): where its
/// centre lands, its turn and its scale, and how the alignment was found.
public struct AlignmentFacts: Sendable, Hashable, CustomStringConvertible {
    /// How far the photo's centre lands from the output frame's centre, in output pixels, before the crop.
    public var shift: Point2D
    /// The photo's turn onto the reference, in degrees, clockwise on screen.
    public var angle: Double
    /// The photo's scale onto the reference (1: as the reference).
    public var scale: Double
    /// How the alignment was found (`matched the previous photo on 412 features, refined to sub-pixel`).
    public var how: String

    /// `shift +12.0, -3.5 px, angle +1.20 deg, scale 1.0123: matched the previous photo on 412 features`.
    public var description: String {
        let f = figures  // rounded: no "-0.0" for a reference that did not move
        return String(format: "shift %+.1f, %+.1f px, angle %+.2f deg, scale %.4f: ", f["shiftX"]!, f["shiftY"]!, f["angle"]!, f["scale"]!) + how
    }

    /// The figures by name, as the run's report lists them: `shiftX`, `shiftY` (output pixels, to 0.01),
    /// `angle` (degrees, to 0.001), `scale` (to 0.00001): finer than any alignment is, so nothing is lost.
    public var figures: [String: Double] {
        func rounded(_ value: Double, _ step: Double) -> Double { (value / step).rounded() * step + 0 }
        return ["shiftX": rounded(shift.x, 0.01), "shiftY": rounded(shift.y, 0.01), "angle": rounded(angle, 0.001),
                "scale": rounded(scale, 0.00001)]
    }
}

extension SequencePlacement {
    /// The facts of photo `index` (of size `size`, as decoded), aligned as `alignment` says.
    public func facts(of index: Int, photo size: PixelSize, alignment: SequenceAlignment) -> AlignmentFacts {
        AlignmentFacts(shift: shift(of: index, photo: size), angle: alignment.transform.rotation,
                       scale: alignment.transform.scale, how: alignment.how)
    }
}
