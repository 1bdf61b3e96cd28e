internal import CVips
import Foundation

/// An affine map between pixel planes, `x' = a x + b y + tx`, `y' = c x + d y + ty`, in continuous pixel
/// coordinates: pixel (i, j) covers [i, i+1) x [j, j+1), its centre is at (i + 0.5, j + 0.5).
public struct WarpMatrix: Sendable, Hashable {
    public var a, b, c, d, tx, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    /// The same map after the input has been shrunk by `factor` (x = factor * x_small).
    func afterShrinking(by factor: Double) -> WarpMatrix {
        WarpMatrix(a: a * factor, b: b * factor, c: c * factor, d: d * factor, tx: tx, ty: ty)
    }

    /// The most the map stretches any length (its larger singular value): below 1/2 it shrinks everything by half or more.
    var largestScale: Double {
        // Singular values of [[a, b], [c, d]].
        let s = a * a + b * b + c * c + d * d, det = a * d - b * c
        return ((s + (max(0, s * s - 4 * det * det)).squareRoot()) / 2).squareRoot()
    }
}

/// How a warp samples between pixels.
public enum Interpolator: String, Sendable, CaseIterable, Codable {
    case nearest, bilinear, bicubic, lbb, nohalo
}

extension Image {
    /// This image warped by `matrix` into the `width` x `height` window at (`left`, `top`) of the output
    /// plane; what the image does not cover is black (`edge: .black`) or repeats its edge pixels.
    ///
    /// A warp that shrinks by more than half first box-shrinks the image by a whole factor, so fine detail
    /// does not alias (decode at about the output size, e.g. with JPEG shrink-on-load, to make it cheap).
    /// Flatten images with alpha first: the warp does not premultiply.
    public func warped(by matrix: WarpMatrix, left: Int = 0, top: Int = 0, width: Int, height: Int,
                       interpolator: Interpolator = .bicubic, edge: WarpEdge = .black) throws -> Image {
        guard width > 0, height > 0 else {
            throw VipsError(operation: "affine", message: "the output must be at least 1x1, got \(width)x\(height)")
        }
        var source = self, map = matrix
        let shrink = (1 / max(1e-9, map.largestScale)).rounded(.down)
        if shrink >= 2 {
            source = try derive("shrink") { darkroom_vips_shrink($0, $1, shrink, shrink) }
            map = map.afterShrinking(by: shrink)
        }
        let extend: VipsExtend = edge == .black ? VIPS_EXTEND_BACKGROUND : VIPS_EXTEND_COPY
        // Continuous coordinates to libvips' (pixel centres at integers): input + 0.5, output - 0.5. Its
        // nearest-neighbour sampler rounds down rather than to the nearest centre: it gets the input as is.
        let inputOffset = interpolator == .nearest ? 0 : 0.5
        return try source.derive("affine") {
            darkroom_vips_affine($0, $1, map.a, map.b, map.c, map.d, inputOffset, inputOffset, map.tx - 0.5, map.ty - 0.5,
                                 Int32(left), Int32(top), Int32(width), Int32(height),
                                 interpolator.rawValue, extend, 0)
        }
    }

    /// An 8-bit grey copy whose long edge is at most `longEdge` pixels (never enlarged), packed row by row:
    /// the working picture alignment looks at, made from the same decode as the frame.
    ///
    /// Made cheaply, as it is made for every photo: the green band stands for the luminance (it carries
    /// most of it), and the size is reached by a box shrink by a whole factor, then a small resize. A
    /// shrink that leaves the long edge within 5 % under `longEdge` is the whole of it (a 2000-pixel
    /// decode gives 1000, not a resize to 1024).
    public func greyPixels(longEdge: Int) throws -> (pixels: Data, width: Int, height: Int) {
        var image = try flattened(red: 0, green: 0, blue: 0)
        if !image.isEightBit || (image.bands != 1 && image.bands != 3) { image = try image.eightBitRGB() }
        if image.bands >= 3 { image = try image.extractBand(1) }
        let scale = Double(longEdge) / Double(max(image.width, image.height))
        let shrink = (1.05 / scale).rounded(.down)
        if shrink >= 2 { image = try image.derive("shrink") { darkroom_vips_shrink($0, $1, shrink, shrink) } }
        let rest = Double(longEdge) / Double(max(image.width, image.height))
        if rest < 1 { image = try image.resized(horizontal: rest, vertical: rest) }
        var bytes = Data(count: image.width * image.height)
        let result = bytes.withUnsafeMutableBytes { bytes in
            Vips.calling { darkroom_vips_read_in_thread(image.pointer, bytes.baseAddress, bytes.count) }
        }
        guard result == 0 else { throw Vips.failure(of: "grey copy", source: source) }
        return (bytes, image.width, image.height)
    }
}

/// What a warp puts where the image does not reach.
public enum WarpEdge: Sendable {
    /// Black pixels (crop them away, or fill them from a blurred copy).
    case black
    /// The image's edge pixels repeated.
    case copy
}
