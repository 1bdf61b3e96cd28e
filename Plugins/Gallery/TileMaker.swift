import DarkroomCore
import DarkroomHTML
import Foundation

/// Turns entries into grid tiles for pages in one folder of the library: every link relative to
/// that folder and percent-encoded, every caption written from the catalog's facts.
struct TileMaker {
    /// The pages' folder, library-relative (`gallery`).
    let folder: String

    /// The URL of a library file from a page in the folder.
    func link(_ path: String) -> String { URLPath.relative(fromFolder: folder, to: path) }

    /// The tile of one entry.
    func tile(_ entry: GalleryEntry) -> PhotoTile {
        let large = link(entry.large ?? entry.thumbnail.path)
        let media: PhotoTile.Media
        if entry.kind == .video, let playable = entry.playable {
            media = .video(source: link(playable), poster: large, duration: entry.video.map { CaptionText.duration($0.duration) })
        } else if let motion = entry.motion {
            media = .live(large: large, motion: link(motion))
        } else {
            media = .photo(large: large)
        }
        var tile = PhotoTile(id: "p-" + entry.id, thumbnail: link(entry.thumbnail.path), width: entry.thumbnail.width,
                             height: entry.thumbnail.height, alt: CaptionText.alt(entry), media: media,
                             title: entry.date.map { CaptionText.dateTime($0.local) } ?? "Date unknown",
                             details: CaptionText.details(entry), dateSource: CaptionText.dateSource(entry.date),
                             uncertainDate: entry.uncertainDate)
        tile.burstShots = entry.burstShots.map(self.tile)
        return tile
    }
}
