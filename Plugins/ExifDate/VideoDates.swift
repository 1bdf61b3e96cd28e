import DarkroomCore
import DarkroomVideo
import Foundation
import DarkroomModel

/// What dates a video: its QuickTime metadata, gathered before any decision is made.
public struct VideoDateEvidence: Sendable {
    /// One tag's value and where it was found.
    public struct Tag: Sendable, Equatable {
        /// The tag, as named in reports (`com.apple.quicktime.creationdate`, `format creation_time`).
        public var field: String
        /// The value as found.
        public var value: String

        /// A value found in `field`.
        public init(field: String, value: String) {
            self.field = field
            self.value = value
        }
    }

    /// Apple's `com.apple.quicktime.creationdate`: the phone's wall-clock time with its UTC offset.
    public var appleCreationDate: Tag?
    /// An AVCHD camcorder's recording date (its H.264 stream's MDPM), with the camera's offset.
    public var camcorderRecordingDate: Tag?
    /// Other QuickTime creation dates (`©day`, `creationdate` keys).
    public var otherCreationDates: [Tag]
    /// `creation_time` of the container (`mvhd`), then of the video stream (`mdhd`).
    public var creationTimes: [Tag]

    /// Evidence given directly (tests, other readers).
    public init(appleCreationDate: Tag? = nil, camcorderRecordingDate: Tag? = nil, otherCreationDates: [Tag] = [], creationTimes: [Tag] = []) {
        self.appleCreationDate = appleCreationDate
        self.camcorderRecordingDate = camcorderRecordingDate
        self.otherCreationDates = otherCreationDates
        self.creationTimes = creationTimes
    }

    /// The evidence in a video's tags.
    public init(_ metadata: VideoMetadata) {
        appleCreationDate = metadata.appleCreationDate.map { Tag(field: VideoMetadata.appleCreationDateKey, value: $0) }
        camcorderRecordingDate = metadata.camcorderRecordingDate.map { Tag(field: "H.264 recording date (MDPM)", value: $0) }
        otherCreationDates = metadata.otherCreationDates.map { Tag(field: $0.key, value: $0.value) }
        creationTimes = [("format creation_time", metadata.containerCreationTime),
                         ("video stream creation_time", metadata.videoStreamCreationTime)]
            .compactMap { field, value in value.map { Tag(field: field, value: $0) } }
    }
}

/// How a camera fills a video's `creation_time`.
public enum VideoCreationTime: String, Codable, Sendable, CaseIterable {
    /// UTC, as the QuickTime specification says (phones): shown in the run's `--time-zone`.
    case utc
    /// The camera's wall-clock time (many camcorders and action cameras): taken as it stands.
    case local
}

/// The rules for a video's dates, in order: Apple's creation date (local time with its offset,
/// high confidence); an AVCHD camcorder's recording date (likewise); other QuickTime creation dates; then `creation_time` (UTC unless the camera
/// is known to write local time). The QuickTime epoch (1904-01-01) and the Unix epoch
/// (1970-01-01) are zero timestamps written by cameras whose clock was never set: not dates.
extension CaptureDateResolver {
    func videoCandidates(_ video: VideoDateEvidence, _ evidence: CaptureDateEvidence) -> [Candidate] {
        var found: [Candidate] = []
        if let apple = video.appleCreationDate {
            found.append(offsetDate(apple, source: .quickTimeCreationDate, confidence: .high, evidence))
        }
        if let recorded = video.camcorderRecordingDate {
            found.append(offsetDate(recorded, source: .camcorderRecordingDate, confidence: .high, evidence))
        }
        found += video.otherCreationDates.map { offsetDate($0, source: .quickTimeCreationDate, confidence: .medium, evidence) }
        found += video.creationTimes.map { creationTime($0, evidence) }
        return found
    }

    /// A date with an offset of its own is the local time it says; one in UTC (`Z`) is placed in a
    /// zone like any instant; one with neither is taken as the wall-clock time it reads.
    private func offsetDate(_ tag: VideoDateEvidence.Tag, source: CaptureDate.Source, confidence: CaptureDate.Confidence,
                            _ evidence: CaptureDateEvidence) -> Candidate {
        if DateTimeText.trim(tag.value).hasSuffix("Z") { return utcDate(tag, confidence: .medium, evidence) }
        let result = DateTimeText.parse(tag.value).flatMap(Self.refusingEpochs).map { parsed in
            placed(local: parsed.local, offset: parsed.utcOffsetSeconds, source: source, confidence: confidence, evidence)
        }
        return Candidate(source: source, field: tag.field, value: tag.value, result: result)
    }

    /// `creation_time`: a UTC instant placed in a zone, or (`video-creation-time: local`) wall-clock time.
    private func creationTime(_ tag: VideoDateEvidence.Tag, _ evidence: CaptureDateEvidence) -> Candidate {
        guard videoCreationTime == .local else { return utcDate(tag, confidence: .medium, evidence) }
        let result = DateTimeText.parse(tag.value).flatMap(Self.refusingEpochs).map { parsed in
            placed(local: parsed.local, offset: nil, source: .quickTimeCreationTime, confidence: .medium, evidence)
        }
        return Candidate(source: .quickTimeCreationTime, field: tag.field, value: tag.value, result: result)
    }

    /// A UTC time, placed in the zone `TimeZonePlacement` finds (its GPS position's, `--time-zone`, this machine's).
    private func utcDate(_ tag: VideoDateEvidence.Tag, confidence: CaptureDate.Confidence, _ evidence: CaptureDateEvidence) -> Candidate {
        let source: CaptureDate.Source = tag.field.hasSuffix("creation_time") ? .quickTimeCreationTime : .quickTimeCreationDate
        let result = DateTimeText.parse(tag.value).flatMap(Self.refusingEpochs).flatMap { parsed in
            placed(instant: parsed.local.instant(utcOffsetSeconds: parsed.utcOffsetSeconds ?? 0), source: source,
                   confidence: confidence, evidence)
        }
        return Candidate(source: source, field: tag.field, value: tag.value, result: result)
    }

    /// Refuses the zero timestamps of QuickTime (1904-01-01T00:00:00Z) and Unix (1970-01-01T00:00:00Z).
    static func refusingEpochs(_ parsed: ParsedDateTime) -> Result<ParsedDateTime, DateRejection> {
        let instant = parsed.local.instant(utcOffsetSeconds: parsed.utcOffsetSeconds ?? 0).timeIntervalSince1970
        if instant == 0 { return .failure(.unixEpoch) }
        if instant == quickTimeEpoch { return .failure(.quickTimeEpoch) }
        return .success(parsed)
    }

    /// 1904-01-01T00:00:00Z in seconds since 1970.
    static let quickTimeEpoch: TimeInterval = -2_082_844_800
}
