import DarkroomCore
import Foundation
import DarkroomModel

/// An image file of the library that a page shows: its library-relative path and pixel size.
struct LibraryImage: Sendable, Hashable, Codable {
    var path: String
    var width: Int
    var height: Int
}

/// What the gallery shows of one photo or video: the catalog's facts and the library files the
/// pages link to.
struct GalleryEntry: Sendable, Encodable {
    /// The id in the library's paths (`{id}`), lower case.
    var id: String
    var kind: MediaKind
    var date: CaptureDate?
    var camera: String?
    var location: GeoLocation?
    var video: VideoFacts?
    /// The small thumbnail (a video's poster frame).
    var thumbnail: LibraryImage
    /// The larger rendition for the larger view, when there is one.
    var large: String?
    /// A video's playable file.
    var playable: String?
    /// A Live Photo's or motion photo's motion part.
    var motion: String?
    /// Whether the photo is a RAW+JPEG pair: the camera's JPEG shown, its RAW recorded with it.
    var rawPair = false
    /// Under `bursts: pick`, the burst's other shots, shown when its count is opened (capture order).
    var burstShots: [GalleryEntry] = []

    /// The month it is filed under (nil when undated).
    var month: Month? { date.map { Month(year: $0.local.year, month: $0.local.month) } }

    /// Whether the date came from a low-confidence source (the file time).
    var uncertainDate: Bool { date?.confidence == .low }

    /// `entries` with each burst's shots other than its pick folded into the pick's entry (`roles`
    /// by lower-case id); a shot whose pick is not among them stays on its own.
    static func stackingBursts(_ entries: [GalleryEntry], roles: [String: BurstRole]) -> [GalleryEntry] {
        guard !roles.isEmpty else { return entries }
        let picks = Set(roles.values.map { $0.pick.uuidString.lowercased() })
        let ids = Set(entries.map(\.id))
        var shots: [String: [GalleryEntry]] = [:]
        let shown = entries.filter { entry in
            guard let pick = roles[entry.id].map({ $0.pick.uuidString.lowercased() }), pick != entry.id,
                  ids.contains(pick) else { return true }
            shots[pick, default: []].append(entry)
            return false
        }
        return shown.map { entry in
            guard picks.contains(entry.id), let others = shots[entry.id] else { return entry }
            var entry = entry
            entry.burstShots = others
            return entry
        }
    }

    /// Capture order: by local date and time, then id (undated last).
    static func inOrder(_ a: GalleryEntry, _ b: GalleryEntry) -> Bool {
        switch (a.date?.local, b.date?.local) {
        case let (x?, y?) where x != y: return x < y
        case (nil, _?): return false
        case (_?, nil): return true
        default: return a.id < b.id
        }
    }
}

/// A calendar month, the unit of the gallery's pages.
struct Month: Hashable, Comparable, Sendable, Codable {
    var year: Int
    var month: Int

    static func < (a: Month, b: Month) -> Bool { (a.year, a.month) < (b.year, b.month) }

    /// `2024-03`, as in page names.
    var key: String { "\(year.zeroPadded(4))-\(month.zeroPadded(2))" }
}
