import DarkroomCore
import DarkroomImaging
import DarkroomHTML
import Foundation
import DarkroomModel

/// `gallery`: a static web site of the library in `gallery/`, readable from the file system or any
/// web server, that loads nothing from elsewhere.
///
///     items (Photos/, Videos/) ─▶ catalog: dates and sources, cameras, places, videos, motion parts
///         ─▶ months in capture order ─▶ index.html, 2024-03.html ..., made.html, darkroom.css, darkroom.js
///
/// The step runs on every run (what it shows also depends on the catalog: a Live Photo's video
/// joined later, a collage another pipeline made, a date corrected), but each page is made again
/// only when what it is made from changed (`PageKeys`: the facts and files of its photos) or its
/// file left the library, and published only if its bytes changed, so a run that adds twenty photos
/// rewrites their months' pages and the index, and leaves the rest as they are. Thumbnails and larger renditions are linked, never copied; a photo without a thumbnail is
/// reported and left out.
public struct Gallery: CollectionStage, ShowsBursts {
    /// Starts libvips, FFmpeg and libheif for the run, before any worker thread.
    public static func prepare(_ settings: RunSettings) throws { try ImagingSetup.configure(for: settings) }

    public typealias Options = GalleryOptions

    public static let name = "gallery"
    public static let summary = "A static web gallery of the library (a page per month, a larger view, videos and Live Photos), rewriting only the pages that changed."
    public static let media: Set<MediaKind> = [.photo, .video]
    /// Dates come from the catalog (the item's own is the fallback): no earlier step is needed.
    public static let reads: Set<ItemAspect> = []
    public static let readsLibrary = true

    let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// How the pipeline file says to show bursts.
    public var bursts: BurstChoice { options.bursts }

    public func run(_ items: [ItemRecord], context: CollectionContext) throws {
        let files = LibraryFile(library: context.settings.library, pixelLimit: context.settings.pixelLimit)
        let loaded = try EntryLoader(options: options, files: files, catalog: context.library).load(items, jobs: context.settings.jobs)
        for problem in loaded.skipped { context.reportSkipped(problem.item, reason: problem.reason, kind: problem.kind) }
        if loaded.withoutLarge > 0 {
            let count = CaptionText.plural(loaded.withoutLarge, "photo")
            context.logger.warning("\(context.step): \(count) have no larger rendition at \(options.large.template): the larger view shows their thumbnails")
        }
        let roles = Dictionary(items.compactMap { item in item.burst.map { (item.id.uuidString.lowercased(), $0) } },
                               uniquingKeysWith: { first, _ in first })
        let pages = Timeline.pages(GalleryEntry.stackingBursts(loaded.entries, roles: roles), perPage: options.photosPerPage)
        let made = options.collections ? try MadePage.load(context.library, files: files, excludingFolder: options.folder) : []
        let tiles = TileMaker(folder: options.folder)

        // Each file is a group keyed by what it is made from: one whose digest is unchanged and
        // whose file is in the library is not rendered at all.
        let keys = PageKeys(title: options.title, folder: options.folder)
        let monthDigests = DarkroomThreads.map(count: pages.count, jobs: context.settings.jobs) { index in
            keys.month(pages[index], previous: Timeline.page(before: index, in: pages), next: Timeline.page(after: index, in: pages))
        }
        var documents: [(file: String, digest: String, text: () -> String)] = [
            (GalleryAssets.stylesheet, PageKeys.text(Stylesheet.css), { Stylesheet.css }),
            (GalleryAssets.script, PageKeys.text(ViewerScript.source), { ViewerScript.source }),
            ("index.html", keys.index(pages: pages, monthDigests: monthDigests, madeCount: made.count),
             { IndexPage(title: options.title, pages: pages, madeCount: made.count, tiles: tiles).html }),
        ]
        if !made.isEmpty {
            documents.append((MadePage.file, keys.made(made), { MadePage(galleryTitle: options.title, made: made, tiles: tiles).html }))
        }
        for (index, page) in pages.enumerated() {
            documents.append((page.file, monthDigests[index], {
                MonthPage(page: page, previous: Timeline.page(before: index, in: pages), next: Timeline.page(after: index, in: pages),
                          galleryTitle: options.title, tiles: tiles).html
            }))
        }
        var current = 0
        for (done, document) in documents.enumerated() {
            let path = "\(options.folder)/\(document.file)"
            guard context.makes(path) else { continue }
            let group = context.group(document.file, madeFrom: document.digest)
            if group.isCurrent {
                current += 1
            } else {
                // One page in memory at a time, published only if its bytes changed.
                let data = Data(document.text().utf8)
                try group.publishIfChanged(path) { url in try data.write(to: url) }
            }
            context.reportProgress(done: done + 1, total: documents.count, unit: "pages")
        }
        context.logger.info("\(context.step): \(current) of \(documents.count) files up to date, not made again")
        context.logger.info("\(context.step): \(loaded.entries.count) photos and videos on \(pages.count) pages in \(options.folder)/")
    }
}
