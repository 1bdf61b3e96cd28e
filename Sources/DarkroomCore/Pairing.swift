import Foundation
import Synchronization
import DarkroomLibrary
import DarkroomModel

/// Reads the identifier that ties a still to its video: Apple's Live Photo content identifier (a
/// still's maker note, a MOV's `com.apple.quicktime.content.identifier`). A stage that publishes
/// motion parts supplies one (`Stage.pairing`); the runner pairs files by it before anything runs.
public protocol PairingReader: Sendable {
    /// The identifier in `file` (a still or a video), or nil when it has none or cannot be read.
    func pairingKey(of file: URL, kind: MediaKind) -> String?
}

extension Runner {
    /// Marks every video of the survey that is a Live Photo's motion part: a video whose identifier a
    /// still of this run carries (looked for among the stills of the same name, then of the same
    /// folder), or a still the catalog knows. Pairs by identifier only: a name alone joins photos
    /// taken weeks apart. Identifiers the catalog remembers are not read again.
    func pairMotionParts(_ entries: inout [SurveyEntry], reader: any PairingReader, catalog: CatalogStore?) {
        let keys = PairingKeys(entries: entries, reader: reader, catalog: catalog, jobs: settings.jobs)
        let videos = entries.indices.filter { entries[$0].isOriginal(of: .video) }
        guard !videos.isEmpty else { return }
        keys.read(videos)

        // Stills by folder, and by folder and name without extension.
        var byFolder: [String: [Int]] = [:], byStem: [String: [Int]] = [:]
        for index in entries.indices where entries[index].isOriginal(of: .photo) {
            let url = entries[index].found.url
            let folder = url.deletingLastPathComponent().path
            byFolder[folder, default: []].append(index)
            byStem[folder + "/" + url.deletingPathExtension().lastPathComponent.lowercased(), default: []].append(index)
        }
        func stem(_ index: Int) -> String {
            let url = entries[index].found.url
            return url.deletingLastPathComponent().path + "/" + url.deletingPathExtension().lastPathComponent.lowercased()
        }
        var stillOf: [Int: (hash: String, path: String)] = [:]
        func match(_ candidates: (Int) -> [Int]) {
            let open = videos.filter { stillOf[$0] == nil && keys[$0] != nil }
            keys.read(Array(Set(open.flatMap(candidates))).sorted())
            for video in open {
                guard let still = candidates(video).first(where: { keys[$0] == keys[video] }),
                      case .unique(let hash, _) = entries[still].state else { continue }
                stillOf[video] = (hash, entries[still].found.url.path)
            }
        }
        match { byStem[stem($0)] ?? [] }
        // A still already in the library, then any still of the same folder.
        for video in videos where stillOf[video] == nil {
            guard let key = keys[video], let catalog,
                  let still = (try? catalog.assets(withContentIdentifier: key))?.first(where: { $0.mediaKind == .photo }) else { continue }
            stillOf[video] = (still.contentHash, still.originalPath)
        }
        match { byFolder[entries[$0].found.url.deletingLastPathComponent().path] ?? [] }

        for index in entries.indices { entries[index].pairingKey = keys[index] }
        for (video, still) in stillOf {
            guard case .unique(let hash, _) = entries[video].state else { continue }
            entries[video].state = .motionPart(of: still.hash, hash: hash, stillPath: still.path)
        }
    }
}

/// The pairing identifiers of a survey's files, read once each (on `jobs` threads) unless the
/// catalog remembers them.
final class PairingKeys: Sendable {
    private let entries: [Runner.SurveyEntry]
    private let reader: any PairingReader
    private let catalog: CatalogStore?
    private let jobs: Int
    /// The identifiers read so far (nil inside: the file has none), by entry index.
    private let known = Mutex<[Int: String?]>([:])

    init(entries: [Runner.SurveyEntry], reader: any PairingReader, catalog: CatalogStore?, jobs: Int) {
        self.entries = entries
        self.reader = reader
        self.catalog = catalog
        self.jobs = jobs
    }

    /// The identifier of entry `index`, once read.
    subscript(index: Int) -> String? {
        known.withLock { $0[index] ?? nil }
    }

    /// Reads the identifiers of `indices` not read yet.
    func read(_ indices: [Int]) {
        let todo = known.withLock { known in indices.filter { known[$0] == nil } }
        DarkroomThreads.forEach(count: todo.count, jobs: jobs) { position in
            let index = todo[position]
            let entry = self.entries[index]
            guard case .unique(let hash, _) = entry.state else { return }
            let kind = MediaKind(fileName: entry.found.url.lastPathComponent)
            // A video the catalog knows was read when it was imported (its identifier, or none, is
            // remembered); a still may have been imported by a pipeline that did not look.
            let remembered = (try? self.catalog?.rememberedFacts(contentHash: hash)) ?? nil
            let key: String?
            if let remembered, remembered.contentIdentifier != nil || remembered.mediaKind == .video {
                key = remembered.contentIdentifier
            } else {
                key = self.reader.pairingKey(of: entry.found.url, kind: kind)
            }
            self.known.withLock { $0[index] = .some(key) }
        }
    }
}
