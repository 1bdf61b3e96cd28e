import DarkroomVips
import Foundation

/// The film behind a film-strip layout: the strip, sprocket holes in both bands, and the frame
/// numbers in the band after the frames (below a horizontal strip, right of a vertical one).
struct FilmDrawing {
    let film: CollageTemplate.Film
    let geometry: FilmGeometry

    /// The strip and its holes, drawn before the photos.
    func drawStrip(on canvas: Image) throws -> Image {
        let strip = geometry.strip
        var result = try canvas.drawingRectangles([strip.pixels], colour: film.colour)
        let band = geometry.band
        let across = band * 0.34, along = band * 0.26, pitch = band * 0.62
        let length = geometry.horizontal ? strip.width : strip.height
        let count = max(1, Int(length / pitch))
        let start = (length - Double(count - 1) * pitch - along) / 2
        var holes: [(x: Int, y: Int, width: Int, height: Int)] = []
        for index in 0..<count {
            let offset = start + Double(index) * pitch
            // Holes sit in the outer part of each band; the inner part is left for numbers.
            let outer = band * 0.18
            if geometry.horizontal {
                holes.append(Rect(x: strip.x + offset, y: strip.y + outer, width: along, height: across).pixels)
                holes.append(Rect(x: strip.x + offset, y: strip.y + strip.height - outer - across, width: along, height: across).pixels)
            } else {
                holes.append(Rect(x: strip.x + outer, y: strip.y + offset, width: across, height: along).pixels)
                holes.append(Rect(x: strip.x + strip.width - outer - across, y: strip.y + offset, width: across, height: along).pixels)
            }
        }
        result = try result.drawingRectangles(holes, colour: film.holes)
        return result
    }

    /// A frame number beside `frame`, in the inner part of the band after it.
    func drawNumber(_ text: String, beside frame: Rect, on canvas: Image, font: String?) throws -> Image {
        guard !text.isEmpty else { return canvas }
        let band = geometry.band
        let depth = band * 0.36
        let gap = band * 0.06
        let style = TextStyle(font: font ?? "DejaVu Sans Mono Bold", size: 1, colour: film.numberColour, align: .centre)
        if geometry.horizontal {
            let box = Rect(x: frame.x, y: frame.y + frame.height + gap, width: frame.width * 0.3, height: depth)
            return try TextBlock.draw(text, style: style, pixelSize: depth * 0.9, in: box, on: canvas, overrides: TextOverrides())
        }
        // Down a vertical strip the numbers read along the film, turned a quarter.
        let block = try TextBlock(text, font: style.font, pixelSize: depth * 0.9, colour: film.numberColour, alignment: .centre,
                                  width: Int(frame.height * 0.3), height: Int(depth))
        let turned = try block.image.rotated(degrees: 90, background: Colour(red: 0, green: 0, blue: 0, alpha: 0))
        let x = Int((frame.x + frame.width + gap + (depth - Double(turned.width)) / 2).rounded())
        let y = Int((frame.y + frame.height * 0.15 - Double(turned.height) / 2).rounded())
        return try canvas.composited(turned, x: x, y: max(0, y))
    }
}

extension TextStyle {
    init(font: String, size: Double, colour: Colour, align: Alignment) {
        self.font = font
        self.size = size
        self.colour = colour
        self.align = align
    }
}
