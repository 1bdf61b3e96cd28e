import DarkroomCore
import Foundation
import DarkroomModel

extension DateExplanation {
    /// The explanation as lines for a terminal, indented under the file:
    ///
    ///     sidecars:   IMG_1.jpg.json: Google Takeout JSON, named after IMG_1.jpg
    ///     position:   35.68950, 139.69170 (EXIF GPS): time zone Asia/Tokyo
    ///     candidates, most trusted first:
    ///       rejected    exif:DateTimeOriginal  DateTimeOriginal '0000:00:00 00:00:00': all zeros (clock never set)
    ///       chosen      takeout:photoTakenTime IMG_1.jpg.json photoTakenTime '1551434400 (2019-03-01T10:00:00Z)' -> 2019-03-01T19:00:00+09:00
    ///     chosen:     2019-03-01T19:00:00+09:00 from takeout:photoTakenTime; time zone: gps; confidence: medium
    public var lines: [String] {
        var lines: [String] = []
        for sidecar in sidecars {
            lines.append("  sidecar:    \((sidecar.path as NSString).lastPathComponent) (\(sidecar.reason))")
        }
        if let location {
            var line = String(format: "  position:   %.5f, %.5f", location.latitude, location.longitude)
            if let locationSource { line += " (\(locationSource))" }
            line += zoneAtLocation.map { ": time zone \($0)" } ?? ": no time zone known there"
            lines.append(line)
        }
        if let camera { lines.append("  camera:     \(camera)") }
        if let burst { lines.append("  burst:      \(burst.source.rawValue) \(burst.identifier)" + (burst.isPrimary ? " (the burst's primary)" : "")) }
        lines.append(candidates.isEmpty ? "  candidates: none: nothing in the file or beside it gives a date" : "  candidates, most trusted first:")
        for candidate in candidates {
            let outcome = Self.outcomeWord(candidate.outcome).padding(toLength: 11, withPad: " ", startingAt: 0)
            var line = "    \(outcome) \(candidate.source.rawValue.padding(toLength: 24, withPad: " ", startingAt: 0)) \(candidate.field) '\(candidate.value)'"
            if let date = candidate.date { line += " -> \(date.local)\(CaptureDate.offsetText(date.utcOffsetSeconds))" }
            if let reason = Self.outcomeReason(candidate.outcome) { line += ": \(reason)" }
            lines.append(line)
        }
        if let chosen {
            lines.append("  chosen:     \(chosen.local)\(CaptureDate.offsetText(chosen.utcOffsetSeconds)) from \(chosen.source.rawValue); "
                         + "time zone: \(chosen.timeZoneSource.rawValue); confidence: \(chosen.confidence.rawValue)")
            lines += (chosen.notes ?? []).map { "  note:       \($0)" }
        } else {
            lines.append("  chosen:     nothing: no source gives a plausible date")
        }
        lines += problems.map { "  problem:    \($0)" }
        return lines
    }

    /// `chosen`, `rejected`, `overridden`...
    static func outcomeWord(_ outcome: ConsideredDate.Outcome) -> String {
        switch outcome {
        case .chosen: return "chosen"
        case .rejected: return "rejected"
        case .unusable: return "unusable"
        case .overridden: return "overridden"
        case .agreed: return "agrees"
        case .unused: return "not needed"
        }
    }

    /// Why, for every outcome but `chosen`.
    static func outcomeReason(_ outcome: ConsideredDate.Outcome) -> String? {
        switch outcome {
        case .chosen: return nil
        case .rejected(let reason): return reason.description
        case .unusable(let reason), .overridden(let reason), .agreed(let reason): return reason
        case .unused: return "a more trusted source decided"
        }
    }
}
