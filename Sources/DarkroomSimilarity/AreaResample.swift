/// Area-averaging resample of a rectangle of a grey image to a square: each output pixel is the
/// mean of the input it covers, fractional pixels weighted by their covered part (a box filter,
/// exact for the 2x shrink of the whole frame).
struct AreaResample {
    /// Weights of one axis: for each output pixel, the input pixels it covers and how much.
    struct Axis {
        var first: [Int]
        var weights: [[Double]]

        init(outputs: Int, start: Double, length: Double, inputs: Int) {
            let step = length / Double(outputs)
            first = []
            weights = []
            for index in 0..<outputs {
                let low = start + Double(index) * step, high = low + step
                let begin = max(0, Int(low.rounded(.down))), end = min(inputs, Int(high.rounded(.up)))
                var row = (begin..<end).map { pixel in max(0, min(high, Double(pixel + 1)) - max(low, Double(pixel))) }
                let total = row.reduce(0, +)
                if total > 0 { row = row.map { $0 / total } }
                first.append(begin)
                weights.append(row)
            }
        }
    }

    /// The `side` x `side` resample of the region (`x`, `y`, `width`, `height`, in pixels, may be
    /// fractional) of `image`, row by row.
    static func region(of image: GreyImage, x: Double, y: Double, width: Double, height: Double, side: Int) -> [Double] {
        let columns = Axis(outputs: side, start: x, length: width, inputs: image.width)
        let rows = Axis(outputs: side, start: y, length: height, inputs: image.height)
        // Horizontal pass over every input row, then vertical.
        var horizontal = [Double](repeating: 0, count: image.height * side)
        image.pixels.withUnsafeBufferPointer { pixels in
            for row in 0..<image.height {
                let base = row * image.width
                for column in 0..<side {
                    var sum = 0.0
                    for (offset, weight) in columns.weights[column].enumerated() {
                        sum += weight * Double(pixels[base + columns.first[column] + offset])
                    }
                    horizontal[row * side + column] = sum
                }
            }
        }
        var output = [Double](repeating: 0, count: side * side)
        for row in 0..<side {
            for (offset, weight) in rows.weights[row].enumerated() {
                let source = (rows.first[row] + offset) * side
                for column in 0..<side { output[row * side + column] += weight * horizontal[source + column] }
            }
        }
        return output
    }
}
