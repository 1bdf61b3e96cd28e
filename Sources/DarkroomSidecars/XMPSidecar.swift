import DarkroomCore
import DarkroomXMP
import Foundation
import DarkroomModel

/// What an XMP sidecar (`photo.xmp`, `photo.jpg.xmp`) says about when and where its photo was
/// taken, with the whole packet for merging.
///
/// Dates are given as the raw text of each property in the order a capture-date resolver should
/// trust them, offsets included as XMP writes them (`2023-08-01T12:34:56.120+02:00`): parse them
/// with the same parser as EXIF text. A malformed packet throws `SidecarError` with the reason.
public struct XMPSidecar: Hashable, Sendable {
    /// One date property's name and text.
    public struct DateText: Hashable, Sendable {
        /// `exif:DateTimeOriginal`, `xmp:CreateDate` or `photoshop:DateCreated`.
        public var property: String
        /// The text as written, with its offset if it has one.
        public var text: String
    }

    /// The date properties the sidecar has, most trusted first: `exif:DateTimeOriginal` (when
    /// the shutter fired), `xmp:CreateDate` (when the file was made from it), `photoshop:DateCreated`.
    public var dates: [DateText] = []
    /// `exif:GPSLatitude`, `exif:GPSLongitude` (and `exif:GPSAltitude`), when both coordinates read.
    public var location: GeoLocation?
    /// Values present but not used, each with the reason (`exif:GPSLatitude "91,0.0N" is not a latitude`).
    public var ignored: [String] = []
    /// The whole packet.
    public var packet: XMPPacket

    /// XMP sidecars carrying edit histories reach megabytes; anything over this is refused unread.
    public static let maximumSize = 16 << 20

    static let dateProperties: [(name: String, namespace: String, local: String)] = [
        ("exif:DateTimeOriginal", XMPNamespace.exif, "DateTimeOriginal"),
        ("xmp:CreateDate", XMPNamespace.xmp, "CreateDate"),
        ("photoshop:DateCreated", XMPNamespace.photoshop, "DateCreated"),
    ]

    /// Reads the sidecar at `url`; errors name the file.
    public init(contentsOf url: URL) throws {
        self = try SidecarFile.read(url, limit: Self.maximumSize) { try XMPSidecar(data: $0) }
    }

    /// Reads a sidecar's bytes.
    public init(data: Data) throws {
        packet = try Self.packet(data, what: "XMP sidecar")
        for property in Self.dateProperties {
            guard let text = packet[property.namespace, property.local]?.text?.trimmingCharacters(in: .whitespacesAndNewlines) else { continue }
            if text.isEmpty {
                ignored.append("\(property.name) is empty")
            } else {
                dates.append(DateText(property: property.name, text: text))
            }
        }
        location = readLocation()
        ignored += packet.repairs
    }

    /// `embedded` (a photo's own XMP packet, if it has one) with every property of `sidecar`
    /// added, the sidecar winning where both have a property (it is the user's latest word), as a
    /// new packet: ratings, keywords, titles, descriptions, people and labels of both survive.
    /// Throws `SidecarError` naming which input is not a readable packet.
    public static func merged(embedded: Data?, sidecar: Data) throws -> Data {
        let newer = try packet(sidecar, what: "XMP sidecar")
        let base = try embedded.map { try packet($0, what: "embedded XMP") } ?? XMPPacket()
        return base.merging(newer).serialized()
    }

    static func packet(_ data: Data, what: String) throws -> XMPPacket {
        guard data.count <= maximumSize else {
            throw SidecarError(reason: "\(what) larger than \(SidecarFile.describe(bytes: maximumSize)): refused")
        }
        do {
            return try XMPPacket(data: data)
        } catch let error as XMPError {
            throw SidecarError(reason: "\(what) is not a readable XMP packet: \(error)")
        }
    }

    private mutating func readLocation() -> GeoLocation? {
        let exif = XMPNamespace.exif
        let latitudeText = packet[exif, "GPSLatitude"]?.text, longitudeText = packet[exif, "GPSLongitude"]?.text
        guard latitudeText != nil || longitudeText != nil else { return nil }
        let latitude = latitudeText.flatMap { XMPCoordinate.degrees($0, axis: .latitude) }
        let longitude = longitudeText.flatMap { XMPCoordinate.degrees($0, axis: .longitude) }
        for (name, text, value) in [("exif:GPSLatitude", latitudeText, latitude), ("exif:GPSLongitude", longitudeText, longitude)] where value == nil {
            ignored.append(text.map { "\(name) \"\($0.prefix(40))\" is not a coordinate" } ?? "\(name) is missing, so the other coordinate is unused")
        }
        guard let latitude, let longitude else { return nil }
        var altitude = packet[exif, "GPSAltitude"]?.text.flatMap(XMPCoordinate.rational)
        if packet[exif, "GPSAltitudeRef"]?.text?.trimmingCharacters(in: .whitespaces) == "1" { altitude = altitude.map { -$0 } }
        return GeoLocation(latitude: latitude, longitude: longitude, altitude: altitude)
    }
}
