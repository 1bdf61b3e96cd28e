import DarkroomCore
import Foundation
import Synchronization
import DarkroomLibrary
import DarkroomModel
import DarkroomOptions

/// Builds the gallery's entries from the run's items and the library's catalog: each photo's and
/// video's facts (date and its source, camera, place, video facts), its thumbnail and larger
/// rendition, a video's playable file, a still's motion part. What the catalog holds of a month's
/// photos is read in a few lookups (`read`), and their entries made from it (`load`), so that
/// the gallery reads the next month while it makes one; a thumbnail's pixel size is the one the
/// catalog remembers for its bytes, and only a thumbnail it does not know (new, or remade) is
/// opened to read its header, on `jobs` threads, and remembered.
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

    /// What the catalog holds for some items' entries, read by `read(_:)`: their facts, outputs and
    /// motion parts, where their thumbnails are, and the pixel sizes remembered for them.
    struct CatalogReads: Sendable {
        fileprivate var facts: [String: AssetFacts]
        fileprivate var outputs: [String: [CatalogOutput]]
        fileprivate var motionAssets: [String: [AssetFacts]]
        fileprivate var motionOutputs: [String: [CatalogOutput]]
        fileprivate var ids: [String]
        fileprivate var linked: [(thumbnail: Result<String, Error>, large: String?)]
        fileprivate var thumbnails: [CatalogOutput?]
        fileprivate var sizes: [String: RecordedPixelSize]
    }

    /// The same loader, noting in `notes` the folder of every library file its entries look for.
    func noting(_ notes: FolderNotes) -> EntryLoader {
        EntryLoader(options: options, files: files.noting(notes), catalog: catalog)
    }

    /// Reads what the catalog holds for `items`' entries, in a few lookups.
    func read(_ items: [ItemRecord]) throws -> CatalogReads {
        let hashes = items.map(\.contentHash)
        let facts = try catalog.assets(hashes)
        let outputs = try catalog.outputs(of: hashes)
        let motionAssets = try catalog.motionParts(of: items.filter { $0.mediaKind == .photo }.map(\.contentHash))
        let motionOutputs = try catalog.outputs(of: motionAssets.values.flatMap { $0.map(\.contentHash) })
        // Each thumbnail's catalogued bytes, and the sizes remembered for them.
        let ids = items.map { $0.id.uuidString.lowercased() }
        let linked = items.indices.map { links(for: items[$0], id: ids[$0], facts: facts[items[$0].contentHash]) }
        let thumbnails = items.indices.map { index in
            (try? linked[index].thumbnail.get()).flatMap { path in outputs[items[index].contentHash]?.first { $0.path == path } }
        }
        let sizes = try catalog.pixelSizes(sha256s: Array(Set(thumbnails.compactMap { $0?.sha256 })))
        return CatalogReads(facts: facts, outputs: outputs, motionAssets: motionAssets, motionOutputs: motionOutputs, ids: ids,
                            linked: linked, thumbnails: thumbnails, sizes: sizes)
    }

    /// The entries of `items` (what `read(items)` read of them), in capture order, and the items left
    /// out with the reason; also how many photos have no larger rendition (the larger view shows their thumbnail).
    func load(_ items: [ItemRecord], reads: CatalogReads, jobs: Int) throws -> (entries: [GalleryEntry], skipped: [Skipped], withoutLarge: Int) {
        let learned = Mutex<[RecordedPixelSize]>([])
        let results = DarkroomThreads.map(count: items.count, jobs: jobs) { index in
            let item = items[index]
            let parts = reads.motionAssets[item.contentHash] ?? []
            let motionFiles = parts.flatMap { reads.motionOutputs[$0.contentHash] ?? [] }.map(\.path)
            // A photo among a still's parts is the RAW of a RAW+JPEG pair (kept or not).
            let rawPair = parts.contains { $0.mediaKind == .photo }
            let thumbnail = reads.thumbnails[index]
            return Result {
                try entry(for: item, id: reads.ids[index], facts: reads.facts[item.contentHash], links: reads.linked[index],
                          outputs: (reads.outputs[item.contentHash] ?? []).map(\.path), motionFiles: motionFiles, rawPair: rawPair,
                          recordedSize: thumbnail.flatMap { reads.sizes[$0.sha256] }) { image in
                    guard let thumbnail, image.path == thumbnail.path else { return }
                    learned.withLock { $0.append(RecordedPixelSize(sha256: thumbnail.sha256, width: image.width, height: image.height)) }
                }
            }.mapError { $0 as? Skipped ?? Skipped(item: item, reason: "\($0)", kind: FailureKind.of($0)) }
        }
        try catalog.rememberPixelSizes(learned.withLock { $0 })
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

    /// Where an item (`id`: its `{id}`) has its thumbnail and larger rendition in the library: the
    /// thumbnail's, or why its template cannot be filled in; the larger one's, or nil.
    private func links(for item: ItemRecord, id: String, facts: AssetFacts?) -> (thumbnail: Result<String, Error>, large: String?) {
        var values = PathTemplate.dateValues((facts?.captureDate ?? item.captureDate)?.local)
        values["id"] = id
        return (Result { try options.thumbnails.render(values) }, try? options.large.render(values))
    }

    /// One item's entry (`links`: where its thumbnail and larger rendition are): its thumbnail must be
    /// there (a video's poster too); the rest is shown when present. The thumbnail's size is `recordedSize` when the catalog remembers one for its bytes;
    /// one read from a header is handed to `read`.
    private func entry(for item: ItemRecord, id: String, facts: AssetFacts?, links: (thumbnail: Result<String, Error>, large: String?),
                       outputs: [String], motionFiles: [String], rawPair: Bool, recordedSize: RecordedPixelSize?,
                       read: (LibraryImage) -> Void) throws -> GalleryEntry {
        let date = facts?.captureDate ?? item.captureDate
        let (thumbnailPath, large) = links
        let presentLarge = large.flatMap { files.exists($0) ? $0 : nil }
        let thumbnail: LibraryImage
        do {
            let thumbnailPath = try thumbnailPath.get()
            if let recordedSize, files.exists(thumbnailPath) {
                thumbnail = LibraryImage(path: thumbnailPath, width: recordedSize.width, height: recordedSize.height)
            } else {
                thumbnail = try files.image(thumbnailPath)
                read(thumbnail)
            }
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
        entry.rawPair = rawPair
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
