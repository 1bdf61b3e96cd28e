import DarkroomCore
import Foundation
import DarkroomLibrary
import DarkroomModel
import DarkroomOptions

/// Builds the gallery's entries from the run's items and the library's catalog: each photo's and
/// video's facts (date and its source, camera, place, video facts), its thumbnail and larger
/// rendition, a video's playable file, a still's motion part. Four catalog queries in all, then
/// the thumbnails' headers read on `jobs` threads.
struct EntryLoader {
    let options: GalleryOptions
    let files: LibraryFile
    let catalog: LibraryCatalog

    /// Why an item is left out of the gallery.
    struct Skipped: Error {
        var item: ItemRecord
        var reason: String
        var kind: FailureKind?
    }

    /// The entries, in capture order, and the items left out with the reason; also how many photos
    /// have no larger rendition (the larger view shows their thumbnail).
    func load(_ items: [ItemRecord], jobs: Int) throws -> (entries: [GalleryEntry], skipped: [Skipped], withoutLarge: Int) {
        let hashes = items.map(\.contentHash)
        let facts = try catalog.assets(hashes)
        let outputs = try catalog.outputs(of: hashes)
        let motionAssets = try catalog.motionParts(of: items.filter { $0.mediaKind == .photo }.map(\.contentHash))
        let motionOutputs = try catalog.outputs(of: motionAssets.values.flatMap { $0.map(\.contentHash) })

        let results = DarkroomThreads.map(count: items.count, jobs: jobs) { index in
            let item = items[index]
            let motionFiles = (motionAssets[item.contentHash] ?? []).flatMap { motionOutputs[$0.contentHash] ?? [] }.map(\.path)
            return Result {
                try entry(for: item, facts: facts[item.contentHash], outputs: (outputs[item.contentHash] ?? []).map(\.path),
                          motionFiles: motionFiles)
            }.mapError { $0 as? Skipped ?? Skipped(item: item, reason: "\($0)", kind: FailureKind.of($0)) }
        }
        var entries: [GalleryEntry] = [], skipped: [Skipped] = []
        for result in results {
            switch result {
            case .success(let entry): entries.append(entry)
            case .failure(let problem): skipped.append(problem)
            }
        }
        let withoutLarge = entries.count { $0.kind == .photo && $0.large == nil }
        return (entries.sorted(by: GalleryEntry.inOrder), skipped, withoutLarge)
    }

    /// One item's entry: its thumbnail must be there (a video's poster too); the rest is shown when present.
    private func entry(for item: ItemRecord, facts: AssetFacts?, outputs: [String], motionFiles: [String]) throws -> GalleryEntry {
        let date = facts?.captureDate ?? item.captureDate
        let id = item.id.uuidString.lowercased()
        var values = PathTemplate.dateValues(date?.local)
        values["id"] = id
        let large = try? options.large.render(values)
        let presentLarge = large.flatMap { files.exists($0) ? $0 : nil }
        let thumbnail: LibraryImage
        do {
            thumbnail = try files.image(try options.thumbnails.render(values))
        } catch {
            // Without its thumbnail, the larger rendition stands in; without either, nothing can be shown.
            guard let presentLarge, let image = try? files.image(presentLarge) else {
                throw Skipped(item: item, reason: "left out of the gallery: no thumbnail (\(error)); import it, or regenerate its thumbnails, first",
                              kind: FailureKind.of(error))
            }
            thumbnail = image
        }
        let kind = item.mediaKind
        var entry = GalleryEntry(id: id, kind: kind, date: date, camera: facts?.camera, location: facts?.location, video: facts?.video,
                                 thumbnail: thumbnail, large: presentLarge)
        let videos = outputs.filter(LibraryFile.isVideo).filter(files.exists).sorted(by: LibraryFile.playableOrder)
        if kind == .video {
            guard let playable = videos.first ?? files.relativePath(of: item.source) else {
                throw Skipped(item: item, reason: "left out of the gallery: the video has no file in the library to play", kind: nil)
            }
            entry.playable = playable
        } else {
            // A motion photo's video is the still's own output; a Live Photo's is its joined video's.
            entry.motion = videos.first ?? motionFiles.filter(LibraryFile.isVideo).filter(files.exists).sorted(by: LibraryFile.playableOrder).first
        }
        return entry
    }
}
