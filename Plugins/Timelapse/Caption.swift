import DarkroomCaptions
import DarkroomCore
import DarkroomVips
import Foundation
import DarkroomModel

/// The date caption: text from the capture date, drawn with Pango (libvips `text`) over the frame
/// with a soft shadow so it reads on light and dark photos alike.
struct Caption {
    let format: String
    let position: TimelapseOptions.CaptionPosition
    let fontSize: Int
    let colour: Colour
    let font: String
    private let dates: DateText

    init(options: TimelapseOptions) {
        format = options.captionFormat
        position = options.captionPosition
        fontSize = options.effectiveCaptionSize
        colour = options.captionColour
        font = options.captionFont
        dates = DateText(pattern: options.captionFormat)
    }

    /// The caption for a wall-clock time, as the photographer's clock showed it (no zone conversion).
    func text(for date: LocalDateTime) -> String {
        dates.string(date)
    }

    /// `frame` with `text` drawn at the caption position, a margin of half the font size from the edges.
    func draw(_ text: String, on frame: Image) throws -> Image {
        let description = "\(font) \(fontSize)"
        let shadowColour = Colour(red: 0, green: 0, blue: 0, alpha: 150 * colour.alpha / 255)
        let label = try Image.text(text, font: description, colour: colour, dpi: 72)
        let shadow = try Image.text(text, font: description, colour: shadowColour, dpi: 72)
        let margin = max(4, fontSize / 2)
        let offset = max(1, fontSize / 16)
        let x: Int
        switch position {
        case .topLeft, .bottomLeft: x = margin
        case .top, .bottom: x = (frame.width - label.width) / 2
        case .topRight, .bottomRight: x = frame.width - margin - label.width
        }
        let y: Int
        switch position {
        case .topLeft, .top, .topRight: y = margin
        case .bottomLeft, .bottom, .bottomRight: y = frame.height - margin - label.height
        }
        return try frame.composited(shadow, x: x + offset, y: y + offset).composited(label, x: x, y: y)
    }
}
