import Foundation

/// One page of photos: a month (or the undated photos), or part of a month that holds more than a
/// page's worth.
struct TimelinePage: Sendable {
    /// The file name in the gallery folder: `2024-03.html`, `2024-03-2.html`, `undated.html`.
    var file: String
    /// The month, nil for the undated photos.
    var month: Month?
    /// Which part of its month this page is (1-based), of how many.
    var part: Int
    var parts: Int
    var entries: [GalleryEntry]

    /// `March 2024`, `March 2024 (2 of 3)`, `Undated`.
    var title: String {
        let name = month.map(CaptionText.month) ?? "Undated"
        return parts > 1 ? "\(name) (\(part) of \(parts))" : name
    }
}

/// The gallery's pages: a page per month in capture order, a month with more than `perPage` photos
/// split into parts, the undated photos last.
enum Timeline {
    /// The pages of `entries` (in capture order).
    static func pages(_ entries: [GalleryEntry], perPage: Int) -> [TimelinePage] {
        var groups: [(month: Month?, entries: [GalleryEntry])] = []
        for entry in entries {
            if let last = groups.last, last.month == entry.month { groups[groups.count - 1].entries.append(entry) }
            else { groups.append((entry.month, [entry])) }
        }
        return groups.flatMap { group -> [TimelinePage] in
            let chunks = stride(from: 0, to: group.entries.count, by: perPage).map { Array(group.entries[$0..<min($0 + perPage, group.entries.count)]) }
            let base = group.month?.key ?? "undated"
            return chunks.enumerated().map { offset, chunk in
                TimelinePage(file: offset == 0 ? "\(base).html" : "\(base)-\(offset + 1).html", month: group.month,
                             part: offset + 1, parts: chunks.count, entries: chunk)
            }
        }
    }

    /// The page before the one at `index` (nil for the first).
    static func page(before index: Int, in pages: [TimelinePage]) -> TimelinePage? { index > 0 ? pages[index - 1] : nil }

    /// The page after the one at `index` (nil for the last).
    static func page(after index: Int, in pages: [TimelinePage]) -> TimelinePage? { index + 1 < pages.count ? pages[index + 1] : nil }
}
