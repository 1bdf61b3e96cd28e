import DarkroomCaptions
import DarkroomCore
import DarkroomModel
import DarkroomVips
import Foundation

/// Draws one collage: lays the template out for its photos, decodes each photo at its cell's
/// size (shrink-on-load, cover fit with an attention crop, sRGB), and composes frames, labels,
/// film and captions on the background. Memory is bounded by this one collage.
public struct CollageRenderer: Sendable {
    public var template: CollageTemplate
    public var canvas: CanvasSize
    /// `{date}` without an explicit format.
    public var dateFormat: String
    /// The stage's `title` (itself a text with placeholders), for `{title}`.
    public var title: TextTemplate?
    public var font: String?
    public var textColour: Colour?
    public var background: Colour?
    /// The stage's `grid` option (`3x3`).
    public var grid: (rows: Int, columns: Int)?
    public var direction: Direction
    /// Photos over this many pixels are refused from their header.
    public var pixelLimit: Int

    public init(template: CollageTemplate, canvas: CanvasSize, dateFormat: String = "d MMM yyyy", title: TextTemplate? = nil,
                font: String? = nil, textColour: Colour? = nil, background: Colour? = nil,
                grid: (rows: Int, columns: Int)? = nil, direction: Direction = .auto, pixelLimit: Int = 100_000_000) {
        self.template = template
        self.canvas = canvas
        self.dateFormat = dateFormat
        self.title = title
        self.font = font
        self.textColour = textColour
        self.background = background
        self.grid = grid
        self.direction = direction
        self.pixelLimit = pixelLimit
    }

    /// A photo that could not be decoded, by its index in the photos given to `render`.
    public struct PhotoFailure: ClassifiedError, CustomStringConvertible {
        public var index: Int
        public var reason: String
        public var failureKind: FailureKind?
        public var description: String { reason }
    }

    /// Where each photo of `photos` goes on the canvas: its cell minus the frame and strip (before a
    /// turned cell's turn), in canvas pixels, as `render` draws it.
    public func photoBoxes(_ photos: [ItemRecord]) -> [(x: Int, y: Int, width: Int, height: Int)] {
        let tile = CellTile(template: template, overrides: TextOverrides(font: font, colour: textColour))
        return layout(for: photos, values: captionValues(photos)).layout.cells.prefix(photos.count).map { placement in
            let cell = placement.rect.pixels
            let size = tile.photoSize(cellWidth: cell.width, cellHeight: cell.height)
            let border = template.frame == nil ? 0 : Int((Double(cell.width - size.width) / 2).rounded())
            return (cell.x + border, cell.y + border, size.width, size.height)
        }
    }

    /// Renders `photos` (at most the template's capacity) as an 8-bit sRGB image of exactly the
    /// canvas size. Throws `PhotoFailure` for the first photo that does not decode. `cells`, when given,
    /// are the photos' pictures already made for their cells (the sizes of `photoBoxes`, 8-bit RGB): an aligned
    /// then-and-now pair; otherwise each photo is decoded to cover its cell.
    public func render(_ photos: [ItemRecord], cells: [Image]? = nil) throws -> Image {
        let values = captionValues(photos)
        let overrides = TextOverrides(font: font, colour: textColour)
        let (layout, captionTexts) = layout(for: photos, values: values)

        var image = try Image.solid(width: canvas.width, height: canvas.height, colour: background ?? template.background)
        var film: FilmDrawing?
        if let spec = template.film, let geometry = layout.film {
            film = FilmDrawing(film: spec, geometry: geometry)
            image = try film!.drawStrip(on: image)
        }

        let tile = CellTile(template: template, overrides: overrides)
        let drawingOrder = zip(photos, layout.cells).enumerated().sorted { a, b in
            (a.element.1.layer, a.offset) < (b.element.1.layer, b.offset)
        }
        for (index, (photo, placement)) in drawingOrder {
            let cell = placement.rect.pixels
            let size = tile.photoSize(cellWidth: cell.width, cellHeight: cell.height)
            let decoded: Image
            do {
                decoded = try cells?[index] ?? CellPhoto.decode(photo.source, width: size.width, height: size.height, pixelLimit: pixelLimit)
            } catch {
                throw PhotoFailure(index: index, reason: "\(error)", failureKind: FailureKind.of(error))
            }
            var cellValues = values
            cellValues.date = photo.captureDate?.local
            cellValues.number = index + 1
            let label = template.label?.text(forCell: index).render(cellValues) ?? ""
            image = try tile.draw(decoded, label: label, at: placement, on: image)
            if let film {
                image = try film.drawNumber(film.film.numbers.render(cellValues), beside: placement.rect, on: image, font: font)
            }
        }

        for (index, rect) in layout.captions {
            let caption = template.captions[index]
            image = try TextBlock.draw(captionTexts[index], style: caption.style, pixelSize: caption.style.size * rect.height,
                                       in: rect.inset(by: rect.height * 0.05), on: image, overrides: overrides)
        }
        return try image.flattened(red: 255, green: 255, blue: 255).eightBitRGB()
    }

    /// The layout of `photos` and the captions' texts (a caption without text takes no room).
    private func layout(for photos: [ItemRecord], values: CaptionValues) -> (layout: CollageLayout, captionTexts: [String]) {
        let captionTexts = template.captions.map { $0.text.render(values) }
        let layout = CollageLayout(template: template, count: photos.count, canvas: canvas,
                                   captionHasText: captionTexts.map { !$0.trimmingCharacters(in: .whitespaces).isEmpty },
                                   gridOverride: grid, direction: direction)
        return (layout, captionTexts)
    }

    private func captionValues(_ photos: [ItemRecord]) -> CaptionValues {
        let dates = photos.compactMap { $0.captureDate?.local }
        var values = CaptionValues(date: dates.first, firstDate: dates.min(), lastDate: dates.max(), number: nil,
                                   count: photos.count, title: "", dateFormat: DateText(pattern: dateFormat))
        values.title = title?.render(values) ?? ""
        return values
    }
}
