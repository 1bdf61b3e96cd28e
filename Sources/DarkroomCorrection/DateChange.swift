import Foundation
import DarkroomModel

/// How `darkroom catalog set-date` changes a photo's capture date: to a date, or by a shift.
///
/// The result is always a date with source `user`, which keeps the date the files gave in
/// `overrides`. A shift moves that found date (not an earlier correction), so running the same
/// shift twice changes nothing, and a shift that was interrupted is finished by running it again.
public enum DateChange: Sendable, Hashable, CustomStringConvertible {
    /// This wall-clock time, at this UTC offset (nil: the offset the photo had, if any).
    case set(LocalDateTime, utcOffsetSeconds: Int?)
    /// The date the photo's files gave, moved by this many seconds (its offset unchanged).
    case shift(seconds: Int)

    /// The longest shift accepted: a century either way.
    public static let longestShift = 100 * 366 * 86_400

    /// The user's date for a photo whose date is now `current`; nil when a shift has no date to move.
    public func date(for current: CaptureDate?) -> CaptureDate? {
        let found = current?.found
        switch self {
        case .set(let local, let offset):
            return CaptureDate(local: local, utcOffsetSeconds: offset ?? current?.utcOffsetSeconds, source: .user,
                               timeZoneSource: offset != nil ? .user : current?.timeZoneSource ?? .unknown,
                               confidence: .high, overrides: found)
        case .shift(let seconds):
            // From the found date; a photo that had none is shifted from the date the user gave it.
            guard let current else { return nil }
            let base = found ?? FoundDate(current)
            guard let local = base.local.adding(seconds: seconds) else { return nil }
            return CaptureDate(local: local, utcOffsetSeconds: base.utcOffsetSeconds, source: .user,
                               timeZoneSource: base.timeZoneSource, confidence: .high, overrides: found)
        }
    }

    /// `2019-06-15T12:00:00+02:00`, or `+1h30m`.
    public var description: String {
        switch self {
        case .set(let local, let offset): return CaptureDate.stamp(local, utcOffsetSeconds: offset)
        case .shift(let seconds): return DateChange.shiftText(seconds)
        }
    }

    // MARK: Parsing

    /// Reads `YYYY-MM-DDTHH:MM[:SS][±HH:MM|Z]` (a space may stand for the `T`); throws
    /// `DateArgumentError` naming what is wrong (the form, an impossible day, an offset out of range).
    public static func parseDate(_ text: String) throws -> DateChange {
        let pattern = #"^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:?\d{2})?$"#
        guard let fields = DateChange.captures(pattern, in: text) else {
            throw DateArgumentError("expected a date written YYYY-MM-DDTHH:MM[:SS][+HH:MM], such as 2019-06-15T12:00 or "
                                    + "2019-06-15T12:00:30+02:00, got '\(text)'")
        }
        let number = { (index: Int) in fields[index].flatMap { Int($0) } ?? 0 }
        guard let local = LocalDateTime(year: number(0), month: number(1), day: number(2), hour: number(3), minute: number(4),
                                        second: number(5)), number(5) < 60 else {
            throw DateArgumentError("'\(text)' is not a real date and time")
        }
        guard let offsetText = fields[6] else { return .set(local, utcOffsetSeconds: nil) }
        if offsetText == "Z" { return .set(local, utcOffsetSeconds: 0) }
        let digits = offsetText.dropFirst().filter(\.isNumber)
        let hours = Int(digits.prefix(2))!, minutes = Int(digits.suffix(2))!
        let offset = (offsetText.hasPrefix("-") ? -1 : 1) * (hours * 3600 + minutes * 60)
        guard minutes < 60, (-12 * 3600...14 * 3600).contains(offset) else {
            throw DateArgumentError("the UTC offset \(offsetText) in '\(text)' is out of range (-12:00 to +14:00)")
        }
        return .set(local, utcOffsetSeconds: offset)
    }

    /// Reads a signed shift of days, hours, minutes and seconds in that order, each at most once:
    /// `+1h`, `-45m`, `+2d`, `+1h30m`, `-1d2h3m4s`. Zero and more than a century are refused.
    public static func parseShift(_ text: String) throws -> DateChange {
        let pattern = #"^([+-])(?:(\d{1,6})d)?(?:(\d{1,7})h)?(?:(\d{1,9})m)?(?:(\d{1,10})s)?$"#
        let problem = DateArgumentError("expected a shift such as +1h, -45m, +2d or +1h30m (a sign, then days d, hours h, "
                                        + "minutes m, seconds s in that order), got '\(text)'")
        guard let fields = DateChange.captures(pattern, in: text), fields[1...].contains(where: { $0 != nil }) else { throw problem }
        let units = [86_400, 3600, 60, 1]
        let magnitude = zip(fields[1...], units).reduce(0) { total, pair in total + (pair.0.flatMap { Int($0) } ?? 0) * pair.1 }
        guard magnitude > 0 else { throw DateArgumentError("a shift of zero changes nothing: '\(text)'") }
        guard magnitude <= longestShift else { throw DateArgumentError("a shift of more than a century is not a clock error: '\(text)'") }
        return .shift(seconds: fields[0] == "-" ? -magnitude : magnitude)
    }

    /// `+1h30m`, `-2d`, `+45s`.
    static func shiftText(_ seconds: Int) -> String {
        var rest = abs(seconds), text = seconds < 0 ? "-" : "+"
        for (unit, size) in [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        return text
    }

    /// The capture groups of `pattern`'s match of the whole of `text` (nil for a group that did not take part).
    private static func captures(_ pattern: String, in text: String) -> [String?]? {
        let expression = try! NSRegularExpression(pattern: pattern)
        guard let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        return (1..<match.numberOfRanges).map { Range(match.range(at: $0), in: text).map { String(text[$0]) } }
    }
}

/// A date or shift on the command line that cannot be one; the command exits 2.
public struct DateArgumentError: RefusalError, CustomStringConvertible {
    /// What is wrong, with the text given.
    public var message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

extension LocalDateTime {
    /// This wall-clock time moved by `seconds` on the calendar (no time zone: no daylight-saving
    /// jumps); the fraction of a second is kept. Nil outside the years 1 to 9999.
    public func adding(seconds: Int) -> LocalDateTime? {
        let utc = TimeZone(identifier: "UTC")!
        guard let whole = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second),
              let moved = LocalDateTime(whole.instant(utcOffsetSeconds: 0).addingTimeInterval(TimeInterval(seconds)), in: utc) else {
            return nil
        }
        return LocalDateTime(year: moved.year, month: moved.month, day: moved.day, hour: moved.hour, minute: moved.minute,
                             second: moved.second, nanosecond: nanosecond)
    }
}
