import DarkroomCore
import Foundation

/// Formats a capture date's wall-clock fields with a Unicode date pattern (`d MMM yyyy`), in
/// English month and day names. The fields are formatted as they stand: no time zone conversion.
struct DateText: Sendable {
    let pattern: String

    init(pattern: String) { self.pattern = pattern }

    func string(_ date: LocalDateTime) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter.string(from: date.instant(utcOffsetSeconds: 0))
    }

    /// `first – last`, or one date when both format the same; empty when neither is known.
    func range(_ first: LocalDateTime?, _ last: LocalDateTime?) -> String {
        switch (first.map(string), last.map(string)) {
        case let (a?, b?): return a == b ? a : "\(a) – \(b)"
        case let (a?, nil): return a
        case let (nil, b?): return b
        default: return ""
        }
    }
}
