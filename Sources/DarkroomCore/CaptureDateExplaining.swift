import DarkroomModel
import Foundation

/// A step that decides capture dates and can say why (`exif-date`): `darkroom explain` asks it for the
/// very decision the step makes during a run, without recording anything.
public protocol CaptureDateExplaining: Sendable {
    /// Every candidate for `item`'s capture date and what became of it. Throws only when the file
    /// itself cannot be read.
    func explainCaptureDate(of item: Item, settings: RunSettings) throws -> any CaptureDateExplanation

    /// For a file the step fails on (a RAW whose sensor data is cut short): the date its own metadata
    /// records, decided as for any photo, or nil when there is none to read.
    func explainRecordedCaptureDate(ofFailing item: Item, settings: RunSettings) -> (any CaptureDateExplanation)?
}

/// A capture-date decision, for a person (`lines`) and for a script (its JSON encoding).
public protocol CaptureDateExplanation: Encodable, Sendable {
    /// The date chosen, or nil when no source gave one.
    var chosen: CaptureDate? { get }
    /// The decision as lines for a terminal, indented under the file's path.
    var lines: [String] { get }
}
