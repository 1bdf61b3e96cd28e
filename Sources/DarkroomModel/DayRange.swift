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
