import Foundation

/// Frame sizes of animations made for chat apps (`format: webp | gif`): they show an animation at
/// most about 1080 px wide, and one too big to send is recompressed or refused.
enum AnimationSize {
    /// The long edge used when `size` is not given.
    static let defaultLongEdge = 720
    /// The largest long edge accepted in `size`.
    static let maximumLongEdge = 1080
    /// The smallest long edge `max-bytes` lowers the frame to.
    static let minimumLongEdge = 480

    /// The frame when `size` is not given: 16:9 with the default long edge (720x405).
    static let defaultSize = FrameSize(exactly: defaultLongEdge, defaultLongEdge * 9 / 16)

    /// The long edge of `size`.
    static func longEdge(of size: FrameSize) -> Int { max(size.width, size.height) }

    /// `size` scaled so its long edge is `longEdge` (aspect kept, rounded to whole pixels).
    static func scaled(_ size: FrameSize, toLongEdge longEdge: Int) -> FrameSize {
        let scale = Double(longEdge) / Double(self.longEdge(of: size))
        return FrameSize(exactly: max(2, Int((Double(size.width) * scale).rounded())),
                         max(2, Int((Double(size.height) * scale).rounded())))
    }
}

/// A number of bytes written `8000000`, `800KB`, `8MB` (or `800k`, `8M`: powers of 1000, as file
/// managers and chat apps count).
enum ByteCount {
    /// The count, nil when `text` is not a positive whole number with an optional k/KB/M/MB/G/GB suffix.
    static func parse(_ text: String) -> Int? {
        let lowered = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(suffix: String, factor: Double)] = [("gb", 1e9), ("mb", 1e6), ("kb", 1e3), ("g", 1e9), ("m", 1e6), ("k", 1e3), ("b", 1)]
        let (number, factor) = units.first { lowered.hasSuffix($0.suffix) }
            .map { (String(lowered.dropLast($0.suffix.count)).trimmingCharacters(in: .whitespaces), $0.factor) } ?? (lowered, 1)
        guard let value = Double(number), value.isFinite, value > 0, value * factor >= 1, value * factor < 1e15 else { return nil }
        return Int((value * factor).rounded())
    }

    /// `bytes` for people: `812 KB`, `1.4 MB`.
    static func describe(_ bytes: Int) -> String {
        bytes >= 1_000_000 ? String(format: "%.1f MB", Double(bytes) / 1e6) : "\((bytes + 500) / 1000) KB"
    }
}
