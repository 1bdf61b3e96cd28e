import DarkroomHTML
import Foundation

/// A month's page (or part of one): the pager to the months around it and the index, then the
/// photos day by day, each day a grid.
struct MonthPage {
    let page: TimelinePage
    let previous: TimelinePage?
    let next: TimelinePage?
    let galleryTitle: String
    let tiles: TileMaker

    var html: String {
        let photos = page.entries.count { $0.kind == .photo }
        var subtitle = CaptionText.count(photos: photos, videos: page.entries.count - photos)
        let uncertain = page.entries.count(where: \.uncertainDate)
        if uncertain > 0 { subtitle += "; \(CaptionText.plural(uncertain, "date")) uncertain (marked date?)" }
        let burstShots = page.entries.reduce(0) { $0 + $1.burstShots.count }
        if burstShots > 0 { subtitle += "; \(CaptionText.plural(burstShots, "more shot")) in bursts" }
        let body = Markup.joined([
            Components.pager(pager, label: "Months"),
            Components.header(title: page.title, subtitle: subtitle),
            .element("main", [], days),
            Components.pager(pager, label: "Months, again"),
        ])
        return Page(title: "\(page.title) · \(galleryTitle)", body: body, assets: GalleryAssets.linked).html
    }

    private var pager: [Components.PagerLink] {
        [
            previous.map { Components.PagerLink("\u{2039} \($0.title)", href: URLPath.encoded($0.file), relation: "prev") },
            Components.PagerLink("All months", href: "index.html", relation: "up"),
            next.map { Components.PagerLink("\($0.title) \u{203A}", href: URLPath.encoded($0.file), relation: "next") },
        ].compactMap { $0 }
    }

    /// A section per day, in capture order (one section for undated photos).
    private var days: [Markup] {
        var groups: [(heading: String, entries: [GalleryEntry])] = []
        for entry in page.entries {
            let heading = entry.date.map { CaptionText.day($0.local) } ?? "Date unknown"
            if groups.last?.heading == heading { groups[groups.count - 1].entries.append(entry) } else { groups.append((heading, [entry])) }
        }
        return groups.enumerated().map { offset, group in
            Components.section(id: "day-\(offset + 1)", heading: group.heading, [PhotoGrid.markup(group.entries.map(tiles.tile))])
        }
    }
}

/// The stylesheet and script every gallery page links to, published once in the gallery folder.
enum GalleryAssets {
    static let stylesheet = "darkroom.css"
    static let script = "darkroom.js"
    static let linked = Page.Assets.linked(stylesheet: stylesheet, script: script)
}
