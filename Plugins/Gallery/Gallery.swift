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
    /// held whole; the index, made last, is made from each month's card. A month whose photos, catalog
    /// entries and files' folders are as the last run found them (`MonthMemory`) is not read at all:
    /// its pages' digests and its card are remembered.
    public func run(_ items: [ItemRecord], context: CollectionContext) throws {
        let library = context.settings.library
        let files = LibraryFile(library: library, pixelLimit: context.settings.pixelLimit)
        let loader = EntryLoader(options: options, files: files, catalog: context.library)
        let roles = Dictionary(items.compactMap { item in item.burst.map { (item.id.uuidString.lowercased(), $0) } },
                               uniquingKeysWith: { first, _ in first })
        let months = Timeline.months(items, roles: roles)
        let keys = PageKeys(title: options.title, folder: options.folder)
        let tiles = TileMaker(folder: options.folder)
        var written = GalleryFiles(folder: options.folder, context: context)
        try written.write(GalleryAssets.stylesheet, madeFrom: PageKeys.text(Stylesheet.css)) { Stylesheet.css }
        try written.write(GalleryAssets.script, madeFrom: PageKeys.text(ViewerScript.source)) { ViewerScript.source }

        let jobs = context.settings.jobs
        // What each month is made from, when the catalog numbers its changes; the months the last run
        // made from the same, whose files' folders are as they were then, are not read again.
        let memoryFile = MonthMemory.file(library: library, folder: options.folder)
        let settings = "\(keys.format)|\(options.thumbnails.template)|\(options.large.template)|\(options.photosPerPage)|\(options.bursts)"
        let sources = try MonthMemory.sources(of: months, items: items, settings: settings, jobs: jobs) { try context.library.revisions($0) }
        let recalled = sources.flatMap { sources in
            context.settings.force ? nil : MonthMemory.load(memoryFile)?.recalled(months, sources: sources, library: library)
        } ?? [:]
        var memory = MonthMemory()

        var cards: [IndexPage.Card] = [], monthDigests: [(file: String, digest: String)] = []
        var shown = 0, withoutLarge = 0
        // A month read again to make a remembered page whose neighbours changed, or whose file left (its month, its pages).
        var reread: (month: Int, pages: [TimelinePage])?, monthsReread = 0
        func pages(ofMonth index: Int) throws -> [TimelinePage] {
            if let reread, reread.month == index { return reread.pages }
            monthsReread += 1
            let monthItems = months[index].items(of: items)
            let loaded = try loader.load(monthItems, reads: try loader.read(monthItems), jobs: jobs)
            for problem in loaded.skipped { context.reportSkipped(problem.item, reason: problem.reason, kind: problem.kind) }
            if !loaded.skipped.isEmpty { memory.months[MonthMemory.key(months[index].month)] = nil }
            let pages = Timeline.pages(of: months[index].month, GalleryEntry.stackingBursts(loaded.entries, roles: roles), perPage: options.photosPerPage)
            reread = (index, pages)
            return pages
        }
        // Each month page is keyed by what it is made from: one whose digest is unchanged and whose
        // file is in the library is not rendered at all. A remembered page (no entries) that must be
        // rendered is made from its month read again.
        func make(_ made: SequencedPage, previous: SequencedPage?, next: SequencedPage?) throws {
            var page = made.page, content = made.content
            var digest = keys.month(page, content: content, previous: previous?.page, next: next?.page)
            if made.remembered, !written.isCurrent(page.file, madeFrom: digest) {
                page = try pages(ofMonth: made.month).first { $0.file == page.file } ?? page
                let shown = PageKeys.content(page.entries, jobs: jobs)
                // Shown otherwise than remembered (a size corrected in the catalog): the month is read next time, and remembered afresh.
                if shown != content { memory.months[MonthMemory.key(page.month)] = nil }
                content = shown
                digest = keys.month(page, content: content, previous: previous?.page, next: next?.page)
            }
            monthDigests.append((page.file, digest))
            try written.write(page.file, madeFrom: digest) {
                MonthPage(page: page, previous: previous?.page, next: next?.page, galleryTitle: options.title, tiles: tiles).html
            }
        }
        var sequence = PageSequence<SequencedPage>()
        // The catalog is read for the next months to read, on two threads, while this month's entries and pages are made.
        let toRead = months.indices.filter { recalled[$0] == nil }
        // Each month's records are gathered once, on the reading thread, and handed on with what was read of them.
        let reads = Ahead(count: toRead.count, threads: 2) { position in
            Result { () throws -> ([ItemRecord], EntryLoader.CatalogReads) in
                let monthItems = months[toRead[position]].items(of: items)
                return (monthItems, try loader.read(monthItems))
            }
        }
        defer { reads.stop() }
        for (index, month) in months.enumerated() {
            let key = MonthMemory.key(month.month)
            if let remembered = recalled[index] {
                cards += remembered.cards
                shown += remembered.shown
                withoutLarge += remembered.withoutLarge
                memory.months[key] = remembered
                try sequence.append(remembered.pages.map { SequencedPage(remembered: $0, of: month.month, index: index) }, make: make)
            } else {
                let looked = FolderNotes()
                let (monthItems, read) = try reads.next().get()
                let loaded = try loader.noting(looked).load(monthItems, reads: read, jobs: jobs)
                for problem in loaded.skipped { context.reportSkipped(problem.item, reason: problem.reason, kind: problem.kind) }
                shown += loaded.entries.count
                withoutLarge += loaded.withoutLarge
                // Each on its month's pages (a burst's shot taken across midnight at a month's end with its pick).
                let pages = Timeline.pages(of: month.month, GalleryEntry.stackingBursts(loaded.entries, roles: roles), perPage: options.photosPerPage)
                let monthCards = IndexPage.Card.of(pages)
                cards += monthCards
                let sequenced = pages.map { SequencedPage(page: $0, content: PageKeys.content($0.entries, jobs: jobs), month: index, remembered: false) }
                try sequence.append(sequenced, make: make)
                // A month with a photo left out is read again next time, so that it is reported again.
                if let sources, loaded.skipped.isEmpty {
                    memory.months[key] = MonthMemory.Recalled(
                        source: sources[index], folders: MonthMemory.states(of: looked.folders, library: library),
                        pages: sequenced.map { MonthMemory.Page(file: $0.page.file, part: $0.page.part, parts: $0.page.parts, content: $0.content) },
                        cards: monthCards, shown: loaded.entries.count, withoutLarge: loaded.withoutLarge)
                }
            }
            context.reportProgress(done: index + 1, total: months.count, unit: "months")
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
        if sources != nil {
            do { try memory.save(memoryFile) } catch {
                context.logger.warning("\(context.step): cannot keep what was made of each month (the next run reads them all again): \(error)")
            }
        }
        context.logger.info("\(context.step): \(written.current) of \(written.count) files up to date, not made again")
        context.logger.info("\(context.step): \(shown) photos and videos on \(monthDigests.count) pages in \(options.folder)/; \(recalled.count - monthsReread) of \(months.count) months not read again")
    }
}

/// A month page in the order the gallery makes them: the page (without entries when `remembered`),
/// the digest of what it shows, and its month's position.
private struct SequencedPage {
    var page: TimelinePage
    var content: String
    var month: Int
    /// Whether the page is as the last run made it (`MonthMemory`), its month not read this run.
    var remembered: Bool

    init(page: TimelinePage, content: String, month: Int, remembered: Bool) {
        (self.page, self.content, self.month, self.remembered) = (page, content, month, remembered)
    }

    /// A page the last run made of `month` (at position `index`), as remembered.
    init(remembered page: MonthMemory.Page, of month: Month?, index: Int) {
        self.init(page: TimelinePage(file: page.file, month: month, part: page.part, parts: page.parts, entries: []),
                  content: page.content, month: index, remembered: true)
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

    /// Whether the file `name` is in the library as made from what `digest` describes (counted by `write`, not here).
    func isCurrent(_ name: String, madeFrom digest: String) -> Bool {
        let path = "\(folder)/\(name)"
        return !context.makes(path) || context.group(name, madeFrom: digest).isCurrent
    }

    /// The file `name` in the gallery's folder, made from what `digest` describes: `text` is called
    /// only when it must be made (one page in memory at a time).
    mutating func write(_ name: String, madeFrom digest: String, text: () throws -> String) throws {
        let path = "\(folder)/\(name)"
        guard context.makes(path) else { return }
        count += 1
        let group = context.group(name, madeFrom: digest)
        if group.isCurrent {
            current += 1
        } else {
            let data = Data(try text().utf8)
            try group.publishIfChanged(path) { url in try data.write(to: url) }
        }
    }
}
