import Foundation
import Synchronization
import DarkroomModel

/// Formats a capture date's wall-clock fields with a Unicode date pattern (`d MMM yyyy`), in
/// English month and day names. The fields are formatted as they stand: no time zone conversion.
/// Every date a collage, a time-lapse caption, a photo book or the gallery writes goes through it.
public struct DateText: Sendable, Hashable {
    /// The Unicode date pattern (`d MMM yyyy`).
    public let pattern: String

    /// Dates written with `pattern`.
    public init(pattern: String) { self.pattern = pattern }

    /// The date's wall-clock fields written with the pattern.
    public func string(_ date: LocalDateTime) -> String {
        Self.formatters.withLock { formatters in
            let formatter = formatters[pattern] ?? Self.formatter(pattern)
            formatters[pattern] = formatter
            return formatter.string(from: date.instant(utcOffsetSeconds: 0))
        }
    }

    /// One formatter a pattern, made once and used under the lock: making one costs ICU the
    /// pattern's compilation (a gallery of 10,000 photos spent a quarter of its run making them).
    private static let formatters = Mutex<[String: DateFormatter]>([:])

    private static func formatter(_ pattern: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter
    }

    /// `first – last`, or one date when both format the same; empty when neither is known.
    public func range(_ first: LocalDateTime?, _ last: LocalDateTime?) -> String {
        switch (first.map(string), last.map(string)) {
        case let (a?, b?): return a == b ? a : "\(a) – \(b)"
        case let (a?, nil): return a
        case let (nil, b?): return b
        default: return ""
        }
    }
}
