import DarkroomCaptions
import DarkroomCore
import DarkroomImaging
import DarkroomVips
import Foundation
import DarkroomOptions

/// A collage layout as data: built-in templates and users' template files are the same YAML,
/// decoded here. Relative lengths are fractions of the layout area (the canvas inside the size's
/// safe zone), so one template serves every size.
///
///     name: polaroid
///     background: "#e6dfd3"
///     cells:                        # or `grid:` (rows x columns, generated)
///       - { x: 0.03, y: 0.02, width: 0.55, height: 0.55, rotation: -5 }
///     cell-aspect: 0.82             # each cell shrinks to this width/height, centred in its box
///     frame: { colour: "#fbfaf5", border: 0.05, strip: 0.16, shadow: 0.02 }
///     label: { text: "{date}", position: strip, size: 0.075, colour: "#333333" }
///     captions:
///       - { text: "{title}", band: bottom, height: 0.08 }
public struct CollageTemplate: Decodable, Sendable {
    /// The template's name (`{template}` in output names).
    public var name: String
    /// One line on what it looks like.
    public var summary: String
    public var background: Colour
    /// Space kept free around the layout, as a fraction of the layout area's short side.
    public var margin: Double
    /// How many photos one collage takes (nil: the `photos-per-collage` option decides).
    public var photos: Int?
    /// Which photos of a group go in: all in order, or a pair (then and now).
    public var pick: Pick
    /// Where the photos go.
    public var layout: Layout
    /// When set, each cell is shrunk to this width / height ratio, centred in its box.
    public var cellAspect: Double?
    public var frame: Frame?
    public var label: Label?
    public var captions: [Caption]
    public var film: Film?

    /// How the photos of a collage are chosen from its group.
    public enum Pick: String, Codable, Sendable, CaseIterable {
        /// Consecutive photos in capture-date order.
        case sequence
        /// Two photos, chosen by the stage's `pairing` option (earliest and latest, or a year apart).
        case pair
    }

    /// Cells given one by one, or generated as a grid.
    public enum Layout: Sendable {
        case cells([Cell])
        case grid(Grid)
    }

    /// One photo's box in relative coordinates (0...1 of the layout area), turned by `rotation`
    /// degrees (clockwise). Photos fill cells in order; cells are drawn by `layer` (then in order),
    /// so a higher layer overlaps a lower one.
    public struct Cell: Decodable, Sendable, Equatable {
        public var x, y, width, height, rotation: Double
        public var layer: Int

        public init(from decoder: Decoder) throws {
            let r = try OptionsReader(decoder)
            let unit = "a fraction from 0 to 1"
            x = try r.required("x", Double.self); y = try r.required("y", Double.self)
            width = try r.required("width", Double.self); height = try r.required("height", Double.self)
            for (key, value) in [("x", x), ("y", y)] where !(0...1).contains(value) { throw r.invalid(key, expected: unit, got: "\(value)") }
            for (key, value) in [("width", width), ("height", height)] where !(value > 0 && value <= 1) {
                throw r.invalid(key, expected: "a fraction above 0, at most 1", got: "\(value)")
            }
            if x + width > 1.0001 { throw r.invalid("width", expected: "x + width at most 1", got: "\(x) + \(width)") }
            if y + height > 1.0001 { throw r.invalid("height", expected: "y + height at most 1", got: "\(y) + \(height)") }
            rotation = try r.value("rotation", default: 0.0, where: { abs($0) <= 45 }, expected: "degrees from -45 to 45")
            layer = try r.value("layer", default: 0, where: { (-100...100).contains($0) }, expected: "an integer from -100 to 100")
        }
    }

    /// Rows x columns of equal cells with gutters; `auto` picks what suits the photo count and canvas.
    public struct Grid: Decodable, Sendable, Equatable {
        public var rows: Count
        public var columns: Count
        /// The space between cells, as a fraction of the layout area's short side.
        public var gutter: Double
        /// One row or one column (a strip), whichever runs along the canvas's long side.
        public var singleLine: Bool

        public init(rows: Count = .auto, columns: Count = .auto, gutter: Double = 0.01, singleLine: Bool = false) {
            self.rows = rows; self.columns = columns; self.gutter = gutter; self.singleLine = singleLine
        }

        public init(from decoder: Decoder) throws {
            let r = try OptionsReader(decoder)
            rows = try r.value("rows", default: .auto)
            columns = try r.value("columns", default: .auto)
            gutter = try r.value("gutter", default: 0.01, where: { (0...0.2).contains($0) }, expected: "a fraction from 0 to 0.2")
            singleLine = try r.value("single-line", default: false)
            if singleLine, rows != .auto || columns != .auto {
                throw r.invalid("single-line", expected: "rows and columns left as auto with single-line", got: "true")
            }
        }

        /// The fixed number of cells, when both rows and columns are given.
        var fixedCapacity: Int? {
            if case .fixed(let r) = rows, case .fixed(let c) = columns { return r * c }
            return nil
        }
    }

    /// A number of rows or columns: a positive integer, or `auto`.
    public enum Count: Codable, Sendable, Equatable, CustomStringConvertible {
        case auto
        case fixed(Int)

        public init(from decoder: Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            if text == "auto" { self = .auto; return }
            guard let value = Int(text), (1...20).contains(value) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "expected 'auto' or an integer from 1 to 20, got '\(text)'"))
            }
            self = .fixed(value)
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(description)
        }

        public var description: String {
            switch self {
            case .auto: return "auto"
            case .fixed(let n): return "\(n)"
            }
        }
    }

    /// A border around each photo (a print's white edge), with an optional caption strip below it.
    public struct Frame: Decodable, Sendable, Equatable {
        public var colour: Colour
        /// The border, as a fraction of the cell's short side.
        public var border: Double
        /// Extra border at the bottom for a caption, as a fraction of the cell's height.
        public var strip: Double
        /// A soft drop shadow: its blur as a fraction of the cell's short side (0: none).
        public var shadow: Double

        public init(from decoder: Decoder) throws {
            let r = try OptionsReader(decoder)
            colour = try r.colour("colour", default: .white)
            border = try r.value("border", default: 0.04, where: { (0...0.3).contains($0) }, expected: "a fraction from 0 to 0.3")
            strip = try r.value("strip", default: 0.0, where: { (0...0.5).contains($0) }, expected: "a fraction from 0 to 0.5")
            shadow = try r.value("shadow", default: 0.0, where: { (0...0.1).contains($0) }, expected: "a fraction from 0 to 0.1")
        }
    }

    /// Where a cell's label goes.
    public enum LabelPosition: String, Codable, Sendable, CaseIterable {
        /// In the frame's caption strip (needs `frame.strip`).
        case strip
        /// Over the bottom of the photo, on a band.
        case overBottom = "over-bottom"
        /// Over the top of the photo, on a band.
        case overTop = "over-top"
    }

    /// Text drawn on each photo's cell.
    public struct Label: Decodable, Sendable {
        /// One text per cell in turn (`[Then · {date}, Now · {date}]`); a single text serves all cells.
        public var texts: [TextTemplate]
        public var position: LabelPosition
        public var style: TextStyle
        /// The band behind text over a photo (with alpha, `#00000080`).
        public var band: Colour

        public init(from decoder: Decoder) throws {
            let r = try OptionsReader(decoder)
            let single = try r.optional("text", TextTemplate.self)
            let list = try r.optional("texts", [TextTemplate].self)
            switch (single, list) {
            case (let text?, nil): texts = [text]
            case (nil, let list?) where !list.isEmpty: texts = list
            case (nil, _): throw DecodingError.keyNotFound(OptionKey("text"), .init(codingPath: r.codingPath, debugDescription: "missing 'text' (or 'texts')"))
            default: throw r.invalid("texts", expected: "either 'text' or 'texts', not both", got: "both")
            }
            position = try r.choice("position", default: .strip)
            style = try TextStyle(r, defaultSize: 0.06)
            band = try r.colour("band", default: Colour(red: 0, green: 0, blue: 0, alpha: 110))
        }

        func text(forCell index: Int) -> TextTemplate { texts[index % texts.count] }
    }

    /// Where a canvas caption goes: a band across the top or bottom of the layout area, taken
    /// from the photos only when the caption has text.
    public enum CaptionBand: String, Codable, Sendable, CaseIterable {
        case top, bottom
    }

    /// Text on the canvas (a title, the date range).
    public struct Caption: Decodable, Sendable {
        public var text: TextTemplate
        public var band: CaptionBand
        /// The band's height as a fraction of the layout area's height.
        public var height: Double
        public var style: TextStyle

        public init(from decoder: Decoder) throws {
            let r = try OptionsReader(decoder)
            text = try r.required("text", TextTemplate.self)
            band = try r.choice("band", default: .bottom)
            height = try r.value("height", default: 0.08, where: { $0 > 0 && $0 <= 0.3 }, expected: "a fraction above 0, at most 0.3")
            style = try TextStyle(r, defaultSize: 0.5)
        }
    }

    /// Sprocket holes and frame numbers along a strip of film, around a one-line grid.
    public struct Film: Decodable, Sendable {
        public var colour: Colour
        public var holes: Colour
        /// Each sprocket band's thickness as a fraction of a frame's thickness.
        public var band: Double
        /// Text in the band under each frame (`{n}`); empty for none.
        public var numbers: TextTemplate
        public var numberColour: Colour

        public init(from decoder: Decoder) throws {
            let r = try OptionsReader(decoder)
            colour = try r.colour("colour", default: Colour(red: 20, green: 18, blue: 16))
            holes = try r.colour("holes", default: Colour(red: 240, green: 236, blue: 226))
            band = try r.value("band", default: 0.16, where: { (0.05...0.5).contains($0) }, expected: "a fraction from 0.05 to 0.5")
            numbers = try r.value("numbers", default: try TextTemplate("{n}"))
            numberColour = try r.colour("number-colour", default: Colour(red: 235, green: 160, blue: 50))
        }
    }

    public init(from decoder: Decoder) throws {
        let r = try OptionsReader(decoder)
        name = try r.required("name", String.self)
        if name.isEmpty || name.contains("/") { throw r.invalid("name", expected: "a name without '/'", got: "'\(name)'") }
        summary = try r.value("summary", default: "")
        background = try r.colour("background", default: .white)
        margin = try r.value("margin", default: 0.04, where: { (0...0.4).contains($0) }, expected: "a fraction from 0 to 0.4")
        pick = try r.choice("pick", default: .sequence)
        cellAspect = try r.optional("cell-aspect", Double.self, where: { (0.1...10).contains($0) }, expected: "a width / height ratio from 0.1 to 10")
        let cells = try r.optional("cells", [Cell].self)
        let grid = try r.optional("grid", Grid.self)
        switch (cells, grid) {
        case (let cells?, nil):
            guard !cells.isEmpty else { throw r.invalid("cells", expected: "at least one cell", got: "an empty list") }
            layout = .cells(cells)
        case (nil, let grid?): layout = .grid(grid)
        case (nil, nil):
            throw DecodingError.keyNotFound(OptionKey("cells"), .init(codingPath: r.codingPath, debugDescription: "missing 'cells' or 'grid'"))
        default: throw r.invalid("grid", expected: "either 'cells' or 'grid', not both", got: "both")
        }
        frame = try r.optional("frame", Frame.self)
        label = try r.optional("label", Label.self)
        if label?.position == .strip, (frame?.strip ?? 0) == 0 {
            throw r.invalid("label", expected: "a frame with a 'strip' for position 'strip'", got: "no strip")
        }
        captions = try r.value("captions", default: [])
        film = try r.optional("film", Film.self)
        if film != nil, case .grid(let g) = layout, !g.singleLine {
            throw r.invalid("film", expected: "a grid with 'single-line: true'", got: "a grid that is not a single line")
        }
        if film != nil, case .cells = layout { throw r.invalid("film", expected: "a grid with 'single-line: true'", got: "'cells'") }
        let capacity: Int?
        switch layout {
        case .cells(let cells): capacity = cells.count
        case .grid(let grid): capacity = grid.fixedCapacity
        }
        let defaultPhotos = pick == .pair ? 2 : capacity
        photos = try r.optional("photos", Int.self, where: { $0 >= 1 && $0 <= (capacity ?? 100) },
                                expected: "a count from 1 to \(capacity ?? 100) (the cells the layout has)") ?? defaultPhotos
        if pick == .pair, photos != 2 { throw r.invalid("photos", expected: "2 for 'pick: pair'", got: "\(photos ?? 0)") }
    }
}

/// How text is drawn: font, relative size, colour, alignment.
public struct TextStyle: Sendable {
    /// A Pango font description without the size (`DejaVu Sans Bold`).
    public var font: String
    /// The font size: for labels a fraction of the cell's short side, for captions of the band's height.
    public var size: Double
    public var colour: Colour
    public var align: Alignment

    /// Horizontal alignment in the text's box.
    public enum Alignment: String, Codable, Sendable, CaseIterable {
        case left, centre, right
    }

    init(_ r: OptionsReader, defaultSize: Double) throws {
        font = try r.value("font", default: "DejaVu Sans", where: { !$0.isEmpty && !$0.contains(where: \.isNumber) },
                           expected: "a font name without a size (size is its own key)")
        size = try r.value("size", default: defaultSize, where: { $0 > 0 && $0 <= 1 }, expected: "a fraction above 0, at most 1")
        colour = try r.colour("colour", default: Colour(red: 34, green: 34, blue: 34))
        align = try r.choice("align", default: .centre)
    }
}

extension OptionsReader {
    /// A colour written as `#rgb`, `#rrggbb`, `#rrggbbaa` or a name (white, black, grey...).
    func colour(_ key: String, default defaultValue: Colour) throws -> Colour {
        guard let text = try optional(key, String.self) else { return defaultValue }
        guard let colour = Colour(parsing: text) else {
            throw invalid(key, expected: StageOption<Colour>.colourForms, got: "'\(text)'")
        }
        return colour
    }
}
