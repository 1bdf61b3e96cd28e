import DarkroomVips
import Foundation

extension Image {
    /// The grey working picture the aligners look at: this image (already upright, decoded for the frame)
    /// in 8-bit grey, its long edge at most `longEdge` pixels.
    public func greyWorkingImage(longEdge: Int = 1024) throws -> GreyImage {
        let grey = try greyPixels(longEdge: longEdge)
        return try GreyImage(width: grey.width, height: grey.height, pixels: [UInt8](grey.pixels))
    }

    /// This image placed in a `frame`-sized picture by `transform` (this image's pixels to the frame's
    /// pixels, e.g. `photoToFrame` followed by a `CommonCrop`'s `zoom`).
    public func warped(by transform: SimilarityTransform, frame: PixelSize, interpolator: Interpolator = .bicubic,
                       edge: WarpEdge = .black) throws -> Image {
        let m = transform.matrix
        return try warped(by: WarpMatrix(a: m.a, b: m.b, c: m.c, d: m.d, tx: m.tx, ty: m.ty), width: frame.width,
                          height: frame.height, interpolator: interpolator, edge: edge)
    }

    /// The image's size in pixels.
    public var pixelSize: PixelSize { PixelSize(width: width, height: height) }
}
