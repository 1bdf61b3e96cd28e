import DarkroomVips
import Foundation

/// One photo as it goes on the canvas: in its frame (if the template has one), with its label,
/// turned, and with its shadow.
struct CellTile {
    let template: CollageTemplate
    let overrides: TextOverrides

    /// The photo's size inside a cell of `width` x `height` (the cell minus frame and strip).
    func photoSize(cellWidth width: Int, cellHeight height: Int) -> (width: Int, height: Int) {
        guard let frame = template.frame else { return (width, height) }
        let border = Int((frame.border * Double(min(width, height))).rounded())
        let strip = Int((frame.strip * Double(height)).rounded())
        return (max(1, width - 2 * border), max(1, height - 2 * border - strip))
    }

    /// Draws `photo` (already `photoSize`) with its frame and `label` into `placement` on `canvas`.
    func draw(_ photo: Image, label: String, at placement: CellPlacement, on canvas: Image) throws -> Image {
        let cell = placement.rect.pixels
        let size = photoSize(cellWidth: cell.width, cellHeight: cell.height)
        var tile: Image
        var photoBox = Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
        if let frame = template.frame {
            let border = (Double(cell.width) - Double(size.width)) / 2
            tile = try Image.solid(width: cell.width, height: cell.height, colour: frame.colour, alpha: true)
                .composited(photo, x: Int(border.rounded()), y: Int(border.rounded()))
            photoBox.x = border; photoBox.y = border
        } else {
            tile = photo
        }
        tile = try drawLabel(label, on: tile, photo: photoBox, cell: cell)

        let shortSide = Double(min(cell.width, cell.height))
        var x = cell.x, y = cell.y
        if placement.rotation != 0 {
            tile = try tile.withAlpha().rotated(degrees: placement.rotation, background: Colour(red: 0, green: 0, blue: 0, alpha: 0))
            x = Int((placement.rect.midX - Double(tile.width) / 2).rounded())
            y = Int((placement.rect.midY - Double(tile.height) / 2).rounded())
        }
        var result = canvas
        if let shadow = template.frame?.shadow, shadow > 0 {
            let sigma = max(1, shadow * shortSide)
            let pad = Int((sigma * 3).rounded(.up))
            let clear = Colour(red: 0, green: 0, blue: 0, alpha: 0)
            let soft = try tile.withAlpha().linear(multiply: [0, 0, 0, 0.5], add: [0, 0, 0, 0])
                .embedded(x: pad, y: pad, width: tile.width + 2 * pad, height: tile.height + 2 * pad, background: clear)
                .blurred(sigma: sigma)
            let offset = Int((sigma * 0.5).rounded())
            result = try result.composited(soft, x: x - pad + offset, y: y - pad + offset)
        }
        return try result.composited(tile, x: x, y: y)
    }

    /// The label in the frame's strip, or on a band over the photo.
    private func drawLabel(_ text: String, on tile: Image, photo: Rect, cell: (x: Int, y: Int, width: Int, height: Int)) throws -> Image {
        guard let label = template.label, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return tile }
        let pixelSize = label.style.size * Double(min(cell.width, cell.height))
        switch label.position {
        case .strip:
            let top = photo.y + photo.height
            let box = Rect(x: photo.x, y: top, width: photo.width, height: Double(cell.height) - top).inset(by: Double(cell.height) * 0.01)
            return try TextBlock.draw(text, style: label.style, pixelSize: pixelSize, in: box, on: tile, overrides: overrides)
        case .overBottom, .overTop:
            let bandHeight = min(photo.height * 0.3, pixelSize * 2)
            let y = label.position == .overBottom ? photo.y + photo.height - bandHeight : photo.y
            let band = Rect(x: photo.x, y: y, width: photo.width, height: bandHeight).pixels
            let withBand = try tile.composited(Image.solid(width: band.width, height: band.height, colour: label.band, alpha: true),
                                               x: band.x, y: band.y)
            let padding = bandHeight * 0.3
            let box = Rect(x: photo.x + padding, y: y, width: max(1, photo.width - 2 * padding), height: bandHeight)
            return try TextBlock.draw(text, style: label.style, pixelSize: pixelSize, in: box, on: withBand, overrides: overrides)
        }
    }
}
