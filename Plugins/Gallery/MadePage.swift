import DarkroomCore
import DarkroomHTML
import Foundation
import DarkroomLibrary

/// What other pipelines made in the library (collages, time-lapses, photo books), read from the
/// catalog's collection outputs: shown (images, videos) or linked (PDFs, HEIC), by pipeline.
struct MadePage {
    static let file = "made.html"

    /// One file a collection step made.
    struct Made: Sendable, Encodable {
        enum Shown: Sendable, Encodable {
            case image(LibraryImage)
            case video
            case link
        }

        var path: String
        /// The pipeline that made it (`monthly-grid`).
        var pipeline: String
        var size: Int64
        var shown: Shown
    }

    let galleryTitle: String
    let made: [Made]
    let tiles: TileMaker

    /// The collection outputs of every pipeline but the gallery's own pages (under `folder`).
    static func load(_ catalog: LibraryCatalog, files: LibraryFile, excludingFolder folder: String) throws -> [Made] {
        try catalog.collectionOutputs().filter { !$0.path.hasPrefix(folder + "/") && files.exists($0.path) }.map { output in
            let pipeline = output.subject.dropFirst("collection:".count).split(separator: "/").first.map(String.init) ?? output.subject
            let ext = (output.path as NSString).pathExtension.lowercased()
            let shown: Made.Shown
            if ["jpg", "jpeg", "png", "webp", "gif"].contains(ext), let image = try? files.image(output.path) {
                shown = .image(image)
            } else if ["mp4", "m4v", "webm"].contains(ext) {
                shown = .video
            } else {
                shown = .link
            }
            return Made(path: output.path, pipeline: pipeline, size: output.size, shown: shown)
        }
    }

    var html: String {
        let byPipeline = Dictionary(grouping: made, by: \.pipeline)
        let sections = byPipeline.keys.sorted().enumerated().map { offset, pipeline in
            Components.section(id: "pipeline-\(offset + 1)", heading: pipeline,
                               [.element("ul", [.class("made")], byPipeline[pipeline]!.sorted { $0.path < $1.path }.map(item))])
        }
        let body = Markup.joined([
            Components.pager([Components.PagerLink("All months", href: "index.html", relation: "up")], label: "Gallery"),
            Components.header(title: "Made from these photos", subtitle: "Collages, time-lapses and books other pipelines made in the library"),
            .element("main", [], sections),
        ])
        return Page(title: "Made from these photos · \(galleryTitle)", body: body, assets: GalleryAssets.linked).html
    }

    private func item(_ made: Made) -> Markup {
        let href = tiles.link(made.path)
        let name = (made.path as NSString).lastPathComponent
        let caption = Markup.element("figcaption", [], [
            .element("a", [Attribute("href", href)], text: made.path),
            .text(" (" + ByteCountFormatter.string(fromByteCount: made.size, countStyle: .file) + ")"),
        ])
        let shown: Markup
        switch made.shown {
        case .image(let image):
            shown = .element("a", [Attribute("href", href)], [.void("img", [
                Attribute("src", href), Attribute("width", image.width), Attribute("height", image.height),
                Attribute("alt", "\(name), made by \(made.pipeline)"), Attribute("loading", "lazy"), Attribute("decoding", "async"),
            ])])
        case .video:
            shown = .element("video", [Attribute("src", href), Attribute("controls", nil), Attribute("preload", "metadata"),
                                       Attribute("aria-label", "\(name), made by \(made.pipeline)")])
        case .link:
            shown = .empty
        }
        return .element("li", [], [.element("figure", [], [shown, caption])])
    }
}
