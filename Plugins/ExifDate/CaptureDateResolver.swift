import DarkroomCore
import DarkroomExif
import Foundation

/// Everything known about a file that can date it, gathered before any decision is made.
public struct CaptureDateEvidence: Sendable {
    /// The file's EXIF tags, when it has a readable EXIF block.
    public var exif: ExifTags?
    /// The file's XMP packet as text.
    public var xmp: String?
    /// The file name (with or without its folder).
    public var fileName: String
    /// The file's modification time.
    public var modificationDate: Date?
    /// A video's QuickTime dates (nil for a photo).
    public var video: VideoDateEvidence?

    public init(exif: ExifTags? = nil, xmp: String? = nil, fileName: String = "", modificationDate: Date? = nil,
                video: VideoDateEvidence? = nil) {
        self.exif = exif
        self.xmp = xmp
        self.fileName = fileName
        self.modificationDate = modificationDate
        self.video = video
    }
}

/// The outcome of resolving: the date chosen (if any) and what was set aside on the way.
public struct CaptureDateDecision: Sendable {
    /// The capture date, or nil when no source gave a plausible one.
    public var date: CaptureDate?
    /// Evidence looked at and refused, in the order it was considered.
    public var rejected: [RejectedDate]
}

/// Decides a photo's capture date from its evidence: a pure function of the evidence, the
/// configured order of sources, the run's time zone and the current time.
///
/// Sources are tried in order; the first one that yields a plausible date wins:
///
///     exif-original ─▶ exif-digitized ─▶ gps ─▶ xmp ─▶ filename ─▶ (file time)
///       high           high              medium  medium  medium     low
///                                                low if  low if
///                                                date    date
///                                                only    only
///
/// A video has no EXIF or XMP: its QuickTime dates come first (see `videoCandidates`), then the
/// file name when `sources` lists it, then the file time.
///
/// A value that is blank, all zeros, malformed, not a real calendar date, before 1900 or more than
/// a day in the future is recorded in `rejected` and the next source is tried.
public struct CaptureDateResolver: Sendable {
    /// The earliest year accepted from any source.
    public static let earliestYear = 1900
    /// How far past `now` a date may lie (camera clocks drift, time zones differ).
    public static let futureTolerance: TimeInterval = 24 * 60 * 60

    public var sources: [ExifDateOptions.Source]
    public var fallbackToFileTime: Bool
    /// How a video's `creation_time` is read.
    public var videoCreationTime: VideoCreationTime
    /// The zone for GPS (UTC), `creation_time` and file times, and for judging "in the future" when
    /// no offset is known.
    public var timeZone: TimeZone
    /// The time of the run.
    public var now: Date

    public init(sources: [ExifDateOptions.Source] = ExifDateOptions.Source.allCases, fallbackToFileTime: Bool = true,
                videoCreationTime: VideoCreationTime = .utc, timeZone: TimeZone, now: Date = Date()) {
        self.sources = sources
        self.fallbackToFileTime = fallbackToFileTime
        self.videoCreationTime = videoCreationTime
        self.timeZone = timeZone
        self.now = now
    }

    /// Chooses the capture date.
    public func resolve(_ evidence: CaptureDateEvidence) -> CaptureDateDecision {
        var rejected: [RejectedDate] = []
        for candidate in orderedCandidates(evidence) {
            switch candidate.result.flatMap(checkedPlausible) {
            case .success(let date):
                return CaptureDateDecision(date: date, rejected: rejected)
            case .failure(let reason):
                rejected.append(RejectedDate(source: candidate.source, field: candidate.field,
                                             value: candidate.value, reason: reason))
            }
        }
        if fallbackToFileTime, let modified = evidence.modificationDate {
            let candidate = fileTime(modified)
            switch candidate.result.flatMap(checkedPlausible) {
            case .success(let date): return CaptureDateDecision(date: date, rejected: rejected)
            case .failure(let reason):
                rejected.append(RejectedDate(source: .fileModified, field: candidate.field, value: candidate.value, reason: reason))
            }
        }
        return CaptureDateDecision(date: nil, rejected: rejected)
    }

    /// One value from one source, already interpreted (or refused).
    struct Candidate {
        var source: CaptureDate.Source
        var field: String
        var value: String
        var result: Result<CaptureDate, DateRejection>
    }

    /// Every candidate, most trusted first: a photo's from `sources`; a video's QuickTime dates and
    /// then its file name (when `sources` lists it).
    func orderedCandidates(_ evidence: CaptureDateEvidence) -> [Candidate] {
        guard let video = evidence.video else { return sources.flatMap { candidates(from: $0, evidence) } }
        return videoCandidates(video) + (sources.contains(.filename) ? candidates(from: .filename, evidence) : [])
    }

    func candidates(from source: ExifDateOptions.Source, _ evidence: CaptureDateEvidence) -> [Candidate] {
        switch source {
        case .exifOriginal:
            guard let tags = evidence.exif else { return [] }
            return exifDate(tags.dateTimeOriginal, field: "DateTimeOriginal", subSecond: tags.subSecTimeOriginal,
                            offset: tags.offsetTimeOriginal, source: .exifOriginal)
        case .exifDigitized:
            guard let tags = evidence.exif else { return [] }
            return exifDate(tags.dateTimeDigitized, field: "DateTimeDigitized", subSecond: tags.subSecTimeDigitized,
                            offset: tags.offsetTimeDigitized, source: .exifDigitized)
        case .gps:
            guard let tags = evidence.exif else { return [] }
            return gpsDate(tags)
        case .xmp:
            guard let xmp = evidence.xmp else { return [] }
            return XMPDates.values(in: xmp).map { xmpDate($0.value, field: $0.property) }
        case .filename:
            let name = (evidence.fileName as NSString).lastPathComponent
            return FileNameDates.matches(in: name).map { match in
                Candidate(source: .filename, field: "file name", value: match.text, result: match.result.map {
                    CaptureDate(local: $0.local, utcOffsetSeconds: nil, source: .filename, timeZoneSource: .unknown,
                                confidence: $0.hasTime ? .medium : .low)
                })
            }
        }
    }

    /// DateTimeOriginal or DateTimeDigitized, refined by its SubSecTime and OffsetTime fields.
    /// An unreadable offset is ignored (the wall-clock time still stands); so is unreadable SubSecTime.
    private func exifDate(_ text: String?, field: String, subSecond: String?, offset: String?,
                          source: CaptureDate.Source) -> [Candidate] {
        guard let text else { return [] }
        let result = DateTimeText.parse(text).map { parsed -> CaptureDate in
            var local = parsed.local
            if let subSecond, let nanosecond = DateTimeText.nanoseconds(fromSubSecond: subSecond),
               let refined = LocalDateTime(year: local.year, month: local.month, day: local.day, hour: local.hour,
                                           minute: local.minute, second: local.second, nanosecond: nanosecond) {
                local = refined
            }
            let utcOffset = offset.flatMap(DateTimeText.utcOffsetSeconds) ?? parsed.utcOffsetSeconds
            return CaptureDate(local: local, utcOffsetSeconds: utcOffset, source: source,
                               timeZoneSource: utcOffset == nil ? .unknown : .metadata, confidence: .high)
        }
        return [Candidate(source: source, field: field, value: text, result: result)]
    }

    /// GPSDateStamp + GPSTimeStamp: a UTC instant, shown in the run's time zone.
    private func gpsDate(_ tags: ExifTags) -> [Candidate] {
        guard let dateText = tags.gpsDateStamp else { return [] }
        let field = "GPSDateStamp+GPSTimeStamp"
        guard let time = tags.gpsTimeStamp else {
            return [Candidate(source: .gps, field: field, value: dateText, result: .failure(.malformed))]
        }
        let value = "\(dateText) \(time.hour):\(time.minute):\(time.second)"
        let result = DateTimeText.parse(dateText, allowDateOnly: true).flatMap { parsed -> Result<CaptureDate, DateRejection> in
            guard !parsed.hasTime, let utc = Self.utcDateTime(day: parsed.local, time: time) else {
                return .failure(parsed.hasTime ? .malformed : .invalidCalendar)
            }
            let instant = utc.instant(utcOffsetSeconds: 0)
            guard let local = LocalDateTime(instant, in: timeZone) else { return .failure(.invalidCalendar) }
            return .success(CaptureDate(local: local, utcOffsetSeconds: timeZone.secondsFromGMT(for: instant),
                                        source: .gps, timeZoneSource: .gpsUTC, confidence: .medium))
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

    /// An XMP date: ISO 8601 with optional fraction and offset; a date alone is low confidence.
    private func xmpDate(_ text: String, field: String) -> Candidate {
        let result = DateTimeText.parse(text, allowDateOnly: true).map { parsed in
            CaptureDate(local: parsed.local, utcOffsetSeconds: parsed.utcOffsetSeconds, source: .xmp,
                        timeZoneSource: parsed.utcOffsetSeconds == nil ? .unknown : .metadata,
                        confidence: parsed.hasTime ? .medium : .low)
        }
        return Candidate(source: .xmp, field: field, value: text, result: result)
    }

    /// The file's modification time, shown in the run's time zone.
    private func fileTime(_ modified: Date) -> Candidate {
        let result: Result<CaptureDate, DateRejection> = LocalDateTime(modified, in: timeZone).map {
            .success(CaptureDate(local: $0, utcOffsetSeconds: timeZone.secondsFromGMT(for: modified),
                                 source: .fileModified, timeZoneSource: .assumed, confidence: .low))
        } ?? .failure(.invalidCalendar)
        return Candidate(source: .fileModified, field: "modification time", value: "\(modified)", result: result)
    }

    /// Refuses dates before `earliestYear` or more than `futureTolerance` after `now`.
    private func checkedPlausible(_ date: CaptureDate) -> Result<CaptureDate, DateRejection> {
        guard date.local.year >= Self.earliestYear else { return .failure(.tooOld) }
        let offset = date.utcOffsetSeconds ?? timeZone.secondsFromGMT(for: now)
        guard date.local.instant(utcOffsetSeconds: offset) <= now.addingTimeInterval(Self.futureTolerance) else {
            return .failure(.inFuture)
        }
        return .success(date)
    }
}
