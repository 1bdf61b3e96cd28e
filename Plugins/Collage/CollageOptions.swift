import DarkroomCore
import DarkroomHEIF
import DarkroomVips
import Foundation

extension Collage {
    /// Which photos go into the same collage.
    public enum GroupBy: String, Codable, Sendable, CaseIterable {
        case none, day, week, month
    }

    /// Which two photos a then-and-now collage shows.
    public enum Pairing: String, Codable, Sendable, CaseIterable {
        /// The earliest and the latest photo of the group.
        case earliestLatest = "earliest-latest"
        /// The latest photo that has a photo taken on the same calendar day one year earlier.
        case yearApart = "year-apart"
    }

    /// What to do with a collage that has fewer photos than its template holds.
    public enum FewerPhotos: String, Codable, Sendable, CaseIterable {
        /// Make a smaller collage: a grid re-flows for the photos it has, other layouts use their first cells, centred.
        case shrink
        /// Leave it out with an error naming the group.
        case error
    }

    /// The file format written.
    public enum Format: String, Codable, Sendable, CaseIterable {
        case jpeg, png, webp, heic

        var fileExtensions: [String] {
            switch self {
            case .jpeg: return ["jpg", "jpeg"]
            case .png: return ["png"]
            case .webp: return ["webp"]
            case .heic: return ["heic"]
            }
        }
    }

    public struct Options: StageOptions {
        /// The template as loaded (not encoded: its source text is).
        public var template: TemplateLibrary.Loaded
        public var size: CanvasSize
        public var grid: (rows: Int, columns: Int)?
        public var direction: Direction
        public var pairing: Pairing
        public var groupBy: GroupBy
        public var photosPerCollage: Int
        public var fewerPhotos: FewerPhotos
        public var title: TextTemplate?
        public var dateFormat: String
        public var font: String?
        public var textColour: Colour?
        public var background: Colour?
        public var format: Format
        public var quality: Int
        /// The x265 preset of a HEIC collage.
        public var preset: String
        public var output: PathTemplate

        /// Fields an output name may use.
        public static let outputFields = ["yyyy", "MM", "dd", "week", "template", "n"]

        public static let fields = [
            OptionField("template", "polaroid, grid, film-strip, then-and-now, or a template file (.yaml).", default: "grid"),
            OptionField("size", "square (1080x1080), portrait (1080x1350), story (1080x1920, text kept in the safe zone), landscape (1920x1080), or WxH.", default: "square"),
            OptionField("grid", "For grid layouts: rows x columns (2x2, 3x3) or auto (fits the photo count to the canvas).", default: "auto"),
            OptionField("direction", "For grid layouts: auto, horizontal (one row: side by side) or vertical (one column: stacked).", default: "auto"),
            OptionField("pairing", "For then-and-now: earliest-latest, or year-apart (the latest photo with one taken on the same day a year before).", default: "earliest-latest"),
            OptionField("group-by", "none, day, week or month: photos of one group never share a collage.", default: "none"),
            OptionField("photos-per-collage", "How many photos one collage takes (a group makes as many collages as it needs).", default: "the template's cells; 9 for an auto grid"),
            OptionField("fewer-photos", "shrink (a smaller collage) or error, for a collage with fewer photos than it holds.", default: "shrink"),
            OptionField("title", "Text for {title} in the template's captions; may use {first-date:MMMM yyyy}, {dates}, {count}.", default: ""),
            OptionField("date-format", "Unicode date pattern for {date}.", default: "d MMM yyyy"),
            OptionField("font", "Pango font family and style for all text (DejaVu Sans Bold), instead of the template's.", default: ""),
            OptionField("text-colour", "Colour of all text, instead of the template's (#rrggbb).", default: ""),
            OptionField("background", "Background colour, instead of the template's.", default: ""),
            OptionField("format", "jpeg, png, webp or heic.", default: "jpeg"),
            OptionField("quality", "Encoder quality 1-100 for jpeg, webp and heic (png is lossless and takes none).", default: "85 (60 for heic)"),
            OptionField("preset", "x265 preset of a heic collage: " + HEIFEncodeSettings.presets.joined(separator: ", ") + ".", default: "medium"),
            OptionField("output", "Path template inside the library: {yyyy} {MM} {dd} (first photo), {week} (ISO, 2024-W09), {template}, {n} (the collage's number in its group). Its extension must match the format.",
                        default: "collages/{template}-{n}.jpg; by month collages/{yyyy}-{MM}-{template}.jpg, by week collages/{week}-{template}.jpg, by day collages/{yyyy}-{MM}-{dd}-{template}.jpg"),
        ]

        public init(from decoder: Decoder) throws {
            let reader = try OptionsReader(decoder)
            let reference = try reader.value("template", default: "grid")
            do {
                template = try TemplateLibrary.load(reference, pipelineFile: decoder.userInfo[.pipelineFile] as? String)
            } catch let error as TemplateLoadError {
                throw reader.invalid("template", expected: "a built-in template or a readable .yaml file", got: error.message)
            }
            let sizeText = try reader.value("size", default: "square")
            guard let size = CanvasSize(parsing: sizeText) else {
                var expected = "square, portrait, story, landscape or WxH (16 to 8000 each)"
                if let near = Suggestion.nearest(to: sizeText, in: CanvasSize.presets.map(\.name)) { expected += " (did you mean '\(near)'?)" }
                throw reader.invalid("size", expected: expected, got: "'\(sizeText)'")
            }
            self.size = size
            let layout = template.template.layout
            let isGrid: Bool
            if case .grid(let g) = layout { isGrid = !g.singleLine } else { isGrid = false }
            let gridText = try reader.value("grid", default: "auto")
            if gridText == "auto" {
                grid = nil
            } else {
                let parts = gridText.lowercased().split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2, (1...10).contains(parts[0]), (1...10).contains(parts[1]) else {
                    throw reader.invalid("grid", expected: "auto or rows x columns such as 3x3 (1 to 10 each)", got: "'\(gridText)'")
                }
                guard isGrid, template.template.pick == .sequence else {
                    throw reader.invalid("grid", expected: "a template laid out as a grid (such as 'grid')", got: "'\(gridText)' for \(template.template.name)")
                }
                grid = (parts[0], parts[1])
            }
            direction = try reader.choice("direction", default: .auto)
            if direction != .auto, case .cells = layout {
                throw reader.invalid("direction", expected: "a template laid out as a grid", got: "'\(direction.rawValue)' for \(template.template.name)")
            }
            if direction != .auto, grid != nil {
                throw reader.invalid("direction", expected: "auto when 'grid' gives rows and columns", got: "'\(direction.rawValue)'")
            }
            pairing = try reader.choice("pairing", default: .earliestLatest)
            groupBy = try reader.choice("group-by", default: .none)
            let capacity: Int?
            switch layout {
            case .cells(let cells): capacity = cells.count
            case .grid: capacity = grid.map { $0.rows * $0.columns } ?? (template.template.pick == .pair ? 2 : nil)
            }
            let defaultCount = grid.map { $0.rows * $0.columns } ?? template.template.photos ?? 9
            photosPerCollage = try reader.value("photos-per-collage", default: defaultCount,
                                                where: { $0 >= 1 && $0 <= (capacity ?? 100) },
                                                expected: "a count from 1 to \(capacity ?? 100) (what \(template.template.name)\(grid.map { " \($0.rows)x\($0.columns)" } ?? "") holds)")
            fewerPhotos = try reader.choice("fewer-photos", default: .shrink)
            title = try reader.optional("title", String.self).map { text in
                do { return try TextTemplate(text, allowTitle: false) } catch let error as TemplateTextError {
                    throw reader.invalid("title", expected: "text with known placeholders", got: error.message)
                }
            }
            dateFormat = try reader.value("date-format", default: "d MMM yyyy", where: { !$0.isEmpty }, expected: "a date pattern")
            font = try reader.optional("font", String.self, where: { !$0.isEmpty && !$0.contains(where: \.isNumber) },
                                       expected: "a font name without a size")
            textColour = try reader.optional("text-colour", String.self).map { _ in try reader.colour("text-colour", default: .black) }
            background = try reader.optional("background", String.self).map { _ in try reader.colour("background", default: .white) }
            format = try reader.choice("format", default: .jpeg)
            quality = try reader.value("quality", default: format == .heic ? 60 : 85, where: { (1...100).contains($0) },
                                       expected: "an integer from 1 to 100")
            if format == .png, try reader.optional("quality", Int.self) != nil {
                throw reader.invalid("quality", expected: "no quality for png, which is lossless (use jpeg, webp or heic)", got: "\(quality)")
            }
            if format != .heic, let given = try reader.optional("preset", String.self) {
                throw reader.invalid("preset", expected: "a preset only for format heic", got: "'\(given)' for \(format.rawValue)")
            }
            preset = try reader.oneOf("preset", HEIFEncodeSettings.presets, default: "medium")
            let defaultOutput: String
            switch groupBy {
            case .none: defaultOutput = "collages/{template}-{n}"
            case .day: defaultOutput = "collages/{yyyy}-{MM}-{dd}-{template}"
            case .week: defaultOutput = "collages/{week}-{template}"
            case .month: defaultOutput = "collages/{yyyy}-{MM}-{template}"
            }
            let outputText = try reader.value("output", default: defaultOutput + "." + format.fileExtensions[0])
            do { output = try PathTemplate(outputText, allowedFields: Options.outputFields) } catch let error as TemplateError {
                throw reader.invalid("output", expected: "a path template", got: error.message)
            }
            let ext = (output.template as NSString).pathExtension.lowercased()
            if !format.fileExtensions.contains(ext) {
                throw reader.invalid("output", expected: "a file name ending in .\(format.fileExtensions[0]) for format \(format.rawValue)",
                                     got: "'\(output.template)'")
            }
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: OptionKey.self)
            try c.encode(template.origin, forKey: OptionKey("template"))
            try c.encode(template.source, forKey: OptionKey("template-source"))
            try c.encode(size, forKey: OptionKey("size"))
            try c.encode(grid.map { "\($0.rows)x\($0.columns)" } ?? "auto", forKey: OptionKey("grid"))
            try c.encode(direction, forKey: OptionKey("direction"))
            try c.encode(pairing, forKey: OptionKey("pairing"))
            try c.encode(groupBy, forKey: OptionKey("group-by"))
            try c.encode(photosPerCollage, forKey: OptionKey("photos-per-collage"))
            try c.encode(fewerPhotos, forKey: OptionKey("fewer-photos"))
            try c.encodeIfPresent(title, forKey: OptionKey("title"))
            try c.encode(dateFormat, forKey: OptionKey("date-format"))
            try c.encodeIfPresent(font, forKey: OptionKey("font"))
            try c.encodeIfPresent(textColour, forKey: OptionKey("text-colour"))
            try c.encodeIfPresent(background, forKey: OptionKey("background"))
            try c.encode(format, forKey: OptionKey("format"))
            try c.encode(quality, forKey: OptionKey("quality"))
            if format == .heic { try c.encode(preset, forKey: OptionKey("preset")) }
            try c.encode(output, forKey: OptionKey("output"))
        }

        /// The renderer these options describe, for photos under `pixelLimit`.
        func renderer(pixelLimit: Int) -> CollageRenderer {
            CollageRenderer(template: template.template, canvas: size, dateFormat: dateFormat, title: title, font: font,
                            textColour: textColour, background: background, grid: grid, direction: direction, pixelLimit: pixelLimit)
        }
    }
}
