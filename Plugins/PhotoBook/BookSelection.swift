import DarkroomCore
import Foundation
import DarkroomModel

/// The photos of one book, in capture-date order.
struct Book {
    /// `all`, `2024` or `2024-03`: the group, as reported and as sharded.
    var key: String
    var photos: [ItemRecord]

    /// The first and last capture dates (the items are in date order).
    var firstDate: LocalDateTime? { photos.first?.captureDate?.local }
    var lastDate: LocalDateTime? { photos.last?.captureDate?.local }
}

/// Chooses the photos of the books from the date-ordered items: those with a capture date inside
/// `from`...`to`, split by year or month when asked.
struct BookSelection {
    var books: [Book] = []
    /// Items without a capture date: never placed at random in a book ordered by date.
    var undated: [ItemRecord] = []
    /// How many dated photos fell outside `from`...`to`.
    var outsideRange = 0

    init(_ items: [ItemRecord], options: PhotoBookOptions) {
        for item in items {
            guard let date = item.captureDate?.local else { undated.append(item); continue }
            guard options.days.contains(date) else { outsideRange += 1; continue }
            let key = Self.key(date, options.groupBy)
            if books.last?.key == key { books[books.count - 1].photos.append(item) }
            else { books.append(Book(key: key, photos: [item])) }
        }
    }

    /// The book a date belongs to.
    static func key(_ date: LocalDateTime, _ groupBy: PhotoBookOptions.GroupBy) -> String {
        switch groupBy {
        case .none: return "all"
        case .year: return String(format: "%04d", date.year)
        case .month: return String(format: "%04d-%02d", date.year, date.month)
        }
    }

    /// Why no book was made, for the error message.
    var emptyExplanation: String {
        if undated.isEmpty && outsideRange == 0 { return "no photos were given" }
        return "none of the \(undated.count + outsideRange) photos has a capture date"
            + (outsideRange > 0 ? " between from and to (\(outsideRange) outside, \(undated.count) undated)" : "")
    }
}
