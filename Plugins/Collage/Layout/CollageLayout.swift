import Foundation

/// Where everything of one collage goes, in canvas pixels: the result of laying a template out
/// for a number of photos on a canvas.
struct CollageLayout {
    var cells: [CellPlacement]
    /// Caption bands that hold text, with their caption's index in the template.
    var captions: [(index: Int, rect: Rect)]
    /// The film strip behind a single-line grid, when the template has `film`.
    var film: FilmGeometry?
}

/// The strip of film and its sprocket bands.
struct FilmGeometry {
    var strip: Rect
    /// True when the strip runs across the canvas (bands above and below the frames).
    var horizontal: Bool
    /// The thickness of each sprocket band.
    var band: Double
}

/// Which way a one-line layout runs; `auto` follows the canvas's long side.
public enum Direction: String, Codable, Sendable, CaseIterable {
    case auto, horizontal, vertical
}

extension CollageLayout {
    /// Lays `template` out for `count` photos (at most its capacity) on `canvas`.
    /// `captionHasText` says which canvas captions have text (empty ones take no space);
    /// `grid` and `direction` are the stage's overrides.
    init(template: CollageTemplate, count: Int, canvas: CanvasSize, captionHasText: [Bool],
         gridOverride: (rows: Int, columns: Int)? = nil, direction: Direction = .auto) {
        var area = canvas.layoutArea
        area = area.inset(by: template.margin * area.shortSide)
        var captions: [(index: Int, rect: Rect)] = []
        for (index, caption) in template.captions.enumerated() where captionHasText[index] {
            let h = caption.height * area.height
            switch caption.band {
            case .top:
                captions.append((index: index, rect: Rect(x: area.x, y: area.y, width: area.width, height: h)))
                area = Rect(x: area.x, y: area.y + h, width: area.width, height: area.height - h)
            case .bottom:
                captions.append((index: index, rect: Rect(x: area.x, y: area.y + area.height - h, width: area.width, height: h)))
                area.height -= h
            }
        }
        self.captions = captions
        film = nil
        switch template.layout {
        case .cells(let cells):
            self.cells = CollageLayout.explicit(cells.prefix(count), in: area, aspect: template.cellAspect)
        case .grid(let grid):
            let horizontal: Bool
            switch direction {
            case .auto: horizontal = area.width >= area.height
            case .horizontal: horizontal = true
            case .vertical: horizontal = false
            }
            var shape: (rows: Int, columns: Int)
            if let gridOverride, gridOverride.rows * gridOverride.columns == count {
                shape = gridOverride
            } else if grid.singleLine || direction != .auto {
                shape = horizontal ? (1, count) : (count, 1)
            } else if let capacity = grid.fixedCapacity, capacity == count, case .fixed(let r) = grid.rows, case .fixed(let c) = grid.columns {
                shape = (r, c)
            } else {
                shape = GridShape.best(count: count, rows: grid.rows, columns: grid.columns, area: area,
                                       gutter: grid.gutter * area.shortSide, aspect: template.cellAspect ?? 1)
            }
            var gridArea = area
            var bandFraction = 0.0
            if let film = template.film {
                // The frames' thickness plus a sprocket band either side must fit across the area.
                bandFraction = film.band
                // Along the strip, a gutter at each end keeps the first and last frames off the strip's ends.
                let scale = 1 / (1 + 2 * film.band)
                let end = grid.gutter * area.shortSide
                gridArea = horizontal ? Rect(x: area.x, y: area.midY - area.height * scale / 2, width: area.width, height: area.height * scale)
                                      : Rect(x: area.midX - area.width * scale / 2, y: area.y + end, width: area.width * scale, height: area.height - 2 * end)
            }
            let placed = GridShape.cells(count: count, rows: shape.rows, columns: shape.columns, in: gridArea,
                                         gutter: grid.gutter * area.shortSide, aspect: template.cellAspect)
            self.cells = placed.map { CellPlacement(rect: $0, rotation: 0) }
            if template.film != nil, let first = placed.first {
                let canvasRect = Rect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height))
                if horizontal {
                    let band = first.height * bandFraction
                    film = FilmGeometry(strip: Rect(x: canvasRect.x, y: first.y - band, width: canvasRect.width, height: first.height + 2 * band),
                                        horizontal: true, band: band)
                } else {
                    let band = first.width * bandFraction
                    // Down the layout area only, so captions above and below stay on the background.
                    film = FilmGeometry(strip: Rect(x: first.x - band, y: area.y, width: first.width + 2 * band, height: area.height),
                                        horizontal: false, band: band)
                }
            }
        }
    }

    /// Explicit cells in relative coordinates; when fewer than all are used, the used ones are
    /// moved together so they stay centred in the area.
    static func explicit(_ cells: ArraySlice<CollageTemplate.Cell>, in area: Rect, aspect: Double?) -> [CellPlacement] {
        var rects = cells.map { cell -> Rect in
            let box = area.relative(x: cell.x, y: cell.y, width: cell.width, height: cell.height)
            return aspect.map(box.fitted) ?? box
        }
        if let minX = rects.map(\.x).min(), let minY = rects.map(\.y).min(),
           let maxX = rects.map({ $0.x + $0.width }).max(), let maxY = rects.map({ $0.y + $0.height }).max() {
            let dx = area.midX - (minX + maxX) / 2, dy = area.midY - (minY + maxY) / 2
            rects = rects.map { Rect(x: $0.x + dx, y: $0.y + dy, width: $0.width, height: $0.height) }
        }
        return zip(rects, cells).map { CellPlacement(rect: $0, rotation: $1.rotation, layer: $1.layer) }
    }
}
