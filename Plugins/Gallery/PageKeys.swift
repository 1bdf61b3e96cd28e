import DarkroomHTML
import Foundation
import DarkroomModel

/// What each of the gallery's files is made from, written out as the digest its group is keyed by
/// (`CollectionContext.group(_:madeFrom:)`): a page whose digest is the one recorded, and whose file
/// is still in the library, is not made again. A month page's digest holds its content's (every fact
/// of its entries: dates and their sources, cameras, places, video facts, the files linked,
/// thumbnails' sizes) and its neighbours' names; the index's holds every month page's; made.html's holds
/// what other pipelines made. Each also holds `format`: the pages of a small fixed sample as this
/// build writes them, so that a change to the markup or the captions makes every page again.
struct PageKeys {
    let title: String
    let folder: String
    /// The digest of how this build writes pages (see `PageKeys.format(title:folder:)`).
    let format: String

    init(title: String, folder: String) {
        self.title = title
        self.folder = folder
        format = PageKeys.format(title: title, folder: folder)
    }

    /// The digest of what a page shows: every fact of its entries. The entries' lines are written on
    /// `jobs` threads (a page holds up to a few hundred photos).
    static func content(_ entries: [GalleryEntry], jobs: Int) -> String {
        var text = ""
        for line in DarkroomThreads.map(count: entries.count, jobs: jobs, { DigestEncoder.line(of: entries[$0]) }) { text += line + "\n" }
        return ContentHash.of(text)
    }

    /// A month page's digest: what it shows (its `content`), its place among the months, and its
    /// neighbours' names.
    func month(_ page: TimelinePage, content: String, previous: TimelinePage?, next: TimelinePage?) -> String {
        var text = "month|\(format)|\(page.file)|\(page.title)|\(page.part)/\(page.parts)|"
        text += "\(previous?.file ?? "-")|\(previous?.title ?? "-")|\(next?.file ?? "-")|\(next?.title ?? "-")|\(content)"
        return ContentHash.of(text)
    }

    /// The index's digest: each month page's digest (which holds what its card shows), by the page's
    /// file, and how many files other pipelines made.
    func index(monthDigests: [(file: String, digest: String)], madeCount: Int) -> String {
        ContentHash.of("index|\(format)|\(madeCount)|" + monthDigests.map { "\($0.file)=\($0.digest)" }.joined(separator: ","))
    }

    /// made.html's digest: every file other pipelines made, as it is shown.
    func made(_ made: [MadePage.Made]) -> String {
        ContentHash.of("made|\(format)|" + made.map { DigestEncoder.line(of: $0) }.joined(separator: "\n"))
    }

    /// The digest of a fixed text (the stylesheet, the script).
    static func text(_ text: String) -> String { ContentHash.of(text) }

    /// How this build writes pages: a month page, the index and made.html of a fixed sample (a
    /// dated photo with a camera, a place, its motion part and a burst's other shot, a video, an undated RAW+JPEG pair),
    /// rendered, and digested. Cheap: three small pages.
    static func format(title: String, folder: String) -> String {
        let tiles = TileMaker(folder: folder)
        let image = LibraryImage(path: "Thumbnails/2024/03/a.jpg", width: 320, height: 240)
        let date = LocalDateTime(year: 2024, month: 3, day: 9, hour: 10, minute: 11, second: 12).map {
            CaptureDate(local: $0, utcOffsetSeconds: 3600, source: .exifOriginal, timeZoneSource: .metadata, confidence: .high)
        }
        let uncertain = date.map { CaptureDate(local: $0.local, utcOffsetSeconds: nil, source: .fileModified, timeZoneSource: .machine, confidence: .low) }
        var photo = GalleryEntry(id: "a", kind: .photo, date: date, camera: "Camera", location: GeoLocation(latitude: 48.5, longitude: 2.25),
                                 video: nil, thumbnail: image, large: "gallery/large/2024/03/a.jpg")
        photo.motion = "Videos/2024/03/a.mov"
        photo.burstShots = [GalleryEntry(id: "d", kind: .photo, date: date, camera: "Camera", location: nil, video: nil, thumbnail: image,
                                         large: nil)]
        var video = GalleryEntry(id: "b", kind: .video, date: uncertain, camera: nil, location: nil,
                                 video: VideoFacts(duration: 61.5, codec: "hevc", bitDepth: 10, hdrTransfer: .hlg, audioCodec: "aac"),
                                 thumbnail: image, large: nil)
        video.playable = "Videos/2024/03/b.mp4"
        var pair = GalleryEntry(id: "c", kind: .photo, date: nil, camera: nil, location: nil, video: nil, thumbnail: image, large: nil)
        pair.rawPair = true
        let pages = Timeline.pages([photo, video, pair], perPage: 1)
        let made = [MadePage.Made(path: "Collages/a.jpg", pipeline: "grid", size: 1234, shown: .image(image)),
                    MadePage.Made(path: "Books/a.pdf", pipeline: "book", size: 5678, shown: .link)]
        let written = [
            MonthPage(page: pages[0], previous: nil, next: pages[1], galleryTitle: title, tiles: tiles).html,
            MonthPage(page: pages[1], previous: pages[0], next: pages[2], galleryTitle: title, tiles: tiles).html,
            MonthPage(page: pages[2], previous: pages[1], next: nil, galleryTitle: title, tiles: tiles).html,
            IndexPage(title: title, cards: IndexPage.Card.of(pages), madeCount: made.count, tiles: tiles).html,
            MadePage(galleryTitle: title, made: made, tiles: tiles).html,
        ]
        return ContentHash.of(written.joined(separator: "\n"))
    }
}
