/// The parts Darkroom's pages share besides the grid: the page header, the pager between pages,
/// a row of counts, a table and a titled section. Text arguments are data and are escaped.
public enum Components {
    /// `<header class="site"><h1>title</h1><p>subtitle</p></header>`.
    public static func header(title: String, subtitle: String? = nil) -> Markup {
        .element("header", [.class("site")], [.element("h1", text: title)] + (subtitle.map { [.element("p", text: $0)] } ?? []))
    }

    /// One place in a pager: a link (`href` encoded), or the current page's plain label.
    public struct PagerLink: Sendable {
        public var label: String
        public var href: String?
        /// What the link leads to, for `rel` (`prev`, `next`, `up`).
        public var relation: String?

        public init(_ label: String, href: String?, relation: String? = nil) {
            self.label = label; self.href = href; self.relation = relation
        }
    }

    /// `<nav class="pager">` with its links; an entry without `href` is shown as the current place.
    public static func pager(_ links: [PagerLink], label: String) -> Markup {
        .element("nav", [.class("pager"), Attribute("aria-label", label)], links.map { link in
            guard let href = link.href else { return .element("span", [.class("here"), Attribute("aria-current", "page")], text: link.label) }
            return .element("a", [Attribute("href", href)] + (link.relation.map { [Attribute("rel", $0)] } ?? []), text: link.label)
        })
    }

    /// A row of labelled counts (`<dl class="counts">`); `bad` ones stand out.
    public static func counts(_ counts: [(label: String, value: Int, bad: Bool)]) -> Markup {
        .element("dl", [.class("counts")], counts.map { count in
            .element("div", count.bad && count.value > 0 ? [.class("bad")] : [],
                     [.element("dt", text: count.label), .element("dd", text: String(count.value))])
        })
    }

    /// A table with a header row; `classes` are added to `list`, cells are markup.
    public static func table(headers: [String], rows: [[Markup]], classes: String = "") -> Markup {
        .element("table", [.class(classes.isEmpty ? "list" : "list " + classes)], [
            .element("thead", [], [.element("tr", [], headers.map { .element("th", [Attribute("scope", "col")], text: $0) })]),
            .element("tbody", [], rows.map { cells in .element("tr", [], cells.map { .element("td", [], [$0]) }) }),
        ])
    }

    /// `<section aria-labelledby><h2 id>heading</h2>content</section>`; `id` names the heading.
    public static func section(id: String, heading: String, note: String? = nil, _ content: [Markup]) -> Markup {
        .element("section", [Attribute("aria-labelledby", id)],
                 [.element("h2", [Attribute("id", id)], text: heading)] + (note.map { [.element("p", [.class("note")], text: $0)] } ?? []) + content)
    }
}
