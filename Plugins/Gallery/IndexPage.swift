import DarkroomHTML
import Foundation

/// The gallery's front page: the years, newest first, each with its months as cards (a cover
/// thumbnail, the month, how many photos), a link to what other pipelines made, and the undated.
/// It is made from each month's card, not from the photos, so that the gallery holds one month's photos at a time.
struct IndexPage {
    /// What the front page shows of one month's pages (or of the undated photos'): the first page,
    /// its first photo as cover, and how many photos and videos, and how many with an uncertain date.
    struct Card: Sendable, Codable {
        var month: Month?
        var file: String
        var cover: LibraryImage
        var photos: Int
        var videos: Int
        var uncertain: Int

        /// The cards of `pages` (in order): one for each month's run of pages.
        static func of(_ pages: [TimelinePage]) -> [Card] {
            var cards: [Card] = []
            for page in pages {
                let photos = page.entries.count { $0.kind == .photo }
                let uncertain = page.entries.count(where: \.uncertainDate)
                if let last = cards.last, last.month == page.month, page.part > 1 {
                    cards[cards.count - 1].photos += photos
                    cards[cards.count - 1].videos += page.entries.count - photos
                    cards[cards.count - 1].uncertain += uncertain
                } else if let cover = page.entries.first?.thumbnail {
                    cards.append(Card(month: page.month, file: page.file, cover: cover, photos: photos,
                                      videos: page.entries.count - photos, uncertain: uncertain))
                }
            }
            return cards
        }
    }

    let title: String
    let cards: [Card]
    let madeCount: Int
    let tiles: TileMaker

    var html: String {
        let photos = cards.reduce(0) { $0 + $1.photos }, videos = cards.reduce(0) { $0 + $1.videos }
        var subtitle = CaptionText.count(photos: photos, videos: videos)
        if let first = cards.first(where: { $0.month != nil })?.month, let last = cards.last(where: { $0.month != nil })?.month {
            subtitle += first == last ? ", \(CaptionText.month(first))" : ", \(CaptionText.month(first)) to \(CaptionText.month(last))"
        }
        var sections = years
        if let undated = cards.first(where: { $0.month == nil }) {
            sections.append(Components.section(id: "undated", heading: "Undated", [
                .element("p", [], [.element("a", [Attribute("href", URLPath.encoded(undated.file))],
                                            text: CaptionText.count(photos: undated.photos, videos: undated.videos) + " with no capture date")]),
            ]))
        }
        if madeCount > 0 {
            sections.append(Components.section(id: "made", heading: "Made from these photos", [
                .element("p", [], [.element("a", [Attribute("href", MadePage.file)],
                                            text: "\(CaptionText.plural(madeCount, "collage, time-lapse or book")) made by other pipelines")]),
            ]))
        }
        let uncertain = cards.reduce(0) { $0 + $1.uncertain }
        if uncertain > 0 {
            let marked = uncertain == 1 ? "is marked date?: its date may be wrong" : "are marked date?: their dates may be wrong"
            sections.insert(.element("p", [.class("note")], text: "\(CaptionText.plural(uncertain, "photo")) dated from a low-confidence source "
                                     + "(the file's modification time) \(marked)."), at: 0)
        }
        if cards.isEmpty { sections = [.element("p", [.class("note")], text: "No photos yet: import some, then run the gallery again.")] }
        let body = Markup.joined([Components.header(title: title, subtitle: subtitle), .element("main", [], sections)])
        return Page(title: title, body: body, assets: GalleryAssets.linked).html
    }

    /// A section per year, newest first; its months newest first, each linking to its first page.
    private var years: [Markup] {
        let byYear = Dictionary(grouping: cards.filter { $0.month != nil }, by: { $0.month!.year })
        return byYear.keys.sorted(by: >).map { year in
            let months = byYear[year]!.sorted { $0.month! > $1.month! }
            return Components.section(id: "y\(year)", heading: String(year), [.element("ol", [.class("months")], months.map(card))])
        }
    }

    /// A month's card: its first photo as cover, the month's name and count.
    private func card(_ card: Card) -> Markup {
        let image = Markup.void("img", [Attribute("src", tiles.link(card.cover.path)), Attribute("width", card.cover.width),
                                        Attribute("height", card.cover.height), Attribute("alt", ""), Attribute("loading", "lazy"),
                                        Attribute("decoding", "async")])
        return .element("li", [], [.element("a", [Attribute("href", URLPath.encoded(card.file))], [
            image,
            .element("span", [.class("label")], [
                .text(CaptionText.monthName(card.month!)),
                .element("span", [.class("count")], text: CaptionText.count(photos: card.photos, videos: card.videos)),
            ]),
        ])])
    }
}
