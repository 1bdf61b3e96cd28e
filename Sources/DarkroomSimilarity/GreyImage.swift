/// A small grey image, 8 bits a pixel, row by row: what the thumbnail decode hands over for the
/// perceptual fingerprint (64 x 64, squeezed; see `SimilarityFingerprint.side`) and for sharpness
/// (the thumbnail itself, in grey).
public struct GreyImage: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height` grey levels, 0 (black) to 255 (white), row by row.
    public let pixels: [UInt8]

    /// Wraps `pixels`; throws when their count is not `width * height` or the size is not positive.
    public init(width: Int, height: Int, pixels: [UInt8]) throws {
        guard width > 0, height > 0 else { throw SimilarityError.badImageSize(width: width, height: height) }
        guard pixels.count == width * height else {
            throw SimilarityError.pixelCountMismatch(width: width, height: height, count: pixels.count)
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The grey level at column `x`, row `y`.
    @inline(__always)
    subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }
}

/// Why an input cannot be used.
public enum SimilarityError: Error, Equatable, CustomStringConvertible {
    /// A grey image of no pixels.
    case badImageSize(width: Int, height: Int)
    /// The pixel buffer does not match the stated size.
    case pixelCountMismatch(width: Int, height: Int, count: Int)
    /// The fingerprint needs a grey copy of exactly this size.
    case wrongFingerprintSize(expected: Int, width: Int, height: Int)
    /// Stored fingerprint bytes of the wrong length or version.
    case malformedFingerprint(String)

    /// The reason, naming the sizes.
    public var description: String {
        switch self {
        case let .badImageSize(width, height):
            return "a grey image must be at least 1x1 pixels, got \(width)x\(height)"
        case let .pixelCountMismatch(width, height, count):
            return "a \(width)x\(height) grey image needs \(width * height) pixels, got \(count)"
        case let .wrongFingerprintSize(expected, width, height):
            return "a fingerprint is computed from a \(expected)x\(expected) grey copy, got \(width)x\(height)"
        case let .malformedFingerprint(reason):
            return "malformed stored fingerprint: \(reason)"
        }
    }
}
