import DarkroomCore
import Foundation
import DarkroomOptions

/// The options of aligned time-lapses and of animations to share (issue 23).
extension TimelapseOptions {
    /// How photos are mapped onto one another.
    public enum Align: String, Codable, Sendable, CaseIterable {
        /// As they are (each fitted to the frame on its own).
        case none
        /// What stays put (a plant's pot, a room, a view) stays put: each photo onto the first.
        case scene
        /// The eyes land at the same place of the frame in every photo (a face over a year).
        case face
    }

    /// What happens to a photo that cannot be aligned.
    public enum Unaligned: String, Codable, Sendable, CaseIterable {
        /// Shown as it is, filling the frame (a warning names it).
        case keep
        /// Left out (reported with the reason).
        case drop
    }

    /// What fills the parts of the frame an aligned photo does not reach.
    public enum Fill: String, Codable, Sendable, CaseIterable {
        /// Nothing: the whole video is cropped to what every aligned photo covers, chosen once.
        case crop
        /// A blurred, enlarged copy of the photo itself, behind it (no crop).
        case blur
    }

    /// The file written.
    public enum OutputFormat: String, Codable, Sendable, CaseIterable {
        /// H.264 or HEVC video.
        case mp4
        /// Animated WebP: lossy, small, autoplays inline in messaging apps and browsers.
        case webp
        /// Animated GIF (256 colours, dithered): plays everywhere, large.
        case gif

        var isAnimation: Bool { self != .mp4 }
    }

    /// Where a GIF's colours come from.
    public enum GIFPalette: String, Codable, Sendable, CaseIterable {
        /// One palette made from frames across the whole animation: colours do not shift between photos.
        case global
        /// The first frame's palette, and a frame's own wherever its colours drift from it.
        case perFrame = "per-frame"
    }

    /// The long edge of an animation to share, in pixels (messaging apps show them about this size).
    static let animationLongEdges = 480...1080
    /// The size of an animation when `size` is not given.
    static let defaultAnimationSize = FrameSize(width: 800, height: 450)

    static let alignOption = StageOption.choice(
        "align", default: Align.none,
        "none: each photo as it is; scene: each photo mapped onto the first by what stays put (a plant, a room), so only the subject moves; face: the eyes land at the same place in every photo. Aligned photos fill the frame (see fill).")
    static let unalignedOption = StageOption.choice(
        "unaligned", default: Unaligned.drop,
        "With align: a photo that cannot be aligned (no face found, too few matching features, a move beyond plausible limits) is dropped, or kept unaligned; either way it is listed with the reason.")
    static let fillOption = StageOption.choice(
        "fill", default: Fill.crop,
        "With align: crop the whole video once to what every aligned photo covers (no border, no pumping), or fill what a photo leaves empty with a blurred copy of itself.")
    static let formatOption = StageOption.choice(
        "format", default: OutputFormat.mp4,
        "mp4 (H.264/HEVC), or an animation to share in messaging apps: webp (animated WebP) or gif. Animations are \(defaultAnimationSize) unless size is given (long edge \(animationLongEdges.lowerBound)-\(animationLongEdges.upperBound)).")
    static let maxBytesOption = StageOption<Int?>.custom(
        "max-bytes", as: String.self, default: nil, shown: "", accepts: "a size such as 8MB, 750KB or a number of bytes, at least 10KB",
        "For webp and gif: the largest file wanted (chat apps refuse larger ones); met by making the frames smaller (down to a long edge of \(animationLongEdges.lowerBound)), then by leaving out crossfades, then every other photo, each step logged."
    ) { text in ByteSize.parse(text).flatMap { $0 >= 10_000 ? $0 : nil } }
    static let qualityOption = StageOption.integer(
        "quality", default: 75, in: 1...100, "For webp: lossy quality (higher is better and larger).")
    static let paletteOption = StageOption.choice(
        "palette", default: GIFPalette.global,
        "For gif: one palette for the whole animation made from frames across it (steady colours, smaller files), or per-frame palettes where colours drift.")
    static let ditherOption = StageOption<Double>.value(
        "dither", default: 1, accepts: "a number from 0 to 1", where: { (0...1).contains($0) },
        "For gif: Floyd-Steinberg dithering, 0 (flat bands of colour, smaller) to 1 (smooth gradients).")

    /// The options above, in the order they are documented.
    static let sharingOptions: [any OptionDeclaration] = [
        alignOption, unalignedOption, fillOption, formatOption, maxBytesOption, qualityOption, paletteOption, ditherOption,
    ]

    /// Options that only an MP4 takes.
    static let videoOnlyOptions: [any OptionDeclaration] = [frameTimingOption, codecOption, crfOption, presetOption]
}

/// A number of bytes written `8MB`, `750 KB`, `1.5MiB` or `123456` (KB and MB are 1000s, KiB and MiB 1024s).
enum ByteSize {
    static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [(String, Double)] = [("KIB", 1024), ("MIB", 1024 * 1024), ("KB", 1000), ("MB", 1_000_000), ("K", 1000), ("M", 1_000_000), ("B", 1)]
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            let number = trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)
            guard let value = Double(number), value > 0, value * factor < Double(Int.max) else { return nil }
            return Int((value * factor).rounded())
        }
        return Int(trimmed).flatMap { $0 > 0 ? $0 : nil }
    }
}
