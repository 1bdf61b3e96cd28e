import DarkroomCairo
import Foundation

/// Closes up a grid page: photos fitted to tall cells would float in them with wide gaps between
/// the rows. Instead each row is as tall as its tallest photo (and caption), the rows a gutter
/// apart, and the block of rows is centred on the page; across, each photo stays centred in its cell.
///
///     ┌───────────┐          ┌───────────┐
///     │           │          │           │
///     │  [photo]  │          │  [photo]  │
///     │   date    │    ─▶    │   date    │
///     │           │          │  [photo]  │
///     │  [photo]  │          │   date    │
///     │   date    │          │           │
///     └───────────┘          └───────────┘
enum RowPacking {
    /// `photos` (in cell order, already fitted) moved down or up so that their rows meet at the
    /// middle of `content`.
    static func packed(_ photos: [PlacedPhoto], in content: PDFRect, gutter: Double, captionBand: Double) -> [PlacedPhoto] {
        let rowTops = Array(Set(photos.map(\.cell.y))).sorted()
        let heights = rowTops.map { top in photos.filter { $0.cell.y == top }.map(\.rect.height).max() ?? 0 }
        let total = heights.reduce(0, +) + Double(rowTops.count) * captionBand + gutter * Double(rowTops.count - 1)
        var y = content.y + max(0, (content.height - total) / 2)
        var placed = photos
        for (row, top) in rowTops.enumerated() {
            for index in placed.indices where placed[index].cell.y == top {
                placed[index].rect.y = y + (heights[row] - placed[index].rect.height) / 2
            }
            y += heights[row] + captionBand + gutter
        }
        return placed
    }
}
