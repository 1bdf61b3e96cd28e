import DarkroomCore
import Foundation
import DarkroomModel

/// Chooses the photos of a time-lapse from the ordered items: those with a capture date, inside
/// the date range, one per day when asked. Items arrive sorted by capture date (ties by name).
struct PhotoSelection {
    /// The photos to render, in order.
    var photos: [ItemRecord] = []
    /// Items without a capture date (reported, never placed at random).
    var undated: [ItemRecord] = []
    /// How many dated photos fell outside `from`...`to`.
    var outsideRange = 0
    /// How many photos `one-per-day` left out.
    var sameDay = 0

    init(_ items: [ItemRecord], options: TimelapseOptions) {
        var inRange: [ItemRecord] = []
        for item in items {
            guard let date = item.captureDate?.local else { undated.append(item); continue }
            guard DayRange(from: options.from, to: options.to).contains(date) else { outsideRange += 1; continue }
            inRange.append(item)
        }
        photos = options.onePerDay == .all ? inRange : Self.onePerDay(inRange, pick: options.onePerDay)
        sameDay = inRange.count - photos.count
    }

    /// One photo of each run of same-day photos.
    static func onePerDay(_ items: [ItemRecord], pick: TimelapseOptions.DayPick) -> [ItemRecord] {
        var chosen: [ItemRecord] = []
        var start = 0
        while start < items.count {
            let key = DayRange.key(items[start].captureDate!.local)
            var end = start + 1
            while end < items.count, DayRange.key(items[end].captureDate!.local) == key { end += 1 }
            switch pick {
            case .first, .all: chosen.append(items[start])
            case .last: chosen.append(items[end - 1])
            case .middle: chosen.append(items[start + (end - start - 1) / 2])
            }
            start = end
        }
        return chosen
    }

    /// Why nothing was selected, for the error message.
    var emptyExplanation: String {
        var reasons: [String] = []
        if !undated.isEmpty { reasons.append("\(undated.count) without a capture date") }
        if outsideRange > 0 { reasons.append("\(outsideRange) outside the from/to range") }
        return reasons.isEmpty ? "no photos were given" : "of the photos given, " + reasons.joined(separator: ", ")
    }
}
