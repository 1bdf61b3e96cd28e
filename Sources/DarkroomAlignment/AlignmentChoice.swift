/// The `align` option of the stages that align photos (the time-lapse, the then-and-now collage).
public enum AlignmentChoice: String, Codable, Sendable, CaseIterable {
    /// As they are (each fitted to the frame on its own).
    case none
    /// What stays put (a plant's pot, a room, a view) stays put: each photo onto the first.
    case scene
    /// The eyes land at the same place of the frame in every photo (a face over a year).
    case face

    /// The aligners' mode; nil for `none`.
    public var mode: AlignmentMode? {
        switch self {
        case .none: return nil
        case .scene: return .scene
        case .face: return .face
        }
    }
}

/// The `unaligned` option: what happens to a photo that cannot be aligned.
public enum UnalignedChoice: String, Codable, Sendable, CaseIterable {
    /// Shown as it is, filling its frame (a warning names it and says why).
    case keep
    /// Left out (reported with the reason).
    case drop
}

extension PixelSize {
    /// How much larger than the frame's cover size a photo is decoded for alignment: the common crop
    /// enlarges every photo (by about 1.1-1.3 for photos taken by hand), which should not make it soft.
    public static let alignmentMargin = 1.3

    /// The box to decode a photo of this (upright) size in for alignment into `frame`: whole, covering the
    /// frame with `alignmentMargin` to spare, never larger than the photo unless it is smaller than the frame.
    public func alignmentDecodeBox(for frame: PixelSize) -> PixelSize {
        let cover = max(Double(frame.width) / Double(width), Double(frame.height) / Double(height))
        let scale = max(cover, min(1, cover * Self.alignmentMargin))
        return PixelSize(width: max(2, Int((Double(width) * scale).rounded(.up))),
                         height: max(2, Int((Double(height) * scale).rounded(.up))))
    }
}

/// The `fill` option: what an aligned photo shows where it does not reach the frame.
public enum FillChoice: String, Codable, Sendable, CaseIterable {
    /// The whole output cropped once to what every aligned photo covers (and enlarged back to its size).
    case crop
    /// The full frame kept; what a photo leaves empty is filled from a blurred copy of it scaled to cover the frame.
    case blur
}
