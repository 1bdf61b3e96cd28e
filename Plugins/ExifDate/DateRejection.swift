import DarkroomCore
import DarkroomModel

/// Why a piece of date evidence was not used (the resolver then tries the next source).
public enum DateRejection: Error, Equatable, Sendable, CustomStringConvertible {
    /// Empty or only spaces and NULs.
    case blank
    /// All zeros (`0000:00:00 00:00:00`): the camera's clock was never set.
    case zero
    /// Not a date in any form Darkroom reads.
    case malformed
    /// Well-formed but not a real day or time (`2023:02:30`, `25:00`).
    case invalidCalendar
    /// Earlier than `CaptureDateResolver.earliestYear`.
    case tooOld
    /// More than a day after the time of the run.
    case inFuture
    /// 1904-01-01T00:00:00Z: a QuickTime timestamp of zero (the camera's clock was never set).
    case quickTimeEpoch
    /// 1970-01-01T00:00:00Z: a Unix timestamp of zero.
    case unixEpoch

    public var description: String {
        switch self {
        case .blank: return "blank"
        case .zero: return "all zeros (clock never set)"
        case .malformed: return "not a date"
        case .invalidCalendar: return "not a real calendar date or time"
        case .tooOld: return "before \(CaptureDateResolver.earliestYear)"
        case .inFuture: return "more than a day in the future"
        case .quickTimeEpoch: return "the QuickTime epoch (a zero timestamp, clock never set)"
        case .unixEpoch: return "the Unix epoch (a zero timestamp, clock never set)"
        }
    }
}

/// One piece of evidence the resolver looked at and set aside, for logs and error messages.
public struct RejectedDate: Equatable, Sendable, CustomStringConvertible {
    /// Where the value came from.
    public var source: CaptureDate.Source
    /// The field or pattern (`DateTimeOriginal`, `photoshop:DateCreated`, `GPSDateStamp`).
    public var field: String
    /// The value as found.
    public var value: String
    public var reason: DateRejection

    public init(source: CaptureDate.Source, field: String, value: String, reason: DateRejection) {
        self.source = source
        self.field = field
        self.value = value
        self.reason = reason
    }

    /// `DateTimeOriginal '0000:00:00 00:00:00': all zeros (clock never set)`.
    public var description: String { "\(field) '\(value)': \(reason)" }
}
