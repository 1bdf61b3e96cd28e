import DarkroomCore
import Foundation
import DarkroomModel

/// Photos that may share a collage: one day, ISO week or month (or all of them).
struct PhotoGroup {
    /// `2024-03`, `2024-W09`, `2024-03-15`, or `all`.
    var key: String
    var photos: [ItemRecord]
}

enum PhotoGroups {
    /// Splits date-ordered `items` into groups, keeping their order. With a date grouping,
    /// photos without a capture date cannot be placed and are returned apart.
    static func split(_ items: [ItemRecord], by groupBy: Collage.GroupBy) -> (groups: [PhotoGroup], undated: [ItemRecord]) {
        guard groupBy != .none else { return (items.isEmpty ? [] : [PhotoGroup(key: "all", photos: items)], []) }
        var groups: [PhotoGroup] = []
        var undated: [ItemRecord] = []
        for item in items {
            guard let date = item.captureDate?.local else { undated.append(item); continue }
            let key = self.key(date, groupBy)
            if groups.last?.key == key { groups[groups.count - 1].photos.append(item) }
            else if let index = groups.firstIndex(where: { $0.key == key }) { groups[index].photos.append(item) }
            else { groups.append(PhotoGroup(key: key, photos: [item])) }
        }
        return (groups, undated)
    }

    static func key(_ date: LocalDateTime, _ groupBy: Collage.GroupBy) -> String {
        switch groupBy {
        case .none: return "all"
        case .day: return String(format: "%04d-%02d-%02d", date.year, date.month, date.day)
        case .month: return String(format: "%04d-%02d", date.year, date.month)
        case .week: return isoWeek(date)
        }
    }

    /// The ISO 8601 week of a date, `2024-W09` (the week-numbering year may differ from the date's year).
    static func isoWeek(_ date: LocalDateTime) -> String {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date.instant(utcOffsetSeconds: 0))
        return String(format: "%04d-W%02d", components.yearForWeekOfYear ?? date.year, components.weekOfYear ?? 1)
    }
}
