import Foundation

/// The IANA time zone at a point on Earth, offline, from timezone-boundary-builder's polygons with
/// the oceans' nautical zones (data licensed under the ODbL; see `Resources/NOTICE.md`).
///
/// Borders are kept to within about 65 m (polygons simplified to 0.0005°, vertices stored to
/// 1/8192°): compared with timezonefinder on the full polygons, every point more than 50 m from a
/// border gets the same zone (Benchmarks/timezones.sh). Where timezone-boundary-builder's zones
/// overlap (Asia/Urumqi inside Asia/Shanghai, disputed borders), the map gives timezonefinder's
/// answer. Points at sea get `Etc/GMT±N` zones, whose signs are POSIX's: `Etc/GMT+2` is two hours
/// *behind* UTC.
///
/// Load it once per process (`TimeZoneMap.load()`) and share it: it is immutable and thread-safe.
public final class TimeZoneMap: Sendable {
    /// The timezone-boundary-builder release the map was made from, e.g. "2026c".
    public let dataVersion: String
    /// Every zone identifier the map can answer (land zones and `Etc/GMT±N`).
    public let zoneIdentifiers: [String]
    private let file: TimeZoneMapFile

    /// The map Darkroom ships, read on the first call and shared by every later one. Looked for in
    /// `$DARKROOM_TIMEZONE_DATA`, in the resource bundle beside the executable, in
    /// `<prefix>/share/darkroom/`, then in the sources; the error lists the places tried.
    public static func load() throws(TimeZoneDataError) -> TimeZoneMap {
        try shipped.get()
    }

    /// Starts reading the shipped map on a thread of its own, so that the first photo with a GPS
    /// position does not stop to read it (about 20 ms of CPU, on a core a run's start leaves idle);
    /// `load()` waits for that read if it is still going, and gives its result.
    public static func loadInBackground() {
        Thread { _ = try? load() }.start()
    }

    private static let shipped = Result { () throws(TimeZoneDataError) -> TimeZoneMap in
        try TimeZoneMap(contentsOf: TimeZoneDataLocation.bundledFile())
    }

    /// Reads and checks a map file made by `scripts/make-timezone-data.py`.
    public init(contentsOf url: URL) throws(TimeZoneDataError) {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: url))
        } catch {
            throw .unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
        do {
            file = try TimeZoneMapFile(bytes: bytes)
        } catch {
            throw .malformed(path: url.path, reason: error.reason)
        }
        dataVersion = file.dataVersion
        zoneIdentifiers = file.zoneIdentifiers
    }

    /// The IANA identifier of the zone at a position in degrees (WGS 84, as GPS gives them), e.g.
    /// "Europe/Paris", or "Etc/GMT+2" in the mid-Atlantic. Nil when the position is not on Earth:
    /// not a number, latitude outside -90...90 or longitude outside -180...180. (0, 0) is a point
    /// at sea like any other; on the antimeridian, -180 and 180 give the same zone.
    public func zoneIdentifier(latitude: Double, longitude: Double) -> String? {
        zoneNumber(latitude: latitude, longitude: longitude).map { file.zoneIdentifiers[$0] }
    }

    /// The zone at a position as a Foundation `TimeZone` (from the system's tzdata), whose
    /// `secondsFromGMT(for:)` gives the offset in force at an instant. Nil when the position is not
    /// on Earth, or when the system's tzdata does not know the zone.
    public func timeZone(latitude: Double, longitude: Double) -> TimeZone? {
        zoneIdentifier(latitude: latitude, longitude: longitude).flatMap(TimeZone.init(identifier:))
    }

    private func zoneNumber(latitude: Double, longitude: Double) -> Int? {
        guard (-90.0...90.0).contains(latitude), (-180.0...180.0).contains(longitude) else { return nil }
        // -180 and 180 are one meridian, looked up as 180 (timezonefinder's answer there too);
        // latitude 90 belongs to the northernmost row.
        let east = longitude == -180 ? 360 : longitude + 180
        let north = latitude + 90
        let column = min(Int(east), file.columns - 1)
        let row = min(Int(north), file.rows - 1)
        let entry = file.cells[row * file.columns + column]
        if entry & TimeZoneMapFile.singleZoneFlag != 0 {
            return Int(entry & ~TimeZoneMapFile.singleZoneFlag)
        }
        let quantum = Double(file.quantum)
        return SharedCell(payload: file.payload, offset: Int(entry)).zone(
            atX: (east - Double(column)) * quantum, y: (north - Double(row)) * quantum,
            xScale: cos(latitude * .pi / 180))
    }
}
