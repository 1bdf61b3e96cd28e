import DarkroomAlignment
import DarkroomCaptions
import DarkroomCore
import DarkroomHEIF
import DarkroomVips
import Foundation
import DarkroomOptions

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
        /// The template as loaded (in the key: where it comes from and its source text).
        public var template: TemplateLibrary.Loaded
        public var size: CanvasSize
        public var grid: (rows: Int, columns: Int)?
        public var direction: Direction
        public var pairing: Pairing
        /// For then-and-now: how the "now" photo is mapped onto the "then" photo (none: each fills its cell on its own).
        public var align: AlignmentChoice
        /// For then-and-now with `align`: what happens to a photo that cannot be aligned.
        public var unaligned: UnalignedChoice
        /// For then-and-now with `align`: crop both photos to the area both cover, or keep each cell full and fill from blur.
        public var fill: FillChoice
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
        /// Which shots of a burst it shows (`pick`: one a burst).
        public var bursts: BurstChoice

        /// Fields an output name may use.
        public static let outputFields = ["yyyy", "MM", "dd", "week", "template", "n"]

        static let templateOption = StageOption<String>.value(
            "template", default: "grid", accepts: "a built-in template or a readable .yaml file",
            "polaroid, grid, film-strip, then-and-now, or a template file (.yaml), read beside the pipeline file.")
        static let sizeOption = StageOption<CanvasSize>.custom(
            "size", as: String.self, default: CanvasSize(parsing: "square")!, shown: "square",
            accepts: "square, portrait, story, landscape or WxH (16 to 8000 each)", names: CanvasSize.presets.map(\.name),
            "square (1080x1080), portrait (1080x1350), story (1080x1920, text kept in the safe zone), landscape (1920x1080), or WxH."
        ) { CanvasSize(parsing: $0) }
        /// `grid` as written: auto, or rows and columns.
        enum GridChoice: Sendable {
            case auto
            case fixed(rows: Int, columns: Int)
        }

        static let gridOption = StageOption<GridChoice>.custom(
            "grid", as: String.self, default: .auto, shown: "auto", accepts: "auto or rows x columns such as 3x3 (1 to 10 each)",
            "For grid layouts: rows x columns, or auto (fits the photo count to the canvas)."
        ) { text in
            if text.lowercased() == "auto" { return .auto }
            let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, (1...10).contains(parts[0]), (1...10).contains(parts[1]) else { return nil }
            return .fixed(rows: parts[0], columns: parts[1])
        }
        static let directionOption = StageOption.choice(
            "direction", default: Direction.auto,
            "For grid layouts: auto, horizontal (one row: side by side) or vertical (one column: stacked).")
        static let pairingOption = StageOption.choice(
            "pairing", default: Pairing.earliestLatest,
            "For then-and-now: the earliest and latest photo, or year-apart (the latest photo with one taken on the same day a year before).")
        static let alignOption = StageOption.choice(
            "align", default: AlignmentChoice.none,
            "For then-and-now: none, each photo fills its cell on its own; scene, the now photo is mapped onto the then photo by what stays put (a room, a view, a plant's pot); face, the eyes land at the same places. Both are then cropped to the area both cover: the same framing, no border.")
            .keyedOnlyWhenNotDefault()  // added after collages were made: at none they keep their work
        static let unalignedOption = StageOption.choice(
            "unaligned", default: UnalignedChoice.drop,
            "With align: a photo that cannot be aligned (no face found, too few matching features, a move beyond plausible limits) is left out and the pair picked again from the rest (drop), or the pair is shown unaligned (keep); either way it is listed with the reason.")
            .keyedOnlyWhenNotDefault()  // added after collages were made
        static let fillOption = StageOption.choice(
            "fill", default: FillChoice.crop,
            "With align: crop, both photos are cropped to the area both cover (the same framing); blur, each keeps its cell's framing and what it does not cover is filled from a blurred copy of it. No black border either way.")
            .keyedOnlyWhenNotDefault()  // added after collages were made
        static let groupByOption = StageOption.choice("group-by", default: GroupBy.none, "Photos of one group never share a collage.")
        static let photosPerCollageOption = StageOption<Int>.value(
            "photos-per-collage", default: 9, shown: "the template's cells; 9 for an auto grid",
            accepts: "a count from 1 to what the template holds",
            "How many photos one collage takes (a group makes as many collages as it needs).")
        static let fewerPhotosOption = StageOption.choice(
            "fewer-photos", default: FewerPhotos.shrink, "For a collage with fewer photos than it holds: make a smaller one, or fail the group.")
        static let titleOption = StageOption<TextTemplate?>.custom(
            "title", as: String.self, default: nil, shown: "", accepts: "text with known placeholders",
            "Text for {title} in the template's captions; may use {first-date:MMMM yyyy}, {dates}, {count}."
        ) { text in
            do { return try TextTemplate(text, allowTitle: false) } catch let error as TemplateTextError {
                throw OptionRejection(message: "expected text with known placeholders, got \(error.message)")
            }
        }
        static let dateFormatOption = StageOption<String>.value(
            "date-format", default: "d MMM yyyy", accepts: "a date pattern", where: { !$0.isEmpty }, "Unicode date pattern for {date}.")
        static let fontOption = StageOption<String?>.custom(
            "font", as: String.self, default: nil, shown: "", accepts: "a font name without a size",
            "Pango font family and style for all text (DejaVu Sans Bold), instead of the template's."
        ) { !$0.isEmpty && !$0.contains(where: \.isNumber) ? $0 : nil }
        static let textColourOption = StageOption<Colour?>.colour("text-colour", "Colour of all text, instead of the template's.")
        static let backgroundOption = StageOption<Colour?>.colour("background", "Background colour, instead of the template's.")
        static let formatOption = StageOption.choice("format", default: Format.jpeg, "The file format written.")
        static let qualityOption = StageOption.integer(
            "quality", default: 85, in: 1...100, shown: "85 (60 for heic)",
            "Encoder quality for jpeg, webp and heic (png is lossless and takes none).")
        static let presetOption = StageOption.oneOf("preset", HEIFEncodeSettings.presets, default: "medium", "x265 preset of a heic collage.")
        static let outputOption = StageOption.template(
            "output", default: "collages/{template}-{n}.jpg",
            shown: "collages/{template}-{n}.jpg; by month collages/{yyyy}-{MM}-{template}.jpg, by week collages/{week}-{template}.jpg, by day collages/{yyyy}-{MM}-{dd}-{template}.jpg",
            fields: outputFields,
            "Path template inside the library: {yyyy} {MM} {dd} (first photo), {week} (ISO, 2024-W09), {template}, {n} (the collage's number in its group). Its extension must match the format.")

        public static let options: [any OptionDeclaration] = [
            templateOption, sizeOption, gridOption, directionOption, pairingOption, alignOption, unalignedOption, fillOption, groupByOption, photosPerCollageOption,
            fewerPhotosOption, titleOption, dateFormatOption, fontOption, textColourOption, backgroundOption, formatOption,
            qualityOption, presetOption, outputOption,
            BurstChoice.option,
        ]

        public init(from decoder: Decoder) throws {
            let reader = try OptionsReader(decoder, declaring: Self.options)
            let reference = reader.read(Self.templateOption)
            do {
                template = try TemplateLibrary.load(reference, pipelineFile: decoder.userInfo[.pipelineFile] as? String)
            } catch let error as TemplateLoadError {
                reader.reject(Self.templateOption, expected: Self.templateOption.accepts, got: error.message)
                template = try TemplateLibrary.load(Self.templateOption.defaultValue)
            } catch let error as ReferencedFileError {
                reader.reject(Self.templateOption, expected: Self.templateOption.accepts, got: error.message)
                template = try TemplateLibrary.load(Self.templateOption.defaultValue)
            }
            // An edited template file redoes its collages.
            reader.key("template", template.origin, for: Self.templateOption)
            reader.key("template-source", template.source, for: Self.templateOption)
            size = reader.read(Self.sizeOption)
            let layout = template.template.layout
            let isGrid: Bool
            if case .grid(let g) = layout { isGrid = !g.singleLine } else { isGrid = false }
            if case .fixed(let rows, let columns) = reader.read(Self.gridOption) { grid = (rows, columns) } else { grid = nil }
            if let given = grid, !isGrid || template.template.pick != .sequence {
                reader.reject(Self.gridOption, expected: "a template laid out as a grid (such as 'grid')",
                              got: "'\(given.rows)x\(given.columns)' for \(template.template.name)")
                grid = nil
            }
            reader.key("grid", grid.map { "\($0.rows)x\($0.columns)" } ?? "auto", for: Self.gridOption)
            direction = reader.read(Self.directionOption)
            if direction != .auto, case .cells = layout {
                reader.reject(Self.directionOption, expected: "a template laid out as a grid", got: "'\(direction.rawValue)' for \(template.template.name)")
            }
            if direction != .auto, grid != nil {
                reader.reject(Self.directionOption, expected: "auto when 'grid' gives rows and columns", got: "'\(direction.rawValue)'")
            }
            pairing = reader.read(Self.pairingOption)
            align = reader.read(Self.alignOption)
            if align != .none, template.template.pick != .pair {
                reader.reject(Self.alignOption, expected: "align only for a then-and-now template (one that picks a pair)",
                              got: "'\(align.rawValue)' for \(template.template.name)")
            }
            unaligned = reader.read(Self.unalignedOption, onlyIf: align != .none, expected: "unaligned only with align scene or face", got: "align none")
            fill = reader.read(Self.fillOption, onlyIf: align != .none, expected: "fill only with align scene or face", got: "align none")
            groupBy = reader.read(Self.groupByOption)
            let capacity: Int?
            switch layout {
            case .cells(let cells): capacity = cells.count
            case .grid: capacity = grid.map { $0.rows * $0.columns } ?? (template.template.pick == .pair ? 2 : nil)
            }
            let defaultCount = grid.map { $0.rows * $0.columns } ?? template.template.photos ?? 9
            photosPerCollage = reader.read(Self.photosPerCollageOption, default: defaultCount)
            if !(1...(capacity ?? 100)).contains(photosPerCollage) {
                reader.reject(Self.photosPerCollageOption,
                              expected: "a count from 1 to \(capacity ?? 100) (what \(template.template.name)\(grid.map { " \($0.rows)x\($0.columns)" } ?? "") holds)",
                              got: "\(photosPerCollage)")
            }
            fewerPhotos = reader.read(Self.fewerPhotosOption)
            title = reader.read(Self.titleOption)
            dateFormat = reader.read(Self.dateFormatOption)
            font = reader.read(Self.fontOption)
            textColour = reader.read(Self.textColourOption)
            background = reader.read(Self.backgroundOption)
            format = reader.read(Self.formatOption)
            quality = reader.read(Self.qualityOption, default: format == .heic ? 60 : 85)
            if format == .png, reader.isGiven(Self.qualityOption) {
                reader.reject(Self.qualityOption, expected: "no quality for png, which is lossless (use jpeg, webp or heic)", got: "\(quality)")
            }
            preset = reader.read(Self.presetOption)
            if format != .heic, reader.isGiven(Self.presetOption) {
                reader.reject(Self.presetOption, expected: "a preset only for format heic", got: "'\(preset)' for \(format.rawValue)")
            }
            if format != .heic { reader.key("preset", nil, for: Self.presetOption) }
            let defaultOutput: String
            switch groupBy {
            case .none: defaultOutput = "collages/{template}-{n}"
            case .day: defaultOutput = "collages/{yyyy}-{MM}-{dd}-{template}"
            case .week: defaultOutput = "collages/{week}-{template}"
            case .month: defaultOutput = "collages/{yyyy}-{MM}-{template}"
            }
            output = reader.read(Self.outputOption,
                                 default: try PathTemplate(defaultOutput + "." + format.fileExtensions[0], allowedFields: Options.outputFields))
            reader.requireExtension(Self.outputOption, of: output, in: format.fileExtensions, why: "for format \(format.rawValue)")
            bursts = reader.read(BurstChoice.option)
            try reader.finish()
        }

        /// The renderer these options describe, for photos under `pixelLimit`.
        func renderer(pixelLimit: Int) -> CollageRenderer {
            CollageRenderer(template: template.template, canvas: size, dateFormat: dateFormat, title: title, font: font,
                            textColour: textColour, background: background, grid: grid, direction: direction, pixelLimit: pixelLimit)
        }
    }
}
