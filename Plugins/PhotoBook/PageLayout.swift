import DarkroomCairo
import DarkroomCore
import Foundation
import DarkroomOptions

/// Where the photos of one page go, inside the page's margins: a built-in arrangement of 1, 2 or
/// 4 equal cells with gutters between them, or the cells of a layout file.
public enum PageLayout: Sendable, Hashable {
    /// `photos-per-page` equal cells: 1; 2 stacked on a tall page or side by side on a wide one; 4 as 2 x 2.
    case grid(photosPerPage: Int)
    /// A layout file's cells.
    case cells([PageCell])

    /// How many photos a page takes.
    public var photosPerPage: Int {
        switch self {
        case .grid(let count): return count
        case .cells(let cells): return cells.count
        }
    }

    /// Each cell's rectangle on a page whose printable area is `content`; `gutter` points
    /// separate a grid's cells (a layout file keeps its own gaps).
    func rects(in content: PDFRect, gutter: Double) -> [PDFRect] {
        switch self {
        case .grid(let count):
            let (rows, columns): (Int, Int)
            switch count {
            case 1: (rows, columns) = (1, 1)
            case 2: (rows, columns) = content.height >= content.width ? (2, 1) : (1, 2)
            default: (rows, columns) = (2, 2)
            }
            let width = (content.width - gutter * Double(columns - 1)) / Double(columns)
            let height = (content.height - gutter * Double(rows - 1)) / Double(rows)
            return (0..<rows).flatMap { row in
                (0..<columns).map { column in
                    PDFRect(x: content.x + Double(column) * (width + gutter), y: content.y + Double(row) * (height + gutter),
                            width: width, height: height)
                }
            }
        case .cells(let cells):
            return cells.map {
                PDFRect(x: content.x + $0.x * content.width, y: content.y + $0.y * content.height,
                        width: $0.width * content.width, height: $0.height * content.height)
            }
        }
    }
}

/// One photo's cell in a layout file, in fractions (0...1) of the page inside its margins.
public struct PageCell: Decodable, Sendable, Hashable {
    public var x, y, width, height: Double

    public init(from decoder: Decoder) throws {
        let r = try OptionsReader(decoder)
        x = try r.value("x", default: 0, where: { (0...1).contains($0) }, expected: "a fraction from 0 to 1")
        y = try r.value("y", default: 0, where: { (0...1).contains($0) }, expected: "a fraction from 0 to 1")
        width = try r.required("width", Double.self)
        height = try r.required("height", Double.self)
        for (key, value) in [("width", width), ("height", height)] where !(value >= 0.05 && value <= 1) {
            throw r.invalid(key, expected: "a fraction from 0.05 to 1", got: "\(value)")
        }
        if x + width > 1.0001 { throw r.invalid("width", expected: "x + width at most 1", got: "\(x) + \(width)") }
        if y + height > 1.0001 { throw r.invalid("height", expected: "y + height at most 1", got: "\(y) + \(height)") }
    }

    /// Whether the two cells share some area (touching edges do not count).
    func overlaps(_ other: PageCell) -> Bool {
        let tolerance = 1e-4
        return x + width - tolerance > other.x && other.x + other.width - tolerance > x
            && y + height - tolerance > other.y && other.y + other.height - tolerance > y
    }
}

/// A page layout file, read beside the pipeline file like a collage template:
///
///     # a large photo over two small ones; fractions of the page inside its margins
///     name: feature
///     cells:
///       - { x: 0, y: 0, width: 1, height: 0.62 }
///       - { x: 0, y: 0.65, width: 0.485, height: 0.35 }
///       - { x: 0.515, y: 0.65, width: 0.485, height: 0.35 }
///
/// Photos fill the cells in order, each fitted whole inside its cell with its caption below.
public struct PageLayoutFile: Decodable, Sendable {
    /// The layout's name, for messages.
    public var name: String
    public var cells: [PageCell]

    /// Most cells one page may hold.
    public static let maximumCells = 12

    public init(from decoder: Decoder) throws {
        let r = try OptionsReader(decoder)
        name = try r.value("name", default: "layout", where: { !$0.isEmpty }, expected: "a name")
        cells = try r.required("cells", [PageCell].self)
        guard (1...Self.maximumCells).contains(cells.count) else {
            throw r.invalid("cells", expected: "from 1 to \(Self.maximumCells) cells", got: "\(cells.count)")
        }
        for (i, a) in cells.enumerated() {
            for (j, b) in cells.enumerated() where j > i && a.overlaps(b) {
                throw r.invalid("cells", expected: "cells that do not overlap", got: "cells[\(i)] and cells[\(j)] overlapping")
            }
        }
    }
}
