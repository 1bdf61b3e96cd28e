import Foundation

/// The size of the video frame, written `1920x1080` or as a preset name. Odd numbers are rounded
/// up to even (yuv420p needs even sides).
public struct FrameSize: Sendable, Equatable, Codable, CustomStringConvertible {
    public let width: Int
    public let height: Int

    /// Social-media and screen presets.
    public static let presets: [(name: String, size: FrameSize)] = [
        ("landscape", FrameSize(even: 1920, 1080)),
        ("square", FrameSize(even: 1080, 1080)),
        ("portrait", FrameSize(even: 1080, 1350)),
        ("story", FrameSize(even: 1080, 1920)),
    ]

    /// The largest side accepted (H.264 level 6.2 tops out near 8K).
    public static let maximumSide = 8192

    private init(even width: Int, _ height: Int) {
        self.width = width
        self.height = height
    }

    /// Exactly `width` x `height`, odd sides kept (animated GIF and WebP need no even sides).
    init(exactly width: Int, _ height: Int) {
        self.init(even: width, height)
    }

    /// `width` x `height`, each rounded up to an even number.
    public init(width: Int, height: Int) {
        self.init(even: width + width % 2, height + height % 2)
    }

    /// Parses a preset name or `WxH`; nil when it is neither or a side is out of 2...`maximumSide`.
    public init?(parsing text: String) {
        let lowered = text.lowercased().trimmingCharacters(in: .whitespaces)
        if let preset = FrameSize.presets.first(where: { $0.name == lowered }) {
            self = preset.size
            return
        }
        let parts = lowered.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (2...FrameSize.maximumSide).contains(w), (2...FrameSize.maximumSide).contains(h) else { return nil }
        self.init(width: w, height: h)
    }

    public var description: String { "\(width)x\(height)" }
}
