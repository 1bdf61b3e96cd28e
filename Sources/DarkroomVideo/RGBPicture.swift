import Foundation

/// A decoded picture as packed 8-bit R'G'B' (3 bytes a pixel, rows without padding), ready to hand
/// to an image library.
public struct RGBPicture: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `height` rows of `width * 3` bytes.
    public var bytes: Data

    /// A picture of `width` x `height` from its packed rows.
    public init(width: Int, height: Int, bytes: Data) {
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// The mean of every sample, 0...255 (0 for a black picture).
    public var meanLevel: Double {
        guard !bytes.isEmpty else { return 0 }
        // Every 7th byte is enough to tell black from not, and cycles through R, G and B.
        var total = 0, count = 0
        bytes.withUnsafeBytes { raw in
            for index in stride(from: 0, to: raw.count, by: 7) { total += Int(raw[index]); count += 1 }
        }
        return Double(total) / Double(max(count, 1))
    }
}
