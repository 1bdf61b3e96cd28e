import DarkroomCore
import DarkroomSidecars
import DarkroomTimeZones
import Foundation
import DarkroomModel

/// The evidence beside the file: its sidecars, its position and the time zone there.
extension ExifDate {
    /// Reads the first XMP sidecar and the first Takeout JSON of the item (discovery lists the most
    /// trusted of each kind first). One that cannot be read is reported and ignored: the photo is
    /// dated from its own metadata.
    func readSidecars(of item: Item, into evidence: inout CaptureDateEvidence, explanation: inout DateExplanation, now: Date) {
        for sidecar in item.sidecars {
            explanation.sidecars.append(.init(path: sidecar.url.path, kind: sidecar.kind, reason: sidecar.reason))
            do {
                switch sidecar.kind {
                case ExportSidecars.xmpKind where evidence.xmpSidecar == nil:
                    let content = try XMPSidecar(contentsOf: sidecar.url)
                    evidence.xmpSidecar = NamedSidecar(name: sidecar.fileName, content: content)
                    explanation.problems += content.ignored.map { "\(sidecar.url.path): \($0): ignored" }
                case ExportSidecars.takeoutKind where evidence.takeout == nil:
                    let content = try TakeoutMetadata(contentsOf: sidecar.url, now: now)
                    evidence.takeout = NamedSidecar(name: sidecar.fileName, content: content)
                    explanation.problems += content.ignored.map { "\(sidecar.url.path): \($0): ignored" }
                default:
                    continue
                }
            } catch {
                let reason = (error as? SidecarError)?.description ?? "\(sidecar.url.path): \(error)"
                explanation.problems.append("\(reason): sidecar ignored; dated from the file's own metadata")
            }
        }
    }

    /// Where the photo was taken, and the zone there: an XMP sidecar's position (the user's latest
    /// word), Takeout's `geoData` (the place Google Photos shows, which the user may have set),
    /// the file's own (EXIF GPS, a video's ISO 6709 location), then Takeout's `geoDataExif`.
    func locate(ownLocation: GeoLocation?, evidence: inout CaptureDateEvidence, explanation: inout DateExplanation) {
        let places: [(GeoLocation?, String)] = [
            (evidence.xmpSidecar?.content.location, "XMP sidecar \(evidence.xmpSidecar?.name ?? "")"),
            (evidence.takeout?.content.geoData, "Google Takeout geoData (\(evidence.takeout?.name ?? ""))"),
            (ownLocation, evidence.video == nil ? "EXIF GPS" : "the video's location"),
            (evidence.takeout?.content.geoDataExif, "Google Takeout geoDataExif (\(evidence.takeout?.name ?? ""))"),
        ]
        guard let (location, source) = places.first(where: { $0.0 != nil }), let location else { return }
        evidence.location = location
        explanation.location = location
        explanation.locationSource = source
        do {
            let map = try TimeZoneMap.load()
            evidence.locationZone = map.timeZone(latitude: location.latitude, longitude: location.longitude)
            explanation.zoneAtLocation = evidence.locationZone?.identifier
        } catch {
            explanation.problems.append("\(error): the GPS position gives no time zone")
        }
    }
}
