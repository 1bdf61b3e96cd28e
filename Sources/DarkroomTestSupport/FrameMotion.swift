import Foundation

/// How far the background moves between two decoded frames (8-bit grey planes): square patches around
/// the frame's edges, each found again in the next frame by zero-mean normalised cross-correlation (so a
/// change of brightness does not count as motion) over whole-pixel offsets, refined to a fraction of a
/// pixel by a parabola through the peak's neighbours. Shared by the aligned time-lapse's tests (frames
/// of a video) and the then-and-now collage's (its two halves).
public struct FrameMotion {
    public let width: Int
    public let height: Int
    /// A patch's side and the largest offset searched, in pixels.
    public var patch = 48
    public var reach = 6

    /// A measure for frames of `width` x `height`.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Patch centres, as fractions of the frame: around the edges, clear of a subject in the middle.
    public static let centres: [(Double, Double)] = [
        (0.12, 0.15), (0.5, 0.12), (0.88, 0.15), (0.1, 0.5), (0.9, 0.5), (0.12, 0.85), (0.88, 0.85),
    ]

    /// The median distance the patches moved, and how many were found again (a clear correlation peak inside the reach).
    /// `centres` (fractions of the frame) say where the patches are: around the edges unless given.
    public func backgroundShift(from a: Data, to b: Data, at centres: [(Double, Double)] = Self.centres) -> (median: Double, matched: Int) {
        let moves = centres.compactMap { centre -> Double? in
            let x = Int(centre.0 * Double(width)) - patch / 2, y = Int(centre.1 * Double(height)) - patch / 2
            return shift(of: (x, y), from: a, to: b)
        }
        return (Self.median(moves), moves.count)
    }

    /// Where the patch at `origin` of `a` is in `b`: the length of its move, nil without a clear peak.
    private func shift(of origin: (Int, Int), from a: Data, to b: Data) -> Double? {
        let template = pixels(a, x: origin.0, y: origin.1)
        let span = 2 * reach + 1
        var scores = [Double](repeating: -1, count: span * span)
        for dy in -reach...reach {
            for dx in -reach...reach {
                scores[(dy + reach) * span + dx + reach] = Self.correlation(template, pixels(b, x: origin.0 + dx, y: origin.1 + dy))
            }
        }
        guard let best = scores.indices.max(by: { scores[$0] < scores[$1] }), scores[best] > 0.8 else { return nil }
        let (bx, by) = (best % span, best / span)
        guard (1..<span - 1).contains(bx), (1..<span - 1).contains(by) else { return nil }
        func vertex(_ left: Double, _ centre: Double, _ right: Double) -> Double {
            let curvature = left - 2 * centre + right
            return curvature < 0 ? 0.5 * (left - right) / curvature : 0
        }
        let fx = Double(bx - reach) + vertex(scores[best - 1], scores[best], scores[best + 1])
        let fy = Double(by - reach) + vertex(scores[best - span], scores[best], scores[best + span])
        return (fx * fx + fy * fy).squareRoot()
    }

    private func pixels(_ frame: Data, x: Int, y: Int) -> [Double] {
        var values: [Double] = []
        values.reserveCapacity(patch * patch)
        frame.withUnsafeBytes { raw in
            for row in y..<y + patch { for column in x..<x + patch { values.append(Double(raw[row * width + column])) } }
        }
        return values
    }

    /// Zero-mean normalised cross-correlation of two equal-sized patches (-1...1).
    public static func correlation(_ p: [Double], _ q: [Double]) -> Double {
        let n = Double(p.count)
        let (mp, mq) = (p.reduce(0, +) / n, q.reduce(0, +) / n)
        var (pq, pp, qq) = (0.0, 0.0, 0.0)
        for i in p.indices {
            let (u, v) = (p[i] - mp, q[i] - mq)
            pq += u * v; pp += u * u; qq += v * v
        }
        return pp > 0 && qq > 0 ? pq / (pp * qq).squareRoot() : 0
    }

    /// The median of `values` (infinity when there are none).
    public static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .infinity }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// The mean luma of the frame's top and bottom rows and left and right columns.
    public static func edgeMeans(_ frame: Data, width: Int, height: Int) -> [Double] {
        edges(width: width, height: height).map { edge in
            Double(edge.reduce(0) { $0 + Int(frame[frame.startIndex + $1]) }) / Double(edge.count)
        }
    }

    /// The share of the edge pixels that are black (luma below 20, where video black is 16).
    public static func darkEdgeFraction(_ frame: Data, width: Int, height: Int) -> Double {
        let all = edges(width: width, height: height).joined()
        return Double(all.filter { frame[frame.startIndex + $0] < 20 }.count) / Double(all.count)
    }

    /// The byte offsets of the outermost row or column on each side: top, bottom, left, right.
    private static func edges(width: Int, height: Int) -> [[Int]] {
        [Array(0..<width), Array((height - 1) * width..<height * width),
         (0..<height).map { $0 * width }, (0..<height).map { $0 * width + width - 1 }]
    }
}
