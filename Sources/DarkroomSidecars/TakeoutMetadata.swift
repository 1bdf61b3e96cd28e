import DarkroomCore
import Foundation
import DarkroomModel

/// What a Google Takeout JSON sidecar says about its photo or video.
///
/// Takeout sets every file's modification time to the export day; this JSON holds the real capture
/// time (`photoTakenTime`, a UTC instant with no local time or zone), where it was taken, and what
/// the user added in Google Photos. A value that is present but unusable (a zero or absurd
/// timestamp, a place off the globe) is left out and listed in `ignored` with the reason;
/// malformed JSON throws `SidecarError`.
public struct TakeoutMetadata: Hashable, Sendable {
    /// `title`: the media file's original name, before Takeout shortened or numbered it.
    public var title: String?
    /// `description`: the caption the user wrote; nil when empty.
    public var description: String?
    /// `photoTakenTime.timestamp`: when the photo was taken, as a UTC instant.
    public var photoTakenTime: Date?
    /// `creationTime.timestamp`: when the file reached Google Photos (upload time, not capture time).
    public var creationTime: Date?
    /// `geoData`: the place Google Photos shows (the user may have set it); nil for Takeout's 0/0.
    public var geoData: GeoLocation?
    /// `geoDataExif`: the place in the file's own EXIF when it was uploaded; nil for 0/0.
    public var geoDataExif: GeoLocation?
    /// `people[].name`: the people tagged in it.
    public var people: [String] = []
    /// `favorited`: starred in Google Photos.
    public var favorited = false
    /// Values present in the JSON but not used, each with the reason
    /// (`photoTakenTime.timestamp is 0, which Takeout writes for no date`).
    public var ignored: [String] = []

    /// Where it was taken: `geoData`, else `geoDataExif`.
    public var location: GeoLocation? { geoData ?? geoDataExif }

    /// A JSON sidecar is a few kilobytes; anything over this is refused unread.
    public static let maximumSize = 1 << 20
    /// Capture times before the first photograph (1826) are refused. Earlier 1970 is allowed:
    /// Google Photos writes negative timestamps for scanned photos dated before 1970.
    public static let earliestCapture = Date(timeIntervalSince1970: -4_544_208_000)  // 1826-01-01T00:00:00Z

    /// Reads the sidecar at `url`; errors name the file.
    public init(contentsOf url: URL, now: Date = Date()) throws {
        self = try SidecarFile.read(url, limit: Self.maximumSize) { try TakeoutMetadata(data: $0, now: now) }
    }

    /// Reads a sidecar's bytes; a capture time after `now` plus a day is refused as absurd.
    public init(data: Data, now: Date = Date()) throws {
        guard data.count <= Self.maximumSize else {
            throw SidecarError(reason: "larger than \(SidecarFile.describe(bytes: Self.maximumSize)): not a Takeout sidecar")
        }
        let json = try JSONValue.parse(data)
        guard case .object = json else { throw SidecarError(reason: "the JSON is \(json.shown), not an object: not a Takeout sidecar") }
        title = Self.nonEmptyText(json["title"])
        description = Self.nonEmptyText(json["description"])
        let latest = now.addingTimeInterval(86_400)
        photoTakenTime = readInstant(json, "photoTakenTime", latest: latest, required: true)
        creationTime = readInstant(json, "creationTime", latest: latest, required: false)
        geoData = readPlace(json, "geoData")
        geoDataExif = readPlace(json, "geoDataExif")
        if case .array(let entries)? = json["people"] {
            people = entries.compactMap { Self.nonEmptyText($0["name"]) }
        }
        favorited = json["favorited"] == .bool(true)
    }

    private static func nonEmptyText(_ value: JSONValue?) -> String? {
        guard case .string(let text)? = value, !text.isEmpty else { return nil }
        return text
    }

    /// `field.timestamp` (seconds since 1970 as a string, or a number) as an instant.
    private mutating func readInstant(_ json: JSONValue, _ field: String, latest: Date, required: Bool) -> Date? {
        let name = "\(field).timestamp"
        guard let value = json[field]?["timestamp"] else {
            if required { ignored.append("no \(name): the JSON gives no capture time") }
            return nil
        }
        let seconds: Int64?
        switch value {
        case .string(let text): seconds = Int64(text.trimmingCharacters(in: .whitespaces))
        case .number(let number) where number == number.rounded() && abs(number) < 1e15: seconds = Int64(number)
        default: seconds = nil
        }
        guard let seconds else {
            ignored.append("\(name) \(value.shown) is not a number of seconds")
            return nil
        }
        guard seconds != 0 else {
            ignored.append("\(name) is 0, which Takeout writes for no date")
            return nil
        }
        let instant = Date(timeIntervalSince1970: TimeInterval(seconds))
        guard instant >= Self.earliestCapture, instant <= latest else {
            ignored.append("\(name) \(seconds) is \(Self.iso(instant)), \(instant > latest ? "in the future" : "before photography existed")")
            return nil
        }
        return instant
    }

    /// `field`'s latitude, longitude and altitude; 0/0 is Takeout's "no place".
    private mutating func readPlace(_ json: JSONValue, _ field: String) -> GeoLocation? {
        guard let place = json[field] else { return nil }
        guard case .number(let latitude)? = place["latitude"], case .number(let longitude)? = place["longitude"] else {
            ignored.append("\(field) has no numeric latitude and longitude")
            return nil
        }
        if latitude == 0 && longitude == 0 { return nil }
        var altitude: Double?
        if case .number(let metres)? = place["altitude"], metres != 0 { altitude = metres }  // 0 is Takeout's "unknown"
        guard let location = GeoLocation(latitude: latitude, longitude: longitude, altitude: altitude) else {
            ignored.append("\(field) (\(latitude), \(longitude)) is not a place on Earth")
            return nil
        }
        return location
    }

    private static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
