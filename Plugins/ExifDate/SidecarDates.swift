import DarkroomCore
import DarkroomSidecars
import Foundation
import DarkroomModel

/// The dates sidecars give, and how they weigh against the file's own.
///
/// - An XMP sidecar's dates (`exif:DateTimeOriginal`, `xmp:CreateDate`, `photoshop:DateCreated`,
///   with their offsets) come before everything else: the sidecar is the user's latest word.
/// - Google Takeout's `photoTakenTime` is a UTC instant with no local time. When it and the date
///   the file's own metadata gives disagree by more than a time zone's worth (over 14 hours), the
///   JSON wins: a date the user corrected in Google Photos lives only there. When they agree, the
///   file's wall-clock time (with its offset) is kept, since the JSON has none. Either way the
///   date's notes say which source decided and that the other disagreed or agreed. With no date of
///   its own, a Takeout file takes the JSON's, never its modification time (the export day).
extension CaptureDateResolver {
    /// How far apart (in seconds) Takeout's instant and the file's date may be and still agree:
    /// the widest gap a UTC offset makes (UTC-12 to UTC+14).
    public static let takeoutAgreement: TimeInterval = 14 * 3600

    /// The XMP sidecar's dates, most trusted first.
    func sidecarCandidates(_ evidence: CaptureDateEvidence) -> [Candidate] {
        guard let sidecar = evidence.xmpSidecar else { return [] }
        return timedFirst(sidecar.content.dates.map { xmpDate($0.text, field: "\(sidecar.name) \($0.property)", source: .xmpSidecar, evidence) })
    }

    /// Adds Takeout's date to `considered` and returns the index of the winner after weighing it
    /// against the current `winner` (nil: no source decided yet).
    func arbitrateTakeout(_ takeout: NamedSidecar<TakeoutMetadata>, _ evidence: CaptureDateEvidence,
                          considered: inout [ConsideredDate], winner: Int?) -> Int? {
        let field = "\(takeout.name) photoTakenTime"
        guard let instant = takeout.content.photoTakenTime else {
            let reason = takeout.content.ignored.first { $0.contains("photoTakenTime") } ?? "no photoTakenTime"
            considered.append(ConsideredDate(source: .takeout, field: field, value: "-", date: nil, outcome: .unusable(reason)))
            return winner
        }
        let value = "\(Int64(instant.timeIntervalSince1970)) (\(Self.iso(instant)))"
        var date: CaptureDate
        switch placed(instant: instant, source: .takeout, confidence: .medium, evidence).flatMap(checkedPlausible) {
        case .success(let placed): date = placed
        case .failure(let reason):
            considered.append(ConsideredDate(source: .takeout, field: field, value: value, date: nil, outcome: .rejected(reason)))
            return winner
        }
        let index = considered.count
        guard let winner else {
            considered.append(ConsideredDate(source: .takeout, field: field, value: value, date: date, outcome: .chosen))
            return index
        }
        let own = considered[winner]
        guard var ownDate = own.date, own.source != .xmpSidecar else {
            considered.append(ConsideredDate(source: .takeout, field: field, value: value, date: date,
                                             outcome: .overridden("by the XMP sidecar, the user's latest word")))
            return winner
        }
        let gap = ownDate.sortingInstant.timeIntervalSince(instant)
        if abs(gap) > Self.takeoutAgreement {
            let note = "\(own.field) \(ownDate.local)\(CaptureDate.offsetText(ownDate.utcOffsetSeconds)) disagrees with Google Takeout's date "
                + "by \(Self.describe(abs(gap))): the JSON decided (a date corrected in Google Photos lives only there)"
            date.notes = [note] + (date.notes ?? [])
            considered[winner].outcome = .overridden("by Google Takeout's date, \(Self.describe(abs(gap))) away: a date corrected in Google Photos lives only in the JSON")
            considered.append(ConsideredDate(source: .takeout, field: field, value: value, date: date, outcome: .chosen))
            return index
        }
        let note = "Google Takeout's date \(Self.iso(instant)) agrees (within 14 h): the file's wall-clock time and offset are kept"
        ownDate.notes = (ownDate.notes ?? []) + [note]
        considered[winner].date = ownDate
        considered.append(ConsideredDate(source: .takeout, field: field, value: value, date: date,
                                         outcome: .agreed("within 14 h of \(own.field); the file's wall-clock time is kept")))
        return winner
    }

    /// `3 days 2 h`, `15 h`, `40 min`.
    static func describe(_ seconds: TimeInterval) -> String {
        let minutes = Int(seconds / 60)
        let (days, hours) = (minutes / 1440, minutes % 1440 / 60)
        if days > 0 { return "\(days) day\(days == 1 ? "" : "s")" + (hours > 0 ? " \(hours) h" : "") }
        return hours > 0 ? "\(hours) h" : "\(minutes) min"
    }
}
