import Foundation

/// A calendar date and wall-clock time with every field validated, as the photographer's clock showed it.
///
/// Path templates take their date fields from here only, so a hostile metadata string can never
/// become part of an output path: only these integers can.
public struct LocalDateTime: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int
    /// Fractional seconds in nanoseconds (from SubSecTime or a filename's milliseconds).
    public let nanosecond: Int

    /// Validates every field (a real calendar day, 00:00:00...23:59:60); nil when any is out of range.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, nanosecond: Int = 0) {
        guard (1...9999).contains(year), (1...12).contains(month), (0...23).contains(hour),
              (0...59).contains(minute), (0...60).contains(second), (0..<1_000_000_000).contains(nanosecond),
              day >= 1, day <= LocalDateTime.daysIn(month: month, year: year) else { return nil }
        self.year = year; self.month = month; self.day = day
        self.hour = hour; self.minute = minute; self.second = min(second, 59); self.nanosecond = nanosecond
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The instant this wall-clock time denotes at a UTC offset.
    public func instant(utcOffsetSeconds: Int) -> Date {
        var components = DateComponents()
        components.year = year; components.month = month; components.day = day
        components.hour = hour; components.minute = minute; components.second = second
        components.nanosecond = nanosecond
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: utcOffsetSeconds) ?? TimeZone(identifier: "UTC")!
        return calendar.date(from: components) ?? Date(timeIntervalSince1970: 0)
    }

    /// The wall-clock time of an instant in a time zone.
    public init?(_ date: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        self.init(year: c.year ?? 0, month: c.month ?? 0, day: c.day ?? 0, hour: c.hour ?? 0,
                  minute: c.minute ?? 0, second: c.second ?? 0, nanosecond: c.nanosecond ?? 0)
    }

    /// `2024-01-31T12:34:56` (with `.123` when there are fractional seconds).
    public var description: String {
        let base = "\(year.zeroPadded(4))-\(month.zeroPadded(2))-\(day.zeroPadded(2))T\(hour.zeroPadded(2)):\(minute.zeroPadded(2)):\(second.zeroPadded(2))"
        return nanosecond == 0 ? base : base + "." + (nanosecond / 1_000_000).zeroPadded(3)
    }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        // Tuples, not arrays: sorting a hundred thousand photos compares millions of times.
        if (a.year, a.month, a.day) != (b.year, b.month, b.day) { return (a.year, a.month, a.day) < (b.year, b.month, b.day) }
        return (a.hour, a.minute, a.second, a.nanosecond) < (b.hour, b.minute, b.second, b.nanosecond)
    }
}

/// When a photo was taken, and how Darkroom knows.
public struct CaptureDate: Codable, Sendable, Hashable, CustomStringConvertible {
    /// Which piece of evidence decided the date.
    public enum Source: String, Codable, Sendable, CaseIterable {
        /// EXIF SubSecDateTimeOriginal / DateTimeOriginal.
        case exifOriginal = "exif:DateTimeOriginal"
        /// EXIF CreateDate / DateTimeDigitized.
        case exifDigitized = "exif:DateTimeDigitized"
        /// EXIF GPSDateStamp + GPSTimeStamp (UTC).
        case gps = "exif:GPSDateTime"
        /// XMP photoshop:DateCreated, exif:DateTimeOriginal or xmp:CreateDate.
        case xmp = "xmp"
        /// A camera or messenger file-name pattern (IMG_20240101_123456, PXL_..., WhatsApp).
        case filename = "filename"
        /// The file's modification time: a last resort.
        case fileModified = "file-mtime"
        /// A video's Apple `com.apple.quicktime.creationdate` key (local time with its UTC offset).
        case quickTimeCreationDate = "quicktime:CreationDate"
        /// A video's container or stream `creation_time` (UTC by the QuickTime specification).
        case quickTimeCreationTime = "quicktime:creation_time"
        /// An XMP sidecar's `exif:DateTimeOriginal`, `xmp:CreateDate` or `photoshop:DateCreated`:
        /// the user's latest word, ahead of the file's own dates.
        case xmpSidecar = "xmp-sidecar"
        /// Google Takeout's `photoTakenTime` (a UTC instant): where a date corrected in Google
        /// Photos lives.
        case takeout = "takeout:photoTakenTime"
        /// Set by the user (`darkroom catalog set-date`): outranks every piece of evidence, and
        /// `exif-date` keeps it when it runs again.
        case user = "user"
        /// An AVCHD camcorder's recording date in its H.264 stream (MDPM; exiftool's `H264:DateTimeOriginal`).
        case camcorderRecordingDate = "h264:DateTimeOriginal"
    }

    /// Where the UTC offset came from, in the order Darkroom looks: the file's own offset tags; the
    /// time zone at the photo's GPS position; the run's `--time-zone`; this machine's zone.
    public enum TimeZoneSource: String, Codable, Sendable {
        /// OffsetTimeOriginal / OffsetTimeDigitized, or an offset written in XMP or a QuickTime date.
        case metadata
        /// The IANA zone at the photo's GPS coordinates (offline map), with the offset in force then.
        case gps
        /// The run's `--time-zone`, with the offset in force then.
        case configured
        /// This machine's zone, since nothing better was known: low confidence.
        case machine
        /// Nothing says: the wall-clock time is taken as it stands, offset unknown.
        case unknown
        /// Recorded by earlier versions: GPS time (UTC) shown in the run's time zone.
        case gpsUTC = "gps-utc"
        /// Recorded by earlier versions: the file-system time converted with the run's time zone.
        case assumed
        /// The offset the user gave with the date (`darkroom catalog set-date`).
        case user
    }

    /// How much to trust the date.
    public enum Confidence: String, Codable, Sendable, Comparable {
        case low, medium, high

        private var rank: Int { self == .low ? 0 : self == .medium ? 1 : 2 }
        public static func < (a: Confidence, b: Confidence) -> Bool { a.rank < b.rank }
    }

    /// The wall-clock time the photographer saw: this decides the library folder.
    public var local: LocalDateTime
    /// Seconds east of UTC, when known.
    public var utcOffsetSeconds: Int?
    public var source: Source
    public var timeZoneSource: TimeZoneSource
    public var confidence: Confidence
    /// What else the decision met, for provenance: a source that disagreed and was overruled
    /// (`embedded DateTimeOriginal 2019-03-01T10:00:00 disagrees with Google Takeout's date by 3 days`),
    /// one that agreed, the zone found at the photo's position. Nil when there is nothing to say.
    public var notes: [String]?
    /// Whether `local` has no time of day of its own (a WhatsApp name, an XMP date alone): filed at 12:00.
    public var dateOnly: Bool?
    /// For a date the user set: the date the files gave, which it overrides (nil otherwise).
    public var overrides: FoundDate?

    public init(local: LocalDateTime, utcOffsetSeconds: Int?, source: Source, timeZoneSource: TimeZoneSource,
                confidence: Confidence, notes: [String]? = nil, dateOnly: Bool? = nil, overrides: FoundDate? = nil) {
        self.local = local
        self.utcOffsetSeconds = utcOffsetSeconds
        self.source = source
        self.timeZoneSource = timeZoneSource
        self.confidence = confidence
        self.notes = notes
        self.dateOnly = dateOnly
        self.overrides = overrides
    }

    /// The instant, when the UTC offset is known.
    public var instant: Date? { utcOffsetSeconds.map { local.instant(utcOffsetSeconds: $0) } }

    /// What orders photos in time: the instant when the offset is known, else the wall-clock time
    /// read as UTC.
    public var sortingInstant: Date { local.instant(utcOffsetSeconds: utcOffsetSeconds ?? 0) }

    /// Why the date is low confidence, completing "dated ...", or nil when it is not.
    public var lowConfidenceReason: String? {
        guard confidence == .low else { return nil }
        if source == .fileModified { return "from their file time" }
        if timeZoneSource == .machine { return "in this machine's time zone" }
        if dateOnly == true { return "from a day without a time" }
        return "with low confidence"
    }

    /// `+01:00`, `-03:30`, or "" for an unknown offset.
    public static func offsetText(_ seconds: Int?) -> String {
        guard let seconds else { return "" }
        return String(format: "%@%02d:%02d", seconds < 0 ? "-" : "+", abs(seconds) / 3600, abs(seconds) % 3600 / 60)
    }

    /// The date the files gave: this one, or for a date the user set, the one it overrides (nil
    /// when the photo had none).
    public var found: FoundDate? { source == .user ? overrides : FoundDate(self) }

    /// The local time with its offset when known: `2024-01-31T12:34:56+01:00`.
    public var stamp: String { CaptureDate.stamp(local, utcOffsetSeconds: utcOffsetSeconds) }

    /// `2024-01-31T12:34:56+01:00 (exif:DateTimeOriginal, tz: metadata)`; a user's date adds what it
    /// overrides: `(user, tz: user; overrides 2024-01-31T11:34:56+01:00 from exif:DateTimeOriginal)`.
    public var description: String {
        let overridden = overrides.map { "; overrides \(CaptureDate.stamp($0.local, utcOffsetSeconds: $0.utcOffsetSeconds)) from \($0.source.rawValue)" }
        return "\(stamp) (\(source.rawValue), tz: \(timeZoneSource.rawValue)\(confidence == .low ? ", low confidence" : "")\(overridden ?? ""))"
    }

    package static func stamp(_ local: LocalDateTime, utcOffsetSeconds: Int?) -> String {
        local.description + offsetText(utcOffsetSeconds)
    }
}

/// A capture date as the files gave it (EXIF, QuickTime, the file name...), kept beside a date the
/// user set in its place, so that what was overridden can still be told.
public struct FoundDate: Codable, Sendable, Hashable {
    /// The wall-clock time the files gave.
    public var local: LocalDateTime
    /// Its offset from UTC, when known.
    public var utcOffsetSeconds: Int?
    /// Where the date came from.
    public var source: CaptureDate.Source
    /// Where the offset came from.
    public var timeZoneSource: CaptureDate.TimeZoneSource
    /// How sure the source was.
    public var confidence: CaptureDate.Confidence

    /// The date `date` states (whatever its source).
    public init(_ date: CaptureDate) {
        local = date.local
        utcOffsetSeconds = date.utcOffsetSeconds
        source = date.source
        timeZoneSource = date.timeZoneSource
        confidence = date.confidence
    }
}
