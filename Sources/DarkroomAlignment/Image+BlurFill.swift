import DarkroomVips
import Foundation

extension Image {
    /// This image (8-bit RGB without alpha, as decoded for the frame) placed in `frame` by `transform`
    /// like `warped(by:frame:)`, with the parts of the frame it does not reach filled from a blurred copy
    /// of itself scaled to cover the frame (`fill: blur`): the full frame, no black border, and no second
    /// decode (the copy is made from these pixels).
    public func warpedOverBlur(by transform: SimilarityTransform, frame: PixelSize) throws -> Image {
        let sharp = try warped(by: transform, frame: frame, interpolator: .bicubic, edge: .copy)
        guard CommonCrop.uncovered(frame: frame, by: CommonCrop.Photo(size: pixelSize, transform: transform)).fraction > 0 else {
            return sharp
        }
        // Where the photo reaches: 255 inside its outline, 0 outside, a pixel's blend along it.
        let coverage = try Image.solid(width: width, height: height, colour: .white).extractBand(0)
            .warped(by: transform, frame: frame, interpolator: .bilinear, edge: .black)
        return try blurredCover(frame).composited(sharp.joiningBands(coverage), x: 0, y: 0).flattened()
    }

    /// This image scaled to cover `frame` (centred) and softened: made at an eighth of the frame's size,
    /// blurred there and enlarged (cheap, and as soft as a wide blur at full size).
    public func blurredCover(_ frame: PixelSize) throws -> Image {
        let small = PixelSize(width: max(8, frame.width / 8), height: max(8, frame.height / 8))
        let toSmall = SimilarityTransform.normalising(pixelSize).then(.placing(aspectRatio: pixelSize.aspectRatio, in: small))
        let soft = try warped(by: toSmall, frame: small, interpolator: .bilinear, edge: .copy).blurred(sigma: 2.5)
        return try soft.warped(by: SimilarityTransform(scale: Double(frame.width) / Double(small.width)), frame: frame,
                               interpolator: .bilinear, edge: .copy)
    }
}
