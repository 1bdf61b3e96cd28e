import DarkroomCore
import DarkroomOptions

/// Options of the `exif-date` stage.
///
///     - exif-date:
///         sources: [exif-original, exif-digitized, gps, xmp, filename]
///         fallback-to-file-time: true
///         video-creation-time: utc
///         sidecars: true
public struct ExifDateOptions: StageOptions {
    /// A kind of evidence about the capture date, as named in pipeline files.
    public enum Source: String, CaseIterable, Codable, Sendable {
        /// EXIF SubSecDateTimeOriginal / DateTimeOriginal with OffsetTimeOriginal.
        case exifOriginal = "exif-original"
        /// EXIF CreateDate (DateTimeDigitized) with OffsetTimeDigitized.
        case exifDigitized = "exif-digitized"
        /// EXIF GPSDateStamp + GPSTimeStamp, a UTC instant made local with the run's time zone.
        case gps
        /// XMP photoshop:DateCreated, exif:DateTimeOriginal, xmp:CreateDate.
        case xmp
        /// Phone, camera and messenger file-name patterns.
        case filename
    }

    /// The metadata sources to try, first to last.
    public var sources: [Source]
    /// Whether a photo with no usable metadata date takes its file's modification time
    /// (low confidence) instead of failing.
    public var fallbackToFileTime: Bool
    /// How a video's `creation_time` is read: UTC (the specification) or the camera's local time.
    public var videoCreationTime: VideoCreationTime
    /// Whether XMP sidecars and Google Takeout's JSON are read (their dates, places and zones).
    public var readSidecars: Bool

    static let sourcesOption = StageOption<[Source]>.custom(
        "sources", as: [String].self, default: Source.allCases,
        shown: "[" + Source.allCases.map(\.rawValue).joined(separator: ", ") + "]",
        accepts: "a list of " + Source.allCases.map(\.rawValue).joined(separator: ", ") + ", each at most once",
        "Where to look for the capture date, first to last. A source that is missing or implausible (zero, malformed, before 1900, in the future) is skipped."
    ) { names in
        let valid = Source.allCases.map(\.rawValue)
        guard !names.isEmpty else { throw OptionRejection(message: "expected at least one of \(valid.joined(separator: ", ")), got []") }
        var chosen: [Source] = []
        for name in names {
            guard let source = Source(rawValue: name) else {
                var got = "'\(name)'"
                if let near = Suggestion.nearest(to: name, in: valid) { got += " (did you mean '\(near)'?)" }
                throw OptionRejection(message: "expected one of \(valid.joined(separator: ", ")), got \(got)")
            }
            guard !chosen.contains(source) else { throw OptionRejection(message: "expected each source at most once, got '\(name)' twice") }
            chosen.append(source)
        }
        return chosen
    }
    static let fallbackOption = StageOption.flag(
        "fallback-to-file-time", default: true,
        "Use the file's modification time (in the run's time zone, low confidence) when no source gives a date; when false, such photos and videos fail.")
    static let videoCreationTimeOption = StageOption.choice(
        "video-creation-time", default: VideoCreationTime.utc,
        "How to read a video's creation_time (used when it has no QuickTime creation date): utc, as the QuickTime specification says, shown in the run's --time-zone; local, for cameras that write their wall-clock time there.")
        .keyedOnlyWhenNotDefault()  // added after libraries were imported: at utc they keep their work
    static let sidecarsOption = StageOption.flag(
        "sidecars", default: true,
        "Read each photo's XMP sidecar (photo.jpg.xmp or photo.xmp) and Google Takeout JSON. A sidecar's date comes first (the user's latest word); "
            + "Takeout's date wins over the file's own when they disagree by over 14 hours (a date corrected in Google Photos), and dates a file that has none. "
            + "A sidecar's or the file's GPS position gives the time zone of times without an offset.")
        .keyedOnlyWhenNotDefault()  // added after libraries were imported, as video-creation-time
    public static let options: [any OptionDeclaration] = [sourcesOption, fallbackOption, videoCreationTimeOption, sidecarsOption]

    public init(sources: [Source] = Source.allCases, fallbackToFileTime: Bool = true, videoCreationTime: VideoCreationTime = .utc,
                readSidecars: Bool = true) {
        self.sources = sources
        self.fallbackToFileTime = fallbackToFileTime
        self.videoCreationTime = videoCreationTime
        self.readSidecars = readSidecars
    }

    public init(from decoder: Decoder) throws {
        let reader = try OptionsReader(decoder, declaring: Self.options)
        fallbackToFileTime = reader.read(Self.fallbackOption)
        sources = reader.read(Self.sourcesOption)
        videoCreationTime = reader.read(Self.videoCreationTimeOption)
        readSidecars = reader.read(Self.sidecarsOption)
        try reader.finish()
    }
}
