import DarkroomCaptions
import DarkroomCore
import Foundation
import DarkroomModel
import DarkroomOptions

/// Options of the `photo-book` stage.
///
///     - photo-book:
///         group-by: year
///         page-size: a4
///         photos-per-page: 2
///         title: "{first-date:yyyy}"
///         output: "books/{yyyy}-photo-book.pdf"
public struct PhotoBookOptions: StageOptions {
    /// One book for all photos, or one per calendar year or month.
    public enum GroupBy: String, Codable, Sendable, CaseIterable {
        case none, year, month
    }

    /// The days whose photos go in (`from`, `to`).
    public var days: DayRange
    public var groupBy: GroupBy
    public var page: PageSize
    public var layout: PageLayout
    /// The layout file as the pipeline names it and its text (hashed: editing it redoes the book).
    public var layoutFile: (reference: String, source: String)?
    public var title: TextTemplate
    public var captions: Bool
    public var captionFormat: String
    public var font: String
    /// Space left blank around each page, in millimetres.
    public var margin: Double
    /// Space between photos, in millimetres.
    public var gutter: Double
    /// The most pixels per inch a photo is placed at.
    public var dpi: Int
    /// JPEG quality of the embedded photos.
    public var quality: Int
    public var output: PathTemplate
    /// Which shots of a burst it shows (`pick`: one a burst).
    public var bursts: BurstChoice

    /// Output-path fields: the book's first photo's date.
    static let outputFields = ["yyyy", "MM", "dd"]

    static let fromOption = StageOption.day("from", "First day to include (inclusive).")
    static let toOption = StageOption.day("to", "Last day to include (inclusive).")
    static let groupByOption = StageOption.choice(
        "group-by", default: GroupBy.none, "One book of every photo, or one book per calendar year or month.")
    static let pageSizeOption = StageOption.choice(
        "page-size", default: PaperSize.a4, "a4 (210 x 297 mm), letter (8.5 x 11 in) or square (210 x 210 mm).")
    static let orientationOption = StageOption.choice(
        "orientation", default: PageOrientation.portrait, "For a4 and letter: portrait (tall) or landscape (wide) pages.")
    static let photosPerPageOption = StageOption<Int>.value(
        "photos-per-page", default: 2, accepts: "one of 1, 2, 4", where: { [1, 2, 4].contains($0) },
        "1 photo a page; 2 stacked (side by side on a landscape page); 4 in a 2 x 2 grid.")
    static let layoutOption = StageOption<String?>.custom(
        "layout", as: String.self, default: nil, shown: "", accepts: "a readable page layout file (.yaml)",
        "A page layout file instead of photos-per-page: cells in fractions of the page inside its margins, read beside the pipeline file."
    ) { reference in
        // Thrown rather than returned as nil, which this optional-valued option would read as "no layout".
        guard reference.hasSuffix(".yaml") || reference.hasSuffix(".yml") else { throw OptionRejection(got: "'\(reference)'") }
        return reference
    }
    static let titleOption = StageOption<TextTemplate?>.custom(
        "title", as: String.self, default: nil, shown: "Photographs; by year {first-date:yyyy}, by month {first-date:MMMM yyyy}",
        accepts: "text with known placeholders",
        "The cover's title; may use {first-date:MMMM yyyy}, {last-date}, {dates}, {count}. The cover also shows the dates."
    ) { text in
        do { return try TextTemplate(text, allowTitle: false) } catch {
            throw OptionRejection(message: "expected text with known placeholders, got \(error)")
        }
    }
    static let captionsOption = StageOption.flag("captions", default: true, "Print each photo's capture date under it.")
    static let captionFormatOption = StageOption<String>.value(
        "caption-format", default: "d MMMM yyyy", accepts: "a date pattern such as d MMMM yyyy",
        where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty && $0.count <= 100 },
        "Date pattern (Unicode/ICU) of the captions and of the cover's dates.")
    static let fontOption = StageOption<String>.value(
        "font", default: "DejaVu Sans", accepts: "a font name without a size",
        where: { !$0.isEmpty && $0.count <= 200 && !$0.contains(where: \.isNumber) },
        "Pango font family (and style) of all text; the fonts used are embedded in the PDF.")
    static let marginOption = StageOption<Double>.value(
        "margin", default: 15, shown: "15", accepts: "millimetres from 3 to 40", where: { $0 >= 3 && $0 <= 40 },
        "Blank space around each page, in millimetres (printers need at least 3-5; a bound book more).")
    static let gutterOption = StageOption<Double>.value(
        "gutter", default: 6, shown: "6", accepts: "millimetres from 0 to 30", where: { $0 >= 0 && $0 <= 30 },
        "Space between the photos of a page, in millimetres.")
    static let dpiOption = StageOption.integer(
        "dpi", default: 300, in: 72...300,
        "Most pixels per inch a photo is placed at for the size it has on the page (never more than the photo has).")
    static let qualityOption = StageOption.integer("quality", default: 85, in: 1...100, "JPEG quality of the photos embedded in the PDF.")
    static let outputOption = StageOption.template(
        "output", default: "books/{yyyy}-photo-book.pdf",
        shown: "books/{yyyy}-photo-book.pdf; by month books/{yyyy}-{MM}-photo-book.pdf", fields: outputFields,
        "Path template inside the library, ending .pdf: {yyyy} {MM} {dd} of the book's first photo.")

    public static let options: [any OptionDeclaration] = [
        fromOption, toOption, groupByOption, pageSizeOption, orientationOption, photosPerPageOption, layoutOption, titleOption,
        captionsOption, captionFormatOption, fontOption, marginOption, gutterOption, dpiOption, qualityOption, outputOption,
        BurstChoice.option,
    ]

    public init(from decoder: Decoder) throws {
        let reader = try OptionsReader(decoder, declaring: Self.options)
        days = reader.readDays(from: Self.fromOption, to: Self.toOption)
        reader.key("from", days.from.map(DayRange.text), for: Self.fromOption)
        reader.key("to", days.to.map(DayRange.text), for: Self.toOption)
        groupBy = reader.read(Self.groupByOption)

        let paper = reader.read(Self.pageSizeOption)
        let orientation = reader.read(Self.orientationOption)
        if !paper.hasOrientation, orientation != .portrait {
            reader.reject(Self.orientationOption, expected: "no orientation for a square page (it applies to a4 and letter)",
                          got: "'\(orientation.rawValue)'")
        }
        page = PageSize(paper: paper, orientation: orientation)

        let photosPerPage = reader.read(Self.photosPerPageOption)
        layout = .grid(photosPerPage: photosPerPage)
        if let reference = reader.read(Self.layoutOption) {
            if reader.isGiven(Self.photosPerPageOption) {
                reader.reject(Self.layoutOption, expected: "either layout or photos-per-page, not both", got: "both")
            }
            do {
                let (file, source) = try ReferencedFiles.decode(PageLayoutFile.self, reference,
                                                                pipelineFile: decoder.userInfo[.pipelineFile] as? String)
                layout = .cells(file.cells)
                layoutFile = (reference, source)
                // The cells replace photos-per-page; an edited layout file redoes the books.
                reader.key("photos-per-page", nil, for: Self.photosPerPageOption)
                reader.key("layout-source", source, for: Self.layoutOption)
                reader.key("layout", reference, for: Self.layoutOption)
            } catch let error as ReferencedFileError {
                reader.reject(Self.layoutOption, expected: Self.layoutOption.accepts, got: error.message)
            }
        }

        title = reader.read(Self.titleOption, default: Self.defaultTitle(groupBy)) ?? Self.defaultTitle(groupBy)
        captions = reader.read(Self.captionsOption)
        captionFormat = reader.read(Self.captionFormatOption)
        font = reader.read(Self.fontOption)
        margin = reader.read(Self.marginOption)
        gutter = reader.read(Self.gutterOption)
        dpi = reader.read(Self.dpiOption)
        quality = reader.read(Self.qualityOption)
        bursts = reader.read(BurstChoice.option)

        let defaultOutput = groupBy == .month ? "books/{yyyy}-{MM}-photo-book.pdf" : Self.outputOption.defaultValue.template
        output = reader.read(Self.outputOption, default: try PathTemplate(defaultOutput, allowedFields: Self.outputFields))
        reader.requireExtension(Self.outputOption, of: output, in: ["pdf"])
        let needed = groupBy == .year ? ["yyyy"] : groupBy == .month ? ["yyyy", "MM"] : []
        let missing = needed.filter { !output.fieldsUsed.contains($0) }
        if !missing.isEmpty {
            reader.reject(Self.outputOption, expected: "a name with " + needed.map { "{\($0)}" }.joined(separator: " and ")
                          + " for group-by \(groupBy.rawValue) (each book needs its own file)", got: "'\(output.template)'")
        }
        try reader.finish()
    }

    /// The cover title when none is given: what the book spans.
    static func defaultTitle(_ groupBy: GroupBy) -> TextTemplate {
        switch groupBy {
        case .none: return try! TextTemplate("Photographs")
        case .year: return try! TextTemplate("{first-date:yyyy}")
        case .month: return try! TextTemplate("{first-date:MMMM yyyy}")
        }
    }
}
