import DarkroomModel
import Foundation

/// Which photos and videos of a library to export: every criterion given must hold (AND); none
/// given selects everything.
public struct ExportSelection: Sendable, Hashable {
    /// Capture days, inclusive (`--month`, `--from`, `--until`), by the local time the photo was taken.
    public var days: DayRange?
    /// At least this rating (XMP `xmp:Rating`, 1 to 5).
    public var minimumRating: Int?
    /// Keywords the photo must all have (XMP `dc:subject`), ignoring case.
    public var keywords: [String]
    /// The camera, `Make Model` as the catalog records it, ignoring case.
    public var camera: String?
    /// Photos named one by one: content ids, content hashes, original paths, library files.
    public var targets: [String]

    /// Everything that matches all the criteria given.
    public init(days: DayRange? = nil, minimumRating: Int? = nil, keywords: [String] = [], camera: String? = nil, targets: [String] = []) {
        self.days = days
        self.minimumRating = minimumRating
        self.keywords = keywords
        self.camera = camera
        self.targets = targets
    }

    /// Whether the selection needs each photo's rating and keywords (read from its XMP).
    var needsDescription: Bool { minimumRating != nil || !keywords.isEmpty }

    /// Whether a photo with this description passes the rating and keyword criteria.
    func accepts(_ description: PhotoDescription) -> Bool {
        if let minimumRating, (description.rating ?? 0) < minimumRating { return false }
        let have = Set(description.keywords.map { $0.lowercased() })
        return keywords.allSatisfy { have.contains($0.lowercased()) }
    }

    /// Whether a capture date passes the day criteria (an undated photo passes only when there are none).
    func accepts(_ date: CaptureDate?) -> Bool {
        guard let days else { return true }
        guard let date else { return false }
        return days.contains(date.local)
    }

    // MARK: Parsing the command line's words

    /// The days of `2024-05`: its first to its last.
    public static func month(_ text: String) throws -> DayRange {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let month = Int(parts[1]),
              let first = LocalDateTime(year: year, month: month, day: 1) else {
            throw SelectionError("'\(text)' is not a month: write it YYYY-MM, e.g. 2024-05")
        }
        let last = (28...31).reversed().lazy.compactMap { LocalDateTime(year: year, month: month, day: $0) }.first!
        return DayRange(from: first, to: last)
    }

    /// A day written `YYYY-MM-DD`.
    public static func day(_ text: String) throws -> LocalDateTime {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else {
            throw SelectionError("'\(text)' is not a day: write it YYYY-MM-DD, e.g. 2024-05-01")
        }
        guard let date = LocalDateTime(year: year, month: month, day: day) else {
            throw SelectionError("'\(text)' is not a real day")
        }
        return date
    }

    /// The days both ranges allow (`--month` with `--from`/`--until`), nil when either is absent.
    public static func intersection(_ a: DayRange?, _ b: DayRange?) -> DayRange? {
        guard let a else { return b }
        guard let b else { return a }
        let from = [a.from, b.from].compactMap { $0 }.max()
        let to = [a.to, b.to].compactMap { $0 }.min()
        return DayRange(from: from, to: to)
    }
}

/// A selection the command line cannot mean (a month that is not one): an argument mistake.
public struct SelectionError: Error, CustomStringConvertible, RefusalError {
    public var description: String
    init(_ description: String) { self.description = description }
}
