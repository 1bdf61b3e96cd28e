import Foundation

/// A video's metadata tags as FFmpeg reads them: the container's (QuickTime `mvhd` and `udta`,
/// Apple's `mdta` keys, Android's) and the video stream's, with the ones Darkroom uses named.
///
/// Keys are compared without regard to case: writers differ (`com.apple.quicktime.location.ISO6709`).
public struct VideoMetadata: Sendable, Equatable {
    /// The container's tags.
    public var container: [String: String]
    /// The video stream's tags (`creation_time`, `handler_name`, ...).
    public var videoStream: [String: String]

    /// An AVCHD camcorder's recording date from its H.264 stream (`CamcorderRecordingDate`), ISO 8601
    /// with the camera's offset when it set one; nil for other videos.
    public var camcorderRecordingDate: String?

    /// Apple's key for the capture time as the phone's clock showed it, with its UTC offset.
    public static let appleCreationDateKey = "com.apple.quicktime.creationdate"

    /// Tags as read (tests and callers that have them from elsewhere).
    public init(container: [String: String] = [:], videoStream: [String: String] = [:], camcorderRecordingDate: String? = nil) {
        self.container = container
        self.videoStream = videoStream
        self.camcorderRecordingDate = camcorderRecordingDate
    }

    /// `com.apple.quicktime.creationdate`: local time with its offset (`2012-11-26T15:33:10-0800`).
    public var appleCreationDate: String? { value(Self.appleCreationDateKey, in: container) }

    /// Other creation dates in QuickTime tags (`©day` read as `date`, `creationdate`, other
    /// `….creationdate` keys), by key: they may carry a local time and offset, or a UTC time.
    public var otherCreationDates: [(key: String, value: String)] {
        container.filter { key, _ in
            let key = key.lowercased()
            return key != Self.appleCreationDateKey && (key == "date" || key == "creationdate" || key.hasSuffix(".creationdate"))
        }
        .sorted { $0.key < $1.key }
        .map { (key: $0.key, value: $0.value) }
    }

    /// The container's `creation_time` (`mvhd`, UTC by the QuickTime specification).
    public var containerCreationTime: String? { value("creation_time", in: container) }
    /// The video stream's `creation_time` (`mdhd`).
    public var videoStreamCreationTime: String? { value("creation_time", in: videoStream) }

    /// The Live Photo identifier that pairs an iPhone's MOV with its still (`com.apple.quicktime.content.identifier`).
    public var contentIdentifier: String? { value("com.apple.quicktime.content.identifier", in: container) }

    /// The camera maker: Apple's key, Android's, or a plain `make` tag.
    public var make: String? { first(["com.apple.quicktime.make", "com.android.manufacturer", "make"]) }
    /// The camera model: Apple's key, Android's, or a plain `model` tag.
    public var model: String? { first(["com.apple.quicktime.model", "com.android.model", "model"]) }
    /// Where it was recorded, as ISO 6709 text (`+37.7858-122.4064+010.000/`): Apple's key, or the
    /// `location` tag Android and others write (QuickTime `©xyz`).
    public var locationISO6709: String? { first(["com.apple.quicktime.location.ISO6709", "location", "location-eng"]) }

    private func first(_ keys: [String]) -> String? {
        keys.lazy.compactMap { value($0, in: container) }.first
    }

    private func value(_ key: String, in tags: [String: String]) -> String? {
        let found = tags[key] ?? tags.first { $0.key.caseInsensitiveCompare(key) == .orderedSame }?.value
        guard let found else { return nil }
        let trimmed = found.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        return trimmed.isEmpty ? nil : trimmed
    }
}
