/// An 8-bit grey picture at working size (long edge about 1024): what the aligners look at.
///
/// The caller makes it from the same decode the frame is made from (see `Image.greyWorkingImage`), so
/// that a transform found on it applies to the colour picture at any size.
public struct GreyImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `height` rows of `width` bytes, no padding.
    public let pixels: [UInt8]

    /// Wraps packed grey pixels; throws when the byte count does not match or the image is under 32x32.
    public init(width: Int, height: Int, pixels: [UInt8]) throws {
        guard width >= 32, height >= 32 else {
            throw AlignmentError.invalidImage("\(width)x\(height) is smaller than 32x32")
        }
        guard pixels.count == width * height else {
            throw AlignmentError.invalidImage("expected \(width * height) bytes for \(width)x\(height), got \(pixels.count)")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The size in pixels.
    public var size: PixelSize { PixelSize(width: width, height: height) }
}

/// A width and height in pixels.
public struct PixelSize: Sendable, Codable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The longer side.
    public var longEdge: Int { max(width, height) }
    /// Width divided by height.
    public var aspectRatio: Double { Double(width) / Double(max(1, height)) }

    public var description: String { "\(width)x\(height)" }
}
