import Foundation

/// An inclusive range of calendar days, either end open: the `from` and `to` options of the
/// collection stages (a time-lapse, a photo book). Days compare by their wall-clock date, as the
/// photographer saw it.
public struct DayRange: Sendable, Hashable {
    /// The first day included, if any.
    public var from: LocalDateTime?
    /// The last day included, if any.
    public var to: LocalDateTime?

    /// The days from `from` to `to`, both included.
    public init(from: LocalDateTime? = nil, to: LocalDateTime? = nil) {
        self.from = from
        self.to = to
    }

    /// Whether the calendar day of `date` is inside the range.
    public func contains(_ date: LocalDateTime) -> Bool {
        let day = Self.key(date)
        return from.map { day >= Self.key($0) } ?? true && to.map { day <= Self.key($0) } ?? true
    }

    /// The calendar day as one comparable number (yyyymmdd).
    public static func key(_ date: LocalDateTime) -> Int { date.year * 10_000 + date.month * 100 + date.day }

    /// The day written yyyy-MM-dd.
    public static func text(_ day: LocalDateTime) -> String { String(format: "%04d-%02d-%02d", day.year, day.month, day.day) }
}

extension StageOption where Value == LocalDateTime? {
    /// A day written yyyy-MM-dd (a `from` or `to`).
    public static func day(_ key: String, _ summary: String) -> StageOption {
        custom(key, as: String.self, default: nil, shown: "", accepts: "a day written yyyy-MM-dd", summary) { text in
            let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 3, text.count == 10, let y = parts[0], let m = parts[1], let d = parts[2],
                  let day = LocalDateTime(year: y, month: m, day: d) else { return nil }
            return day
        }
    }
}

extension OptionsReader {
    /// Reads a `from` and a `to` day together; a `to` before `from` is a problem against `to`.
    public func readDays(from fromOption: StageOption<LocalDateTime?>, to toOption: StageOption<LocalDateTime?>) -> DayRange {
        let range = DayRange(from: read(fromOption), to: read(toOption))
        if let from = range.from, let to = range.to, to < from {
            reject(toOption, expected: "a day on or after from (\(DayRange.text(from)))", got: DayRange.text(to))
        }
        return range
    }
}
