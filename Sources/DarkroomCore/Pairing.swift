import Foundation
import Synchronization
import DarkroomLibrary
import DarkroomModel

extension Runner {
    /// Marks every video of the survey that is a Live Photo's motion part: a video whose identifier a
    /// still of this run carries (looked for among the stills of the same name, then of the same
    /// folder), or a still the catalog knows. Pairs by identifier only: a name alone joins photos
    /// taken weeks apart. An identifier the survey probed while hashing the file is taken as read;
    /// identifiers the catalog remembers are not read again; any other file a match needs is opened
    /// and probed now.
    func pairMotionParts(_ entries: inout [SurveyEntry], prober: any SourceProber, catalog: CatalogStore?) {
        let keys = PairingKeys(entries: entries, prober: prober, catalog: catalog, jobs: settings.jobs)
        defer {
            // Only what changes is written: `keys` holds the entries too, and a write makes a copy of all of them.
            for index in entries.indices {
                let key = keys[index]
                if entries[index].pairingKey != key { entries[index].pairingKey = key }
                if entries[index].probe == nil, let probe = keys.probe(index) { entries[index].probe = probe }
            }
        }
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
                stillOf[video] = (hash, entries[still].found.path)
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

        for (video, still) in stillOf {
            guard case .unique(let hash, _) = entries[video].state else { continue }
            entries[video].state = .motionPart(of: still.hash, hash: hash, stillPath: still.path)
        }
    }
}

/// The pairing identifiers of a survey's files: those the survey probed while hashing, then the
/// others read once each (on `jobs` threads) unless the catalog remembers them.
final class PairingKeys: Sendable {
    private let entries: [Runner.SurveyEntry]
    private let prober: any SourceProber
    private let catalog: CatalogStore?
    private let jobs: Int
    /// The identifiers known so far (nil inside: the file has none), by entry index.
    private let known: Mutex<[Int: String?]>
    /// The probes made here (of files the survey did not open), by entry index.
    private let probed = Mutex<[Int: ProbedSource]>([:])

    init(entries: [Runner.SurveyEntry], prober: any SourceProber, catalog: CatalogStore?, jobs: Int) {
        self.entries = entries
        self.prober = prober
        self.catalog = catalog
        self.jobs = jobs
        var known: [Int: String?] = [:]
        for (index, entry) in entries.enumerated() {
            guard case .unique = entry.state, let probe = entry.probe else { continue }
            known[index] = .some(probe.pairingKey)
        }
        self.known = Mutex(known)
    }

    /// The identifier of entry `index`, once read.
    subscript(index: Int) -> String? {
        known.withLock { $0[index] ?? nil }
    }

    /// What probing entry `index` here found, when it was probed here.
    func probe(_ index: Int) -> ProbedSource? {
        probed.withLock { $0[index] }
    }

    /// Reads the identifiers of `indices` not read yet.
    func read(_ indices: [Int]) {
        let todo = known.withLock { known in indices.filter { known[$0] == nil } }
        DarkroomThreads.forEach(count: todo.count, jobs: jobs) { position in
            let index = todo[position]
            let entry = self.entries[index]
            guard case .unique(let hash, _) = entry.state else { return }
            let kind = MediaKind(fileName: entry.found.name)
            // A video the catalog knows was read when it was imported (its identifier, or none, is
            // remembered); a still may have been imported by a pipeline that did not look.
            let remembered = (try? self.catalog?.pairingFacts(contentHash: hash)) ?? nil
            let key: String?
            if let remembered, remembered.contentIdentifier != nil || remembered.mediaKind == .video {
                key = remembered.contentIdentifier
            } else {
                let probe = self.prober.probe(entry.found.url, kind: kind)
                if let probe { self.probed.withLock { $0[index] = probe } }
                key = probe?.pairingKey
            }
            self.known.withLock { $0[index] = .some(key) }
        }
    }
}
