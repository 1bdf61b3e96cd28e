import DarkroomCore
import Foundation
import DarkroomModel

/// Everything `exif-date` found about one file and how it decided: its sidecars, where it was
/// taken and the zone there, every date candidate with its outcome, and the date chosen. What
/// `darkroom explain` prints, and what the stage records.
public struct DateExplanation: Sendable, Encodable {
    /// A sidecar read for the file.
    public struct SidecarRead: Sendable, Encodable, Hashable {
        /// The sidecar's path.
        public var path: String
        /// What it is (`Google Takeout JSON`, `XMP sidecar`).
        public var kind: String
        /// How it was matched to the file.
        public var reason: String
    }

    /// The file.
    public var path: String
    /// Its sidecars, as discovery matched them.
    public var sidecars: [SidecarRead] = []
    /// What could not be read and was left out (a malformed sidecar, an EXIF block, the zone map),
    /// each with the file and the reason.
    public var problems: [String] = []
    /// Where it was taken, when anything says.
    public var location: GeoLocation?
    /// What gave the position (`EXIF GPS`, `XMP sidecar IMG_1.jpg.xmp`, `Google Takeout geoData`).
    public var locationSource: String?
    /// The IANA zone at the position (`Asia/Tokyo`).
    public var zoneAtLocation: String?
    /// The decision: every date candidate, most trusted first, with what became of it, and the date chosen.
    public var decision: CaptureDateDecision
    /// The camera, `Make Model`, when known.
    public var camera: String?
    /// The burst the camera wrote (Apple's `BurstUUID`, Google's `GCamera:BurstID`), when it wrote one.
    public var burst: BurstMark?

    /// Every date candidate, most trusted first, with what became of it.
    public var candidates: [ConsideredDate] { decision.considered }
    /// The capture date, or nil when no source gave one.
    public var chosen: CaptureDate? { decision.date }

    private enum Key: String, CodingKey {
        case path, sidecars, problems, location, locationSource, zoneAtLocation, candidates, chosen, camera, burst
    }

    /// The explanation as `darkroom explain --json` prints it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(path, forKey: .path)
        try container.encode(sidecars, forKey: .sidecars)
        try container.encode(problems, forKey: .problems)
        try container.encodeIfPresent(location, forKey: .location)
        try container.encodeIfPresent(locationSource, forKey: .locationSource)
        try container.encodeIfPresent(zoneAtLocation, forKey: .zoneAtLocation)
        try container.encode(candidates, forKey: .candidates)
        try container.encodeIfPresent(chosen, forKey: .chosen)
        try container.encodeIfPresent(camera, forKey: .camera)
        try container.encodeIfPresent(burst, forKey: .burst)
    }
}
