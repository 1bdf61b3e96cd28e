import DarkroomHTML
import Foundation

/// The gallery's front page: the years, newest first, each with its months as cards (a cover
/// thumbnail, the month, how many photos), a link to what other pipelines made, and the undated.
struct IndexPage {
    let title: String
    let pages: [TimelinePage]
    let madeCount: Int
    let tiles: TileMaker

    var html: String {
        let entries = pages.flatMap(\.entries)
        let photos = entries.count { $0.kind == .photo }
        var subtitle = CaptionText.count(photos: photos, videos: entries.count - photos)
        if let first = pages.first(where: { $0.month != nil })?.month, let last = pages.last(where: { $0.month != nil })?.month {
            subtitle += first == last ? ", \(CaptionText.month(first))" : ", \(CaptionText.month(first)) to \(CaptionText.month(last))"
        }
        var sections = years
        if let undated = pages.first(where: { $0.month == nil }) {
            sections.append(Components.section(id: "undated", heading: "Undated", [
                .element("p", [], [.element("a", [Attribute("href", URLPath.encoded(undated.file))],
                                            text: CaptionText.count(photos: undated.entries.count, videos: 0) + " with no capture date")]),
            ]))
        }
        if madeCount > 0 {
            sections.append(Components.section(id: "made", heading: "Made from these photos", [
                .element("p", [], [.element("a", [Attribute("href", MadePage.file)],
                                            text: "\(CaptionText.plural(madeCount, "collage, time-lapse or book")) made by other pipelines")]),
            ]))
        }
        let uncertain = entries.count(where: \.uncertainDate)
        if uncertain > 0 {
            let marked = uncertain == 1 ? "is marked date?: its date may be wrong" : "are marked date?: their dates may be wrong"
            sections.insert(.element("p", [.class("note")], text: "\(CaptionText.plural(uncertain, "photo")) dated from a low-confidence source "
                                     + "(the file's modification time) \(marked)."), at: 0)
        }
        if entries.isEmpty { sections = [.element("p", [.class("note")], text: "No photos yet: import some, then run the gallery again.")] }
        let body = Markup.joined([Components.header(title: title, subtitle: subtitle), .element("main", [], sections)])
        return Page(title: title, body: body, assets: GalleryAssets.linked).html
    }

    /// A section per year, newest first; its months newest first, each linking to its first page.
    private var years: [Markup] {
        let firstPages = pages.filter { $0.month != nil && $0.part == 1 }
        let byYear = Dictionary(grouping: firstPages, by: { $0.month!.year })
        return byYear.keys.sorted(by: >).map { year in
            let months = byYear[year]!.sorted { $0.month! > $1.month! }
            return Components.section(id: "y\(year)", heading: String(year), [.element("ol", [.class("months")], months.map(card))])
        }
    }

    /// A month's card: its first photo as cover, the month's name and count.
    private func card(_ first: TimelinePage) -> Markup {
        let entries = pages.filter { $0.month == first.month }.flatMap(\.entries)
        let photos = entries.count { $0.kind == .photo }
        let cover = entries[0].thumbnail
        let image = Markup.void("img", [Attribute("src", tiles.link(cover.path)), Attribute("width", cover.width),
                                        Attribute("height", cover.height), Attribute("alt", ""), Attribute("loading", "lazy"),
                                        Attribute("decoding", "async")])
        return .element("li", [], [.element("a", [Attribute("href", URLPath.encoded(first.file))], [
            image,
            .element("span", [.class("label")], [
                .text(CaptionText.monthName(first.month!)),
                .element("span", [.class("count")], text: CaptionText.count(photos: photos, videos: entries.count - photos)),
            ]),
        ])])
    }
}
