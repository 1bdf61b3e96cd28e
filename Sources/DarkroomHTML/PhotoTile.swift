/// One photo or video in a grid: its thumbnail (with its pixel size, so the page keeps its place
/// before the image arrives), a link that works without JavaScript, and what the larger view shows.
/// Every string is data (file names, EXIF text): it is escaped when the tile is written.
public struct PhotoTile: Sendable, Hashable {
    /// What the larger view plays or shows.
    public enum Media: Sendable, Hashable {
        /// A still, shown at `large`.
        case photo(large: String)
        /// A still with a motion part (a Live Photo's or motion photo's video) played on hover or tap.
        case live(large: String, motion: String)
        /// A video, played in the page; `poster` is shown first; `duration` labels the thumbnail (`0:12`).
        case video(source: String, poster: String?, duration: String?)
    }

    /// The element id (`p-<uuid>`), so a page can open at a photo (`month.html#p-...`).
    public var id: String
    /// The thumbnail's URL, its pixel size and its alternative text.
    public var thumbnail: String
    public var width: Int
    public var height: Int
    public var alt: String
    public var media: Media
    /// The larger view's caption: a title (the date), details (camera, place, video facts) and
    /// where the date came from.
    public var title: String
    public var details: String
    public var dateSource: String
    /// A date from a low-confidence source (the file time): marked on the thumbnail and in the view.
    public var uncertainDate: Bool
    /// When the tile is a burst's pick: the burst's other shots, behind a count that opens them.
    public var burstShots: [PhotoTile] = []

    /// A tile; URLs are already encoded (`URLPath`), text is plain.
    public init(id: String, thumbnail: String, width: Int, height: Int, alt: String, media: Media,
                title: String, details: String = "", dateSource: String = "", uncertainDate: Bool = false) {
        self.id = id; self.thumbnail = thumbnail; self.width = width; self.height = height; self.alt = alt; self.media = media
        self.title = title; self.details = details; self.dateSource = dateSource; self.uncertainDate = uncertainDate
    }

    /// Where the link goes without JavaScript: the larger image, or the video itself.
    public var link: String {
        switch media {
        case .photo(let large), .live(let large, _): return large
        case .video(let source, _, _): return source
        }
    }

    /// The tile: `<a class="tile" href data-*><img width height alt loading="lazy"> badges</a>`.
    public var markup: Markup {
        var classes = ["tile"]
        var attributes = [Attribute("id", id), Attribute("href", link)]
        var badges: [Markup] = []
        switch media {
        case .photo(let large):
            attributes.append(Attribute("data-large", large))
        case .live(let large, let motion):
            classes.append("live")
            attributes += [Attribute("data-large", large), Attribute("data-motion", motion)]
            badges.append(.element("span", [.class("badge")], text: "LIVE"))
        case .video(let source, let poster, let duration):
            classes.append("video")
            attributes.append(Attribute("data-video", source))
            if let poster { attributes.append(Attribute("data-large", poster)) }
            badges.append(.element("span", [.class("badge")], text: "\u{25B6}\u{FE0E}" + (duration.map { " " + $0 } ?? "")))
        }
        attributes += [Attribute("data-title", title), Attribute("data-details", details), Attribute("data-source", dateSource)]
        if !burstShots.isEmpty {
            badges.append(.element("span", [.class("badge burst")], text: "BURST \(burstShots.count + 1)"))
        }
        if uncertainDate {
            classes.append("uncertain")
            attributes.append(Attribute("data-uncertain", "true"))
            badges.append(.element("span", [.class("flag"), Attribute("title", dateSource)], text: "date?"))
        }
        let image = Markup.void("img", [Attribute("src", thumbnail), Attribute("width", width), Attribute("height", height),
                                        Attribute("alt", alt), Attribute("loading", "lazy"), Attribute("decoding", "async")])
        return .element("a", [.class(classes.joined(separator: " "))] + attributes, [image] + badges)
    }
}

/// Tiles in a grid of square cells (a list, so screen readers count them).
public enum PhotoGrid {
    /// `<ul class="grid"><li>tile</li>...</ul>`; a burst's pick is followed by a cell with the count of
    /// its other shots, which opens them (`<details>`: no script needed) across the grid's width.
    public static func markup(_ tiles: [PhotoTile], label: String? = nil) -> Markup {
        .element("ul", [.class("grid")] + (label.map { [Attribute("aria-label", $0)] } ?? []), tiles.flatMap { tile -> [Markup] in
            let cell = Markup.element("li", [], [tile.markup])
            guard !tile.burstShots.isEmpty else { return [cell] }
            let count = tile.burstShots.count
            let shots = Markup.element("details", [], [
                .element("summary", [], text: "+\(count) more \(count == 1 ? "shot" : "shots") of this burst"),
                markup(tile.burstShots, label: "Other shots of this burst"),
            ])
            return [cell, .element("li", [.class("burst-shots")], [shots])]
        })
    }
}
