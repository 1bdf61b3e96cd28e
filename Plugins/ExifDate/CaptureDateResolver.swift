import DarkroomCore
import DarkroomExif
import Foundation
import DarkroomModel

/// Decides a photo's capture date from its evidence: a pure function of the evidence, the
/// configured order of sources, the run's time zone and the current time.
///
/// Sources are tried in order; the first one that yields a plausible date wins:
///
///     xmp sidecar ─▶ exif-original ─▶ exif-digitized ─▶ gps ─▶ xmp ─▶ filename ─▶ Takeout ─▶ (file time)
///      medium        high             high              medium  medium  medium     medium      low
///                                                               low if  low if
///                                                               date    date
///                                                               only    only
///
/// An XMP sidecar comes first: it is the user's latest word. Google Takeout's `photoTakenTime` is
/// weighed against the file's own date (see `arbitrateTakeout`): it wins when they disagree by
/// more than a time zone's worth, since a date corrected in Google Photos lives only there.
///
/// A video has no EXIF or XMP: its QuickTime dates come first (see `videoCandidates`), then the
/// file name when `sources` lists it, then Takeout, then the file time.
///
/// A value that is blank, all zeros, malformed, not a real calendar date, before 1900 or more than
/// a day in the future is recorded in `rejected` and the next source is tried. Every candidate is
/// listed in `considered` with its outcome, for `darkroom explain`.
///
/// Times that need a zone (an instant, or a wall-clock time without an offset) take it in this
/// order (see `TimeZonePlacement`): the file's own offset tags; the zone at its GPS position;
/// the run's `--time-zone`; this machine's zone (low confidence).
public struct CaptureDateResolver: Sendable {
    /// The earliest year accepted from any source.
    public static let earliestYear = 1900
    /// How far past `now` a date may lie (camera clocks drift, time zones differ).
    public static let futureTolerance: TimeInterval = 24 * 60 * 60

    /// The sources looked at, most trusted first (`exif-date`'s `sources`).
    public var sources: [ExifDateOptions.Source]
    /// Whether the file's modification time dates a file no source dates.
    public var fallbackToFileTime: Bool
    /// How a video's `creation_time` is read.
    public var videoCreationTime: VideoCreationTime
    /// The run's zone: for instants (GPS time, `creation_time`, Takeout, file times) when the file
    /// says nothing better, and for judging "in the future" when no offset is known.
    public var timeZone: TimeZone
    /// Whether `timeZone` was chosen (`--time-zone`) rather than this machine's: a chosen zone also
    /// gives wall-clock times without an offset their offset; the machine's makes dates low confidence.
    public var timeZoneIsChosen: Bool
    /// The time of the run.
    public var now: Date

    /// A resolver with `exif-date`'s defaults unless told otherwise.
    public init(sources: [ExifDateOptions.Source] = ExifDateOptions.Source.allCases, fallbackToFileTime: Bool = true,
                videoCreationTime: VideoCreationTime = .utc, timeZone: TimeZone, timeZoneIsChosen: Bool = true, now: Date = Date()) {
        self.sources = sources
        self.fallbackToFileTime = fallbackToFileTime
        self.videoCreationTime = videoCreationTime
        self.timeZone = timeZone
        self.timeZoneIsChosen = timeZoneIsChosen
        self.now = now
    }

    /// Chooses the capture date, listing every candidate with what became of it.
    public func resolve(_ evidence: CaptureDateEvidence) -> CaptureDateDecision {
        var considered: [ConsideredDate] = []
        var rejected: [RejectedDate] = []
        var winner: Int?
        for candidate in orderedCandidates(evidence) {
            let checked = candidate.result.flatMap(checkedPlausible)
            var entry = ConsideredDate(source: candidate.source, field: candidate.field, value: candidate.value,
                                       date: try? checked.get(), outcome: .chosen)
            switch checked {
            case .success:
                if let winner {
                    entry.outcome = considered[winner].source == .xmpSidecar && candidate.source != .xmpSidecar
                        ? .overridden("by the XMP sidecar, the user's latest word") : .unused
                } else {
                    winner = considered.count
                }
            case .failure(let reason):
                entry.outcome = .rejected(reason)
                if let parsed = try? candidate.result.get() { entry.date = parsed }
                if winner == nil { rejected.append(RejectedDate(source: candidate.source, field: candidate.field, value: candidate.value, reason: reason)) }
            }
            considered.append(entry)
        }
        if let takeout = evidence.takeout {
            winner = arbitrateTakeout(takeout, evidence, considered: &considered, winner: winner)
        }
        if let modified = evidence.modificationDate {
            let candidate = fileTime(modified, evidence)
            var entry = ConsideredDate(source: .fileModified, field: candidate.field, value: candidate.value,
                                       date: try? candidate.result.get(), outcome: .unused)
            if winner == nil {
                switch candidate.result.flatMap(checkedPlausible) {
                case .success where fallbackToFileTime:
                    entry.outcome = .chosen
                    winner = considered.count
                case .success:
                    entry.outcome = .unusable("fallback-to-file-time is off")
                case .failure(let reason):
                    entry.outcome = .rejected(reason)
                    if fallbackToFileTime {
                        rejected.append(RejectedDate(source: .fileModified, field: candidate.field, value: candidate.value, reason: reason))
                    }
                }
            }
            considered.append(entry)
        }
        return CaptureDateDecision(date: winner.flatMap { considered[$0].date }, rejected: rejected, considered: considered)
    }

    /// One value from one source, already interpreted (or refused).
    struct Candidate {
        var source: CaptureDate.Source
        var field: String
        var value: String
        var result: Result<CaptureDate, DateRejection>
    }

    /// Every candidate, most trusted first: an XMP sidecar's; then a photo's from `sources`, or a
    /// video's QuickTime dates and its file name (when `sources` lists it).
    func orderedCandidates(_ evidence: CaptureDateEvidence) -> [Candidate] {
        let sidecar = sidecarCandidates(evidence)
        guard let video = evidence.video else { return sidecar + sources.flatMap { candidates(from: $0, evidence) } }
        return sidecar + videoCandidates(video, evidence) + (sources.contains(.filename) ? candidates(from: .filename, evidence) : [])
    }

    func candidates(from source: ExifDateOptions.Source, _ evidence: CaptureDateEvidence) -> [Candidate] {
        switch source {
        case .exifOriginal:
            guard let tags = evidence.exif else { return [] }
            return exifDate(tags.dateTimeOriginal, field: "DateTimeOriginal", subSecond: tags.subSecTimeOriginal,
                            offset: tags.offsetTimeOriginal, source: .exifOriginal, evidence)
        case .exifDigitized:
            guard let tags = evidence.exif else { return [] }
            return exifDate(tags.dateTimeDigitized, field: "DateTimeDigitized", subSecond: tags.subSecTimeDigitized,
                            offset: tags.offsetTimeDigitized, source: .exifDigitized, evidence)
        case .gps:
            guard let tags = evidence.exif else { return [] }
            return gpsDate(tags, evidence)
        case .xmp:
            guard let xmp = evidence.xmp else { return [] }
            return timedFirst(XMPDates.values(in: xmp).map { xmpDate($0.value, field: $0.property, source: .xmp, evidence) })
        case .filename:
            let name = (evidence.fileName as NSString).lastPathComponent
            return FileNameDates.matches(in: name).map { match in
                Candidate(source: .filename, field: "file name", value: match.text, result: match.result.map {
                    placed(local: $0.local, offset: nil, source: .filename, confidence: $0.hasTime ? .medium : .low,
                           dateOnly: !$0.hasTime, evidence)
                })
            }
        }
    }

    /// DateTimeOriginal or DateTimeDigitized, refined by its SubSecTime and OffsetTime fields.
    /// An unreadable offset is ignored (the wall-clock time still stands); so is unreadable SubSecTime.
    private func exifDate(_ text: String?, field: String, subSecond: String?, offset: String?,
                          source: CaptureDate.Source, _ evidence: CaptureDateEvidence) -> [Candidate] {
        guard let text else { return [] }
        let result = DateTimeText.parse(text).map { parsed -> CaptureDate in
            var local = parsed.local
            if let subSecond, let nanosecond = DateTimeText.nanoseconds(fromSubSecond: subSecond),
               let refined = LocalDateTime(year: local.year, month: local.month, day: local.day, hour: local.hour,
                                           minute: local.minute, second: local.second, nanosecond: nanosecond) {
                local = refined
            }
            let utcOffset = offset.flatMap(DateTimeText.utcOffsetSeconds) ?? parsed.utcOffsetSeconds
            return placed(local: local, offset: utcOffset, source: source, confidence: .high, evidence)
        }
        return [Candidate(source: source, field: field, value: text, result: result)]
    }

    /// GPSDateStamp + GPSTimeStamp: a UTC instant, made local in the zone `TimeZonePlacement` finds.
    private func gpsDate(_ tags: ExifTags, _ evidence: CaptureDateEvidence) -> [Candidate] {
        guard let dateText = tags.gpsDateStamp else { return [] }
        let field = "GPSDateStamp+GPSTimeStamp"
        guard let time = tags.gpsTimeStamp else {
            return [Candidate(source: .gps, field: field, value: dateText, result: .failure(.malformed))]
        }
        let value = "\(dateText) " + [time.hour, time.minute, time.second].map { $0.isFinite && abs($0) < 1e6 ? String(format: "%02g", $0) : "\($0)" }
            .joined(separator: ":")
        let result = DateTimeText.parse(dateText, allowDateOnly: true).flatMap { parsed -> Result<CaptureDate, DateRejection> in
            guard !parsed.hasTime, let utc = Self.utcDateTime(day: parsed.local, time: time) else {
                return .failure(parsed.hasTime ? .malformed : .invalidCalendar)
            }
            return placed(instant: utc.instant(utcOffsetSeconds: 0), source: .gps, confidence: .medium, evidence)
        }
        return [Candidate(source: .gps, field: field, value: value, result: result)]
    }

    private static func utcDateTime(day: LocalDateTime, time: ExifTags.GPSTime) -> LocalDateTime? {
        let (hour, minute, second) = (time.hour, time.minute, time.second)
        guard [hour, minute, second].allSatisfy(\.isFinite), hour == hour.rounded(), minute == minute.rounded(),
              (0..<24).contains(hour), (0..<60).contains(minute), (0..<61).contains(second) else { return nil }
        let whole = second.rounded(.down)
        return LocalDateTime(year: day.year, month: day.month, day: day.day, hour: Int(hour), minute: Int(minute),
                             second: Int(whole), nanosecond: min(Int((second - whole) * 1e9), 999_999_999))
    }

    /// An XMP date (embedded or a sidecar's): ISO 8601 with optional fraction and offset; a date
    /// alone is low confidence.
    func xmpDate(_ text: String, field: String, source: CaptureDate.Source, _ evidence: CaptureDateEvidence) -> Candidate {
        let result = DateTimeText.parse(text, allowDateOnly: true).map { parsed in
            placed(local: parsed.local, offset: parsed.utcOffsetSeconds, source: source,
                   confidence: parsed.hasTime ? .medium : .low, dateOnly: !parsed.hasTime, evidence)
        }
        return Candidate(source: source, field: field, value: text, result: result)
    }

    /// One packet's candidates with the dates that have a time before the days alone (keeping their
    /// order otherwise): Lightroom and others write a day-only `photoshop:DateCreated` beside the
    /// camera's full `exif:DateTimeOriginal`, and the day alone must not win over the time.
    func timedFirst(_ candidates: [Candidate]) -> [Candidate] {
        let isDayAlone = { (candidate: Candidate) in (try? candidate.result.get())?.dateOnly == true }
        return candidates.filter { !isDayAlone($0) } + candidates.filter(isDayAlone)
    }

    /// The file's modification time, made local in the zone `TimeZonePlacement` finds.
    private func fileTime(_ modified: Date, _ evidence: CaptureDateEvidence) -> Candidate {
        Candidate(source: .fileModified, field: "modification time", value: Self.iso(modified),
                  result: placed(instant: modified, source: .fileModified, confidence: .low, evidence))
    }

    /// `2024-01-31T12:34:56Z`.
    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    /// Refuses dates before `earliestYear` or more than `futureTolerance` after `now`.
    func checkedPlausible(_ date: CaptureDate) -> Result<CaptureDate, DateRejection> {
        guard date.local.year >= Self.earliestYear else { return .failure(.tooOld) }
        let offset = date.utcOffsetSeconds ?? timeZone.secondsFromGMT(for: now)
        guard date.local.instant(utcOffsetSeconds: offset) <= now.addingTimeInterval(Self.futureTolerance) else {
            return .failure(.inFuture)
        }
        return .success(date)
    }
}
