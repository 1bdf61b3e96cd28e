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

    /// Makes the gallery a month at a time: each month's photos are read from the catalog, shown on
    /// its pages and let go before the next month's, so that a library of 100,000 photos is never
    /// held whole; the index, made last, is made from each month's card.
    public func run(_ items: [ItemRecord], context: CollectionContext) throws {
        let files = LibraryFile(library: context.settings.library, pixelLimit: context.settings.pixelLimit)
        let loader = EntryLoader(options: options, files: files, catalog: context.library)
        let roles = Dictionary(items.compactMap { item in item.burst.map { (item.id.uuidString.lowercased(), $0) } },
                               uniquingKeysWith: { first, _ in first })
        let months = Timeline.months(items, roles: roles)
        let keys = PageKeys(title: options.title, folder: options.folder)
        let tiles = TileMaker(folder: options.folder)
        var written = GalleryFiles(folder: options.folder, context: context)
        try written.write(GalleryAssets.stylesheet, madeFrom: PageKeys.text(Stylesheet.css)) { Stylesheet.css }
        try written.write(GalleryAssets.script, madeFrom: PageKeys.text(ViewerScript.source)) { ViewerScript.source }

        var cards: [IndexPage.Card] = [], monthDigests: [(file: String, digest: String)] = []
        var shown = 0, withoutLarge = 0
        let jobs = context.settings.jobs
        // Each month page is keyed by what it is made from: one whose digest is unchanged and whose
        // file is in the library is not rendered at all.
        func make(_ page: TimelinePage, previous: TimelinePage?, next: TimelinePage?) throws {
            let digest = keys.month(page, previous: previous, next: next, jobs: jobs)
            monthDigests.append((page.file, digest))
            try written.write(page.file, madeFrom: digest) {
                MonthPage(page: page, previous: previous, next: next, galleryTitle: options.title, tiles: tiles).html
            }
        }
        var sequence = PageSequence()
        // The catalog is read for the next months, on two threads, while this month's entries and pages are made.
        let reads = Ahead(count: months.count, threads: 2) { position in Result { try loader.read(months[position].items) } }
        defer { reads.stop() }
        for (done, month) in months.enumerated() {
            let loaded = try loader.load(month.items, reads: try reads.next().get(), jobs: jobs)
            for problem in loaded.skipped { context.reportSkipped(problem.item, reason: problem.reason, kind: problem.kind) }
            shown += loaded.entries.count
            withoutLarge += loaded.withoutLarge
            // Each on its month's pages (a burst's shot taken across midnight at a month's end with its pick).
            let pages = Timeline.pages(of: month.month, GalleryEntry.stackingBursts(loaded.entries, roles: roles), perPage: options.photosPerPage)
            cards += IndexPage.Card.of(pages)
            try sequence.append(pages, make: make)
            context.reportProgress(done: done + 1, total: months.count, unit: "months")
        }
        try sequence.finish(make: make)
        if withoutLarge > 0 {
            let count = CaptionText.plural(withoutLarge, "photo")
            context.logger.warning("\(context.step): \(count) have no larger rendition at \(options.large.template): the larger view shows their thumbnails")
        }

        let made = options.collections ? try MadePage.load(context.library, files: files, excludingFolder: options.folder) : []
        if !made.isEmpty {
            try written.write(MadePage.file, madeFrom: keys.made(made)) { MadePage(galleryTitle: options.title, made: made, tiles: tiles).html }
        }
        try written.write("index.html", madeFrom: keys.index(monthDigests: monthDigests, madeCount: made.count)) {
            IndexPage(title: options.title, cards: cards, madeCount: made.count, tiles: tiles).html
        }
        context.logger.info("\(context.step): \(written.current) of \(written.count) files up to date, not made again")
        context.logger.info("\(context.step): \(shown) photos and videos on \(monthDigests.count) pages in \(options.folder)/")
    }
}

/// The gallery's files as the step writes them: each a group keyed by what it is made from, made
/// and published only when that changed or its file left the library, and then only if its bytes changed.
private struct GalleryFiles {
    let folder: String
    let context: CollectionContext
    /// How many files were written about, and how many of them were current.
    private(set) var count = 0, current = 0

    init(folder: String, context: CollectionContext) {
        self.folder = folder
        self.context = context
    }

    /// The file `name` in the gallery's folder, made from what `digest` describes: `text` is called
    /// only when it must be made (one page in memory at a time).
    mutating func write(_ name: String, madeFrom digest: String, text: () -> String) throws {
        let path = "\(folder)/\(name)"
        guard context.makes(path) else { return }
        count += 1
        let group = context.group(name, madeFrom: digest)
        if group.isCurrent {
            current += 1
        } else {
            let data = Data(text().utf8)
            try group.publishIfChanged(path) { url in try data.write(to: url) }
        }
    }
}
