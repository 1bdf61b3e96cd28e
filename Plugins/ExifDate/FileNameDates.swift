import DarkroomCore
import Foundation
import DarkroomModel

/// Capture dates written into file names by phones, cameras and messengers.
///
/// | Pattern | Example | Gives |
/// |---|---|---|
/// | Android, Pixel, screenshots | `IMG_20240101_123456`, `IMG_20240101_123456_1`, `VID_20240101_123456`, `PXL_20240101_123456789`, `Screenshot_20240101-123456` | date and time (Pixel: with milliseconds) |
/// | Dropbox, camera uploads | `2024-01-01 12.34.56`, `2024-01-01_12-34-56` | date and time |
/// | WhatsApp | `IMG-20240101-WA0001` | the day only, filed at 12:00 (see `DateOnlyPolicy`) |
enum FileNameDates {
    /// A date read from a file name.
    struct Match: Equatable {
        var local: LocalDateTime
        /// False for date-only patterns.
        var hasTime: Bool
        /// The matched text, for logs.
        var text: String
    }

    private struct Pattern {
        let regex: NSRegularExpression
        let hasTime: Bool

        init(_ pattern: String, hasTime: Bool) {
            // The patterns are constants: a failure here is a programming error caught by the tests.
            regex = try! NSRegularExpression(pattern: pattern)
            self.hasTime = hasTime
        }
    }

    /// Groups: year, month, day, then (when `hasTime`) hour, minute, second and optional milliseconds.
    private static let patterns: [Pattern] = [
        Pattern(#"(?<!\d)(\d{4})(\d{2})(\d{2})[_-](\d{2})(\d{2})(\d{2})(\d{3})?(?!\d)"#, hasTime: true),
        Pattern(#"(?<!\d)(\d{4})-(\d{2})-(\d{2})[ _T-](\d{2})[.:-](\d{2})[.:-](\d{2})(?!\d)"#, hasTime: true),
        Pattern(#"(?:IMG|VID|AUD|PTT|STK)-(\d{4})(\d{2})(\d{2})-WA\d+"#, hasTime: false),
    ]

    /// Every date-like match in `fileName`, by pattern order; callers check range and plausibility.
    /// A match that is not a real calendar date or time is reported as `.failure` with its text.
    static func matches(in fileName: String) -> [(text: String, result: Result<Match, DateRejection>)] {
        let name = fileName as NSString
        let range = NSRange(location: 0, length: name.length)
        return patterns.compactMap { pattern in
            guard let match = pattern.regex.firstMatch(in: fileName, range: range) else { return nil }
            let text = name.substring(with: match.range)
            let numbers = (1..<match.numberOfRanges).map { index -> Int? in
                let group = match.range(at: index)
                return group.location == NSNotFound ? nil : Int(name.substring(with: group))
            }
            let field = { (index: Int) -> Int in numbers.indices.contains(index) ? numbers[index] ?? 0 : 0 }
            let local = pattern.hasTime
                ? LocalDateTime(year: field(0), month: field(1), day: field(2), hour: field(3), minute: field(4),
                                second: field(5), nanosecond: field(6) * 1_000_000)
                : LocalDateTime(year: field(0), month: field(1), day: field(2), hour: DateOnlyPolicy.hour)
            guard let local else { return (text, .failure(.invalidCalendar)) }
            return (text, .success(Match(local: local, hasTime: pattern.hasTime, text: text)))
        }
    }
}
