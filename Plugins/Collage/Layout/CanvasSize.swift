import Foundation

/// The output size: a social preset or any `WxH`.
public struct CanvasSize: Codable, Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    /// The named presets, in the order they are documented.
    public static let presets: [(name: String, size: CanvasSize)] = [
        ("square", CanvasSize(width: 1080, height: 1080)),
        ("portrait", CanvasSize(width: 1080, height: 1350)),
        ("story", CanvasSize(width: 1080, height: 1920)),
        ("landscape", CanvasSize(width: 1920, height: 1080)),
    ]

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `square`, `portrait`, `story`, `landscape` or `WxH` (16...8000 each); nil otherwise.
    public init?(parsing text: String) {
        if let preset = CanvasSize.presets.first(where: { $0.name == text }) { self = preset.size; return }
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (16...8000).contains(w), (16...8000).contains(h) else { return nil }
        self.init(width: w, height: h)
    }

    /// The part of the canvas where text and photos go. Tall story-shaped canvases (9:16 or
    /// taller) keep the top 250/1920 and bottom 340/1920 free, where apps draw their own controls.
    public var safeArea: (top: Int, bottom: Int) {
        guard Double(height) / Double(width) >= 16.0 / 9.0 - 0.01 else { return (0, 0) }
        return (Int((250.0 / 1920.0 * Double(height)).rounded()), Int((340.0 / 1920.0 * Double(height)).rounded()))
    }

    var layoutArea: Rect {
        let safe = safeArea
        return Rect(x: 0, y: Double(safe.top), width: Double(width), height: Double(height - safe.top - safe.bottom))
    }

    public var description: String { "\(width)x\(height)" }
}
