import DarkroomCore
import Foundation
import DarkroomModel

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
        return groups.flatMap { pages(of: $0.month, $0.entries, perPage: perPage) }
    }

    /// The pages of `month` (nil: the undated photos) showing `entries` (in capture order): one, or
    /// parts of `perPage` entries.
    static func pages(of month: Month?, _ entries: [GalleryEntry], perPage: Int) -> [TimelinePage] {
        let chunks = stride(from: 0, to: entries.count, by: perPage).map { Array(entries[$0..<min($0 + perPage, entries.count)]) }
        let base = month?.key ?? "undated"
        return chunks.enumerated().map { offset, chunk in
            TimelinePage(file: offset == 0 ? "\(base).html" : "\(base)-\(offset + 1).html", month: month,
                         part: offset + 1, parts: chunks.count, entries: chunk)
        }
    }

    /// The items by the month whose pages show them, months in order and the undated last, so that
    /// the gallery holds one month's photos at a time: each month with its items' positions in
    /// `items` (not copies of them: 100,000 photos' records are not held twice). A photo's month is
    /// its record's capture date (for a photo of the library, the catalog's, as its entry's is); a
    /// burst's shots go with their pick's month, where they are shown folded into it (`roles` by lower-case id).
    static func months(_ items: [ItemRecord], roles: [String: BurstRole]) -> [TimelineMonth] {
        func month(_ item: ItemRecord) -> Month? { item.captureDate.map { Month(year: $0.local.year, month: $0.local.month) } }
        let picks = Set(roles.values.map(\.pick))
        let pickMonths = Dictionary(items.filter { picks.contains($0.id) }.map { ($0.id, month($0)) }, uniquingKeysWith: { first, _ in first })
        var byMonth: [Month?: [Int]] = [:]
        for (position, item) in items.enumerated() {
            let pick = roles.isEmpty ? nil : roles[item.id.uuidString.lowercased()]?.pick
            byMonth[pick.flatMap { pickMonths[$0] } ?? month(item), default: []].append(position)
        }
        return byMonth.keys.sorted { a, b in
            switch (a, b) {
            case let (x?, y?): return x < y
            case (_?, nil): return true
            default: return false
            }
        }.map { TimelineMonth(month: $0, positions: byMonth[$0]!) }
    }
}

/// A month of the gallery (nil: the undated photos), with the positions of its items in the run's list.
struct TimelineMonth {
    var month: Month?
    var positions: [Int]

    /// Its items, out of the run's list `items`.
    func items(of items: [ItemRecord]) -> [ItemRecord] { positions.map { items[$0] } }
}

/// The gallery's month pages as they come, a month at a time, each handed on with the pages before
/// and after it: a month's last page waits for the next month's first (whose name and title it links to).
struct PageSequence<Page> {
    private var waiting: Page?
    private var beforeWaiting: Page?

    /// Adds a month's pages; `make` is given each page whose neighbours are now known.
    mutating func append(_ pages: [Page], make: (Page, _ previous: Page?, _ next: Page?) throws -> Void) rethrows {
        for page in pages {
            if let waiting { try make(waiting, beforeWaiting, page) }
            beforeWaiting = waiting
            waiting = page
        }
    }

    /// Hands on the last page, which has no next one.
    mutating func finish(make: (Page, _ previous: Page?, _ next: Page?) throws -> Void) rethrows {
        if let waiting { try make(waiting, beforeWaiting, nil) }
        (waiting, beforeWaiting) = (nil, nil)
    }
}
