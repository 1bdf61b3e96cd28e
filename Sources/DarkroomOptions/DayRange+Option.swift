import DarkroomModel
import Foundation

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
