internal import CCairo
import Foundation

/// How text is set: a Pango font, its size in points, colour and alignment.
public struct PDFTextStyle: Sendable, Hashable {
    /// A Pango font description without the size: family and style (`DejaVu Sans Bold`).
    public var font: String
    /// The font size in points.
    public var size: Double
    public var colour: PDFColour
    public var alignment: PDFTextAlignment

    /// Text in `font` at `size` points.
    public init(font: String, size: Double, colour: PDFColour = .black, alignment: PDFTextAlignment = .left) {
        self.font = font
        self.size = size
        self.colour = colour
        self.alignment = alignment
    }
}

/// How lines of text sit in their width.
public enum PDFTextAlignment: Sendable, Hashable {
    case left, centre, right
}

/// A Pango font description, freed in `deinit`.
final class FontDescription {
    let pointer: OpaquePointer

    /// `font` (family and style) at `size` points, whatever the context's resolution.
    init(_ font: String, size: Double) throws {
        guard let pointer = pango_font_description_from_string(font) else {
            throw CairoError(path: nil, operation: "font", reason: "Pango could not read the font name '\(font)'")
        }
        self.pointer = pointer
        pango_font_description_set_absolute_size(pointer, size * Double(darkroom_pango_scale()))
    }

    deinit { pango_font_description_free(pointer) }
}

/// A Pango layout of one text for a cairo context, unreferenced in `deinit`.
final class TextLayout {
    private let pointer: OpaquePointer
    /// The laid-out size in points.
    let size: PDFSize

    init(context: OpaquePointer, text: String, style: PDFTextStyle, width: Double) throws {
        guard style.size > 0, style.size <= 1000 else {
            throw CairoError(path: nil, operation: "text", reason: "font size \(style.size) pt is outside 0...1000")
        }
        guard let pointer = pango_cairo_create_layout(context) else {
            throw CairoError(path: nil, operation: "text", reason: "Pango returned no layout")
        }
        self.pointer = pointer
        let scale = Double(darkroom_pango_scale())
        let font = try FontDescription(style.font, size: style.size)
        pango_layout_set_font_description(pointer, font.pointer)
        pango_layout_set_width(pointer, Int32(max(1, width * scale)))
        pango_layout_set_wrap(pointer, PANGO_WRAP_WORD_CHAR)
        switch style.alignment {
        case .left: pango_layout_set_alignment(pointer, PANGO_ALIGN_LEFT)
        case .centre: pango_layout_set_alignment(pointer, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(pointer, PANGO_ALIGN_RIGHT)
        }
        pango_layout_set_text(pointer, text, -1)
        var logicalWidth: Int32 = 0, logicalHeight: Int32 = 0
        pango_layout_get_size(pointer, &logicalWidth, &logicalHeight)
        size = PDFSize(width: Double(logicalWidth) / scale, height: Double(logicalHeight) / scale)
    }

    deinit { darkroom_pango_layout_unref(pointer) }

    /// Draws the layout at the context's current point, in its current source colour.
    func show(on context: OpaquePointer) {
        pango_cairo_show_layout(context, pointer)
    }
}
