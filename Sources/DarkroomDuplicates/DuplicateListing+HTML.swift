import DarkroomHTML
import DarkroomSimilarity
import Foundation

extension DuplicateListing {
    /// The HTML report (`--report FILE`): the counts, then each group side by side, the kept photo
    /// first: its thumbnail (linked relative to the page), pixel size, date, original path, distance
    /// to the kept photo, and which is kept and why. Standalone (its stylesheet inline); it shows the
    /// thumbnails while they stay where `thumbnailPath` says (absolute paths).
    public func html(library: URL, page: URL, thumbnailPath: (CataloguedPhoto) -> String?) -> String {
        let folder = page.deletingLastPathComponent().standardizedFileURL.path
        let copies = nearDuplicates.map { $0.members.count - 1 }.reduce(0, +)
        var sections: [Markup] = [Components.counts([
            ("photos compared", compared, false), ("near-duplicate groups", nearDuplicates.count, false), ("copies", copies, false),
            ("bursts", bursts.count, false), ("burst frames", bursts.map(\.members.count).reduce(0, +), false),
        ])]
        if groups.isEmpty { sections.append(.element("p", [.class("note")], text: "No near-duplicates and no bursts.")) }
        for (index, group) in groups.enumerated() {
            let kind = group.kind == .burst ? "Burst" : "Near-duplicates"
            let figures = group.members.enumerated().map { position, member in
                figure(member.photo, distance: member.distance, kept: position == 0, reason: group.reason,
                       link: thumbnailPath(member.photo).map { URLPath.relative(fromFolder: folder, to: $0) })
            }
            sections.append(Components.section(id: "group-\(index + 1)", heading: "\(kind): keep \(name(of: group.kept)) (\(group.reason))",
                                               [.element("div", [.class("pair")], figures)]))
        }
        let body = Markup.joined([
            Components.header(title: "Near-duplicates and bursts", subtitle: "In \(library.path): nothing is deleted; the first of each group is the one to keep"),
            .element("main", [], sections),
        ])
        return Page(title: "Near-duplicates and bursts", body: body, assets: .inline).html
    }

    /// One member: its thumbnail (with a badge: kept, or its distance), then its size, date and path.
    private func figure(_ photo: CataloguedPhoto, distance: Int?, kept: Bool, reason: String, link: String?) -> Markup {
        let badge = kept ? "keep: \(reason)" : "distance \(distance.map { String($0) } ?? "-")"
        let picture: Markup = link.map { link in
            .element("a", [.class("tile"), Attribute("href", link)], [
                .void("img", [Attribute("src", link), Attribute("alt", name(of: photo)), Attribute("loading", "lazy")]),
                .element("span", [.class(kept ? "badge" : "flag")], text: badge),
            ])
        } ?? .element("span", [.class("tile missing")], text: "(no thumbnail) \(badge)")
        let lines = [photo.pixelSize ?? "size unknown", photo.dateStamp ?? "undated", photo.asset.originalPath]
            + (photo.isOutOfLibrary ? ["moved out of the library"] : [])
        return .element("figure", [], [picture, .element("figcaption", [], lines.map { .element("div", text: $0) })])
    }

    private func name(of photo: CataloguedPhoto) -> String { (photo.asset.originalPath as NSString).lastPathComponent }
}
