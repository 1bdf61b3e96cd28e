import DarkroomCore
import DarkroomModel

/// The outcome of resolving: the date chosen (if any), what was set aside on the way, and every
/// candidate the evidence held with what became of it.
public struct CaptureDateDecision: Sendable {
    /// The capture date, or nil when no source gave a plausible one.
    public var date: CaptureDate?
    /// Evidence looked at and refused before the date was found, in the order it was considered.
    public var rejected: [RejectedDate]
    /// Every candidate, in the order the resolver trusts them, each with its outcome: what
    /// `darkroom explain` lists.
    public var considered: [ConsideredDate] = []
}

/// One date candidate the resolver looked at: where it came from, its raw value, what it means as
/// a date, and what became of it.
public struct ConsideredDate: Sendable, Encodable {
    /// What became of a candidate.
    public enum Outcome: Sendable, Equatable, Encodable, CustomStringConvertible {
        /// It decided the date.
        case chosen
        /// Its value is not a plausible date.
        case rejected(DateRejection)
        /// A sidecar or file problem made it unusable (`photoTakenTime.timestamp is 0, which Takeout writes for no date`).
        case unusable(String)
        /// Plausible, but a more trusted source overrode it (`by the XMP sidecar, the user's latest word`).
        case overridden(String)
        /// Plausible and in agreement with the date chosen from another source.
        case agreed(String)
        /// Plausible, but a more trusted source had already decided.
        case unused

        /// `rejected: all zeros (clock never set)`.
        public var description: String {
            switch self {
            case .chosen: return "chosen"
            case .rejected(let reason): return "rejected: \(reason)"
            case .unusable(let reason): return "unusable: \(reason)"
            case .overridden(let reason): return "overridden \(reason)"
            case .agreed(let reason): return "agrees: \(reason)"
            case .unused: return "not needed: a more trusted source decided"
            }
        }

        /// `{"outcome": "rejected", "reason": "all zeros (clock never set)"}`.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            let (name, reason): (String, String?) = {
                switch self {
                case .chosen: return ("chosen", nil)
                case .rejected(let why): return ("rejected", why.description)
                case .unusable(let why): return ("unusable", why)
                case .overridden(let why): return ("overridden", why)
                case .agreed(let why): return ("agreed", why)
                case .unused: return ("unused", "a more trusted source decided")
                }
            }()
            try container.encode(name, forKey: .outcome)
            try container.encodeIfPresent(reason, forKey: .reason)
        }

        private enum Key: String, CodingKey { case outcome, reason }
    }

    /// Where the value came from.
    public var source: CaptureDate.Source
    /// The field or pattern (`DateTimeOriginal`, `IMG_1.jpg.xmp photoshop:DateCreated`, `file name`).
    public var field: String
    /// The value as found.
    public var value: String
    /// The date it gives, when it gives one (also for candidates not chosen).
    public var date: CaptureDate?
    /// What became of it: chosen, rejected, overridden...
    public var outcome: Outcome

    /// `DateTimeOriginal '2024:01:31 12:34:56' -> 2024-01-31T12:34:56 (chosen)`.
    public var summary: String {
        "\(field) '\(value)'" + (date.map { " -> \($0.local)\(CaptureDate.offsetText($0.utcOffsetSeconds))" } ?? "") + ": \(outcome)"
    }
}
