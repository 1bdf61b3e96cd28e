/// How sharp a photo looks: the variance of its Laplacian (the 4-neighbour kernel
/// `[0 1 0; 1 -4 1; 0 1 0]`) over a grey image, the classic focus measure (Pech-Pacheco et al.,
/// 2000). Blur and motion lower it. Only comparable between images of the same size and scene:
/// the frames of one burst, each measured on its thumbnail in grey.
public enum Sharpness {
    /// The variance of the Laplacian over the interior pixels; 0 for images under 3 x 3.
    public static func laplacianVariance(of image: GreyImage) -> Double {
        let width = image.width, height = image.height
        guard width >= 3, height >= 3 else { return 0 }
        var sum = 0.0, sumOfSquares = 0.0
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 1..<(height - 1) {
                let row = y * width
                for x in 1..<(width - 1) {
                    let centre = row + x
                    let response = Int(pixels[centre - 1]) + Int(pixels[centre + 1]) + Int(pixels[centre - width])
                        + Int(pixels[centre + width]) - 4 * Int(pixels[centre])
                    let value = Double(response)
                    sum += value
                    sumOfSquares += value * value
                }
            }
        }
        let count = Double((width - 2) * (height - 2))
        let mean = sum / count
        return max(0, sumOfSquares / count - mean * mean)
    }
}
