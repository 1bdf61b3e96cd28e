internal import CCairo
import Foundation

/// The page being drawn, handed to `PDFDocument.addPage`'s closure. Coordinates are points from
/// the top-left corner.
public struct PDFPage {
    let document: PDFDocument

    /// The page's size.
    public var size: PDFSize { document.pageSize }

    /// Fills `rect` with `colour`.
    public func fill(_ rect: PDFRect, colour: PDFColour) {
        let cr = document.context
        cairo_save(cr)
        cairo_set_source_rgb(cr, colour.red, colour.green, colour.blue)
        cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// Places `image` scaled to fill `rect` (the caller keeps its aspect ratio). The PDF gets the
    /// image's JPEG stream unchanged.
    public func draw(_ image: PDFImage, in rect: PDFRect) {
        let cr = document.context
        cairo_save(cr)
        cairo_translate(cr, rect.x, rect.y)
        cairo_scale(cr, rect.width / Double(image.width), rect.height / Double(image.height))
        cairo_set_source_surface(cr, image.surface, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Lays `text` out with Pango in `style`, wrapped to `rect`'s width and aligned in it, and
    /// draws it from `rect`'s top (a line that does not fit is still drawn below it). Returns the
    /// height the text took, in points. The font's glyphs used are embedded as a subset.
    @discardableResult
    public func draw(_ text: String, style: PDFTextStyle, in rect: PDFRect) throws -> Double {
        let layout = try TextLayout(context: document.context, text: text, style: style, width: rect.width)
        let cr = document.context
        cairo_save(cr)
        cairo_set_source_rgb(cr, style.colour.red, style.colour.green, style.colour.blue)
        cairo_move_to(cr, rect.x, rect.y)
        layout.show(on: cr)
        cairo_restore(cr)
        try document.check("draw text '\(text.prefix(40))'")
        return layout.size.height
    }

    /// The size `text` takes in `style` when wrapped to `width` points.
    public func measure(_ text: String, style: PDFTextStyle, width: Double) throws -> PDFSize {
        try TextLayout(context: document.context, text: text, style: style, width: width).size
    }
}
