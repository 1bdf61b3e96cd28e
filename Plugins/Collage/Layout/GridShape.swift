import Foundation

/// Grid arithmetic: choosing rows x columns for a photo count, and placing the cells.
enum GridShape {
    /// The rows x columns that hold `count` cells with the least waste: cells closest to `aspect`
    /// (width / height), few empty places. A fixed `rows` or `columns` is kept.
    static func best(count: Int, rows: CollageTemplate.Count, columns: CollageTemplate.Count, area: Rect,
                     gutter: Double, aspect: Double) -> (rows: Int, columns: Int) {
        var candidates: [(rows: Int, columns: Int)] = []
        switch (rows, columns) {
        case (.fixed(let r), _): candidates = [(r, Int((Double(count) / Double(r)).rounded(.up)))]
        case (_, .fixed(let c)): candidates = [(Int((Double(count) / Double(c)).rounded(.up)), c)]
        default:
            candidates = (1...max(1, count)).map { c in (rows: Int((Double(count) / Double(c)).rounded(.up)), columns: c) }
                .filter { ($0.rows - 1) * $0.columns < count }
        }
        func score(_ shape: (rows: Int, columns: Int)) -> Double {
            let w = (area.width - Double(shape.columns - 1) * gutter) / Double(shape.columns)
            let h = (area.height - Double(shape.rows - 1) * gutter) / Double(shape.rows)
            let empty = Double(shape.rows * shape.columns - count) / Double(count)
            // The tiny row term breaks exact ties (a square canvas) towards side by side.
            return abs(log(max(w, 1) / max(h, 1) / aspect)) + empty + 0.0001 * Double(shape.rows)
        }
        return candidates.min { score($0) < score($1) } ?? (1, count)
    }

    /// `count` cells in `rows` x `columns` filling `area` with `gutter` between them; with `aspect`
    /// the cells take that shape and the grid is centred. A last row that is not full is centred.
    static func cells(count: Int, rows: Int, columns: Int, in area: Rect, gutter: Double, aspect: Double?) -> [Rect] {
        var w = (area.width - Double(columns - 1) * gutter) / Double(columns)
        var h = (area.height - Double(rows - 1) * gutter) / Double(rows)
        if let aspect {
            if w / h > aspect { w = h * aspect } else { h = w / aspect }
        }
        let blockWidth = Double(columns) * w + Double(columns - 1) * gutter
        let blockHeight = Double(rows) * h + Double(rows - 1) * gutter
        let left = area.x + (area.width - blockWidth) / 2, top = area.y + (area.height - blockHeight) / 2
        return (0..<count).map { index in
            let row = index / columns, column = index % columns
            let inRow = row == rows - 1 ? count - row * columns : columns
            let rowLeft = left + Double(columns - inRow) * (w + gutter) / 2
            return Rect(x: rowLeft + Double(column) * (w + gutter), y: top + Double(row) * (h + gutter), width: w, height: h)
        }
    }
}
