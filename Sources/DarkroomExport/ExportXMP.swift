import DarkroomLibrary
import DarkroomModel
import DarkroomXMP
import Foundation

/// The XMP an exported file carries: inside a JPEG or HEIC shared with people, and as the sidecar
/// of an original (what the library knows, for the application the library is taken to).
enum ExportXMP {
    /// Darkroom's own properties in a sidecar: where the capture date came from.
    static let namespace = "http://darkroom.invalid/ns/1.0/"
    /// The XMP date properties a reader may take the capture date from.
    static let dateProperties = [XMPName(XMPNamespace.exif, "DateTimeOriginal"), XMPName(XMPNamespace.photoshop, "DateCreated"),
                                 XMPName(XMPNamespace.xmp, "CreateDate")]

    /// The packet of a photo shared with people: the library's XMP (rating, keywords, title...)
    /// with its dates made the library's capture date, and without location unless `keepLocation`.
    /// Nil when nothing is left.
    static func forSharing(_ packet: XMPPacket, date: CaptureDate?, keepLocation: Bool) -> Data? {
        var shared = keepLocation ? packet : packet.removingLocation()
        if let date {
            for name in dateProperties where shared[name] != nil { shared[name] = .text(stamp(date)) }
        }
        return shared.properties.isEmpty ? nil : shared.serialized()
    }

    /// The sidecar of an exported original: the library's XMP, the capture date as every reader
    /// looks for it (`exif:DateTimeOriginal`, `photoshop:DateCreated`, `xmp:CreateDate`), where the
    /// date came from (`darkroom:CaptureDateSource`, `TimeZoneSource`, `DateConfidence`), the
    /// photo's content id, and the catalog's position when the photo's own XMP has none (and
    /// `keepLocation`).
    static func sidecar(_ packet: XMPPacket, asset: AssetFacts, keepLocation: Bool) -> Data {
        var sidecar = keepLocation ? packet : packet.removingLocation()
        var own = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"\(XMPNamespace.rdf)\">"
        own += "<rdf:Description rdf:about=\"\" xmlns:darkroom=\"\(namespace)\" darkroom:ContentID=\"\(asset.id.uuidString.lowercased())\""
        if let date = asset.captureDate {
            own += " darkroom:CaptureDateSource=\"\(date.source.rawValue)\" darkroom:TimeZoneSource=\"\(date.timeZoneSource.rawValue)\""
            own += " darkroom:DateConfidence=\"\(date.confidence.rawValue)\""
        }
        own += "/></rdf:RDF></x:xmpmeta>"
        sidecar = sidecar.merging((try? XMPPacket(data: Data(own.utf8))) ?? XMPPacket())
        if let date = asset.captureDate {
            for name in dateProperties { sidecar[name] = .text(stamp(date)) }
        }
        if keepLocation, let place = asset.location, sidecar[XMPNamespace.exif, "GPSLatitude"] == nil {
            sidecar[XMPName(XMPNamespace.exif, "GPSLatitude")] = .text(coordinate(place.latitude, positive: "N", negative: "S"))
            sidecar[XMPName(XMPNamespace.exif, "GPSLongitude")] = .text(coordinate(place.longitude, positive: "E", negative: "W"))
            if let altitude = place.altitude {
                sidecar[XMPName(XMPNamespace.exif, "GPSAltitude")] = .text("\(Int((abs(altitude) * 100).rounded()))/100")
                sidecar[XMPName(XMPNamespace.exif, "GPSAltitudeRef")] = .text(altitude < 0 ? "1" : "0")
            }
        }
        return sidecar.serialized()
    }

    /// `2024-05-01T18:30:12.250+02:00` (no offset when it is unknown), as XMP writes dates.
    static func stamp(_ date: CaptureDate) -> String {
        let local = date.local
        var text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", local.year, local.month, local.day, local.hour, local.minute, local.second)
        if local.nanosecond > 0 { text += String(format: ".%03d", local.nanosecond / 1_000_000) }
        return text + CaptureDate.offsetText(date.utcOffsetSeconds)
    }

    /// `48,51.4920N`: degrees and decimal minutes, as XMP's GPSCoordinate type writes them.
    static func coordinate(_ degrees: Double, positive: String, negative: String) -> String {
        let value = abs(degrees)
        let whole = Int(value)
        return String(format: "%d,%.6f%@", whole, (value - Double(whole)) * 60, degrees < 0 ? negative : positive)
    }
}
