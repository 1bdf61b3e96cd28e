import DarkroomCore
import Foundation
import DarkroomOptions

/// Options of the `gallery` stage.
///
///     - gallery:
///         folder: gallery
///         title: Photos
///         thumbnails: "Thumbnails/{yyyy}/{MM}/{id}.jpg"
///         large: "gallery/large/{yyyy}/{MM}/{id}.jpg"
public struct GalleryOptions: StageOptions {
    /// The folder inside the library the pages go into.
    public var folder: String
    public var title: String
    /// Where each photo's (or video's poster) thumbnail is, and its larger rendition.
    public var thumbnails: PathTemplate
    public var large: PathTemplate
    /// The most photos one page holds (a larger month is split).
    public var photosPerPage: Int
    /// Whether to list what other pipelines made (collages, time-lapses, books).
    public var collections: Bool
    /// Which shots of a burst it shows (`pick`: one a burst).
    public var bursts: BurstChoice

    /// The fields the thumbnail templates may use: what a photo's catalogue entry gives.
    static let fields = ["yyyy", "MM", "dd", "id"]

    static let folderOption = StageOption<String>.value(
        "folder", default: "gallery", accepts: "a folder inside the library",
        where: { GalleryOptions.isFolder($0) },
        "Where the pages go (index.html, one page per month, made.html, the stylesheet and script).")
    static let titleOption = StageOption<String>.value(
        "title", default: "Photos", accepts: "a title of at most 200 characters",
        where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty && $0.count <= 200 },
        "The gallery's title, on the index page and in every page's title.")
    static let thumbnailsOption = StageOption.template(
        "thumbnails", default: "Thumbnails/{yyyy}/{MM}/{id}.jpg", fields: fields,
        "Where each photo's thumbnail (a video's poster) is, as the import made it: {yyyy} {MM} {dd} of its capture date and {id}.")
    static let largeOption = StageOption.template(
        "large", default: "gallery/large/{yyyy}/{MM}/{id}.jpg", fields: fields,
        "Where each photo's larger rendition is (the pipeline's thumbnail step makes it, 1024 px), shown in the larger view.")
    static let photosPerPageOption = StageOption.integer(
        "photos-per-page", default: 500, in: 10...5000,
        "The most photos a page holds: a month with more is split into pages of this many.")
    static let collectionsOption = StageOption.flag(
        "collections", default: true, "List the collages, time-lapses and books other pipelines made in the library (made.html).")

    public static let options: [any OptionDeclaration] = [
        folderOption, titleOption, thumbnailsOption, largeOption, photosPerPageOption, collectionsOption,
        BurstChoice.option,
    ]

    public init(from decoder: Decoder) throws {
        // Named in the key as they always were (`photosPerPage`), so libraries keep their work.
        let reader = try OptionsReader(decoder, declaring: Self.options, keyNames: .camelCase)
        folder = reader.read(Self.folderOption).split(separator: "/").joined(separator: "/")
        reader.key("folder", folder, for: Self.folderOption)
        title = reader.read(Self.titleOption)
        thumbnails = reader.read(Self.thumbnailsOption)
        large = reader.read(Self.largeOption)
        photosPerPage = reader.read(Self.photosPerPageOption)
        collections = reader.read(Self.collectionsOption)
        bursts = reader.read(BurstChoice.option)
        try reader.finish()
    }

    /// A relative folder with no empty, `.` or `..` parts, outside `.darkroom`.
    static func isFolder(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: true)
        return !text.hasPrefix("/") && !parts.isEmpty && parts.first != ".darkroom"
            && !parts.contains { $0 == "." || $0 == ".." || $0.contains("\0") } && text.count <= 200
    }
}
