import DarkroomVips
import Foundation

/// Text rendered to fit a box: Pango text in a font at a pixel size, shrunk until it fits.
struct TextBlock {
    /// The rendered text (RGBA, sized to the text).
    let image: Image

    /// Renders `text` at about `pixelSize` px in `font` (a Pango family and style, no size),
    /// wrapping at the box's width and shrinking until it fits `width` x `height`.
    init(_ text: String, font: String, pixelSize: Double, colour: Colour, alignment: TextStyle.Alignment,
         width: Int, height: Int) throws {
        var size = max(6, pixelSize)
        var image = try TextBlock.render(text, font: font, size: size, colour: colour, alignment: alignment, wrap: width)
        var attempts = 0
        while (image.width > width || image.height > height), size > 6, attempts < 16 {
            size = max(6, size * 0.88)
            image = try TextBlock.render(text, font: font, size: size, colour: colour, alignment: alignment, wrap: width)
            attempts += 1
        }
        self.image = image
    }

    private static func render(_ text: String, font: String, size: Double, colour: Colour,
                               alignment: TextStyle.Alignment, wrap: Int) throws -> Image {
        let align: TextAlignment = alignment == .left ? .left : alignment == .right ? .right : .centre
        // At 72 dpi a point is a pixel.
        return try Image.text(text, font: "\(font) \(Int(size.rounded()))", colour: colour,
                              wrapWidth: max(1, wrap), alignment: align, dpi: 72)
    }

    /// Where the text goes to sit in `box` with `alignment`, centred vertically.
    func origin(in box: Rect, alignment: TextStyle.Alignment) -> (x: Int, y: Int) {
        let p = box.pixels
        let y = p.y + (p.height - image.height) / 2
        switch alignment {
        case .left: return (p.x, y)
        case .centre: return (p.x + (p.width - image.width) / 2, y)
        case .right: return (p.x + p.width - image.width, y)
        }
    }

    /// Draws `text` fitted into `box` (in `target`'s coordinates) and returns the result.
    static func draw(_ text: String, style: TextStyle, pixelSize: Double, in box: Rect, on target: Image,
                     overrides: TextOverrides) throws -> Image {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return target }
        let p = box.pixels
        let block = try TextBlock(text, font: overrides.font ?? style.font, pixelSize: pixelSize,
                                  colour: overrides.colour ?? style.colour, alignment: style.align,
                                  width: p.width, height: p.height)
        let at = block.origin(in: box, alignment: style.align)
        return try target.composited(block.image, x: at.x, y: at.y)
    }
}

/// The stage's `font` and `text-colour` options, which win over the template's.
struct TextOverrides: Sendable {
    var font: String?
    var colour: Colour?
}
