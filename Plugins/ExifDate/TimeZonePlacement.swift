import DarkroomCore
import Foundation
import DarkroomModel

/// Where a time without a zone is placed, in this order, each recorded as the date's
/// `timeZoneSource`:
///
/// 1. the file's own offset tags (OffsetTimeOriginal, OffsetTimeDigitized): `metadata`;
/// 2. the IANA zone at the photo's GPS position, with the offset in force at that moment from the
///    system's tzdata: `gps`;
/// 3. the run's `--time-zone`: `configured`;
/// 4. this machine's zone: `machine`, and the date is low confidence.
///
/// An instant (GPS time, a video's `creation_time`, Takeout's timestamp, a file time) always needs
/// a zone to become a wall-clock time, so it goes down the whole list. A wall-clock time without
/// an offset (a camera without offset tags) already decides its folder: it takes the offset of the
/// first three when one is known, and otherwise keeps an unknown offset rather than a guessed one.
/// (A paired file's zone, a RAW's JPEG, would come between 2 and 3: RAW files are not read yet.)
extension CaptureDateResolver {
    /// A date from a UTC instant, shown in the first zone the order above gives.
    func placed(instant: Date, source: CaptureDate.Source, confidence: CaptureDate.Confidence,
                _ evidence: CaptureDateEvidence) -> Result<CaptureDate, DateRejection> {
        let (offset, zoneSource) = offset(at: instant, evidence)
        guard let zone = TimeZone(secondsFromGMT: offset), let local = LocalDateTime(instant, in: zone) else {
            return .failure(.invalidCalendar)
        }
        return .success(CaptureDate(local: local, utcOffsetSeconds: offset, source: source, timeZoneSource: zoneSource,
                                    confidence: zoneSource == .machine ? .low : confidence,
                                    notes: zoneNote(zoneSource, evidence)))
    }

    /// A date from a wall-clock time and its own offset, if it has one; without one, the offset of
    /// the file's offset tags, its GPS zone or the chosen `--time-zone`, else none.
    func placed(local: LocalDateTime, offset: Int?, source: CaptureDate.Source, confidence: CaptureDate.Confidence,
                dateOnly: Bool = false, _ evidence: CaptureDateEvidence) -> CaptureDate {
        var utcOffset = offset
        var zoneSource: CaptureDate.TimeZoneSource = offset == nil ? .unknown : .metadata
        if offset == nil {
            if let own = evidence.ownOffsetSeconds {
                (utcOffset, zoneSource) = (own, .metadata)
            } else if let zone = evidence.locationZone {
                (utcOffset, zoneSource) = (Self.offset(of: local, in: zone), .gps)
            } else if timeZoneIsChosen {
                (utcOffset, zoneSource) = (Self.offset(of: local, in: timeZone), .configured)
            }
        }
        return CaptureDate(local: local, utcOffsetSeconds: utcOffset, source: source, timeZoneSource: zoneSource,
                           confidence: confidence, notes: zoneNote(zoneSource, evidence), dateOnly: dateOnly ? true : nil)
    }

    /// The offset for an instant, and where it came from.
    private func offset(at instant: Date, _ evidence: CaptureDateEvidence) -> (Int, CaptureDate.TimeZoneSource) {
        if let own = evidence.ownOffsetSeconds { return (own, .metadata) }
        if let zone = evidence.locationZone { return (zone.secondsFromGMT(for: instant), .gps) }
        return (timeZone.secondsFromGMT(for: instant), timeZoneIsChosen ? .configured : .machine)
    }

    /// The UTC offset in force in `zone` when its clocks showed `local` (in a repeated hour, the
    /// first; in a skipped one, the offset after the change, as Foundation resolves it).
    static func offset(of local: LocalDateTime, in zone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: local.year, month: local.month, day: local.day,
                                        hour: local.hour, minute: local.minute, second: local.second)
        return zone.secondsFromGMT(for: calendar.date(from: components) ?? local.instant(utcOffsetSeconds: 0))
    }

    /// The provenance of a zone found by position or guessed from the machine, for the date's notes.
    private func zoneNote(_ source: CaptureDate.TimeZoneSource, _ evidence: CaptureDateEvidence) -> [String]? {
        switch source {
        case .gps:
            guard let zone = evidence.locationZone, let location = evidence.location else { return nil }
            return [String(format: "time zone %@ from the GPS position %.5f, %.5f", zone.identifier, location.latitude, location.longitude)]
        case .machine:
            return ["time zone \(timeZone.identifier), this machine's: nothing in the file says, and no --time-zone was given"]
        default:
            return nil
        }
    }
}
