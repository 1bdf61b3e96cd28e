import Foundation

/// Computes the hashes of a 32 x 32 grey image from its DCT: the `PerceptualHash` (the 63 lowest
/// frequencies, an 8 x 8 block without the DC term) and the detail hash (the 57 next ones, where
/// the larger of the two frequencies is 8, 9 or 10), each coefficient compared with its set's median.
enum DCTHasher {
    /// The side of the image the DCT runs on.
    static let side = 32
    /// The side of the coefficient block computed (11 x 11).
    static let block = 11
    /// The side of the low-frequency block of the perceptual hash (8 x 8).
    static let low = 8

    /// cos(pi (2x + 1) u / 64) for u < 11, x < 32, row u.
    static let basis: [Double] = (0..<block).flatMap { u in
        (0..<side).map { x in cos(Double.pi * Double((2 * x + 1) * u) / Double(2 * side)) }
    }

    /// The hashes of one 32 x 32 image, and whether the perceptual hash's bits are signal: false
    /// when over two thirds of the low coefficients sit within a tenth of their mean deviation of
    /// the median (a smooth vignette, where re-encoding flips them; 79-87 % of them in the corpus'
    /// only such photo and its copies, at most 54 % in any other).
    struct Hashes {
        var hash: PerceptualHash
        var detail: PerceptualHash
        var isStable: Bool
    }

    /// The hashes of a 32 x 32 image (row by row).
    static func hashes(_ image: [Double]) -> Hashes {
        precondition(image.count == side * side)
        // Columns first: t[u][x] = sum over y of basis[u][y] * image[y][x].
        var partial = [Double](repeating: 0, count: block * side)
        for u in 0..<block {
            for y in 0..<side {
                let weight = basis[u * side + y]
                for x in 0..<side { partial[u * side + x] += weight * image[y * side + x] }
            }
        }
        // Then rows: c[u][v] = sum over x of t[u][x] * basis[v][x].
        var lowCoefficients: [Double] = [], detailCoefficients: [Double] = []
        for u in 0..<block {
            for v in 0..<block where u != 0 || v != 0 {
                var sum = 0.0
                for x in 0..<side { sum += partial[u * side + x] * basis[v * side + x] }
                if u < low && v < low { lowCoefficients.append(sum) } else { detailCoefficients.append(sum) }
            }
        }
        let lowMedian = median(lowCoefficients)
        let spread = lowCoefficients.reduce(0) { $0 + abs($1 - lowMedian) } / Double(lowCoefficients.count)
        let nearMedian = lowCoefficients.filter { abs($0 - lowMedian) < 0.1 * spread }.count
        return Hashes(hash: signs(lowCoefficients, above: lowMedian), detail: signs(detailCoefficients, above: median(detailCoefficients)),
                      isStable: 3 * nearMedian <= 2 * lowCoefficients.count)
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// Bit `i` set when `values[i]` is above `threshold`.
    static func signs(_ values: [Double], above threshold: Double) -> PerceptualHash {
        var bits: UInt64 = 0
        for (index, value) in values.enumerated() where value > threshold { bits |= 1 << UInt64(index) }
        return PerceptualHash(bits: bits)
    }
}
