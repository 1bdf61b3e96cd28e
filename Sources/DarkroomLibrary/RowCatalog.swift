import Foundation
import DarkroomModel
import DarkroomReport

/// A catalog whose rules are computed here, in Swift, over the rows of a `CatalogRows` store: the
/// SQLite `Catalog` and `PostgresCatalog` conform, and get every `CatalogStore` and
/// `CorrectableCatalog` method from these extensions, so that the two cannot drift apart.
///
/// Where each rule lives: runs and the hash cache here; what a commit records and retracts,
/// adoption and pending notes in `RowCatalog+Commit`; how facts and dates merge in `AssetRow+Facts`;
/// what listings return, and in what order, in `RowCatalog+Listing`.
public protocol RowCatalog: CorrectableCatalog {
    /// The store of the catalog's rows.
    var rows: any CatalogRows { get }
}

extension RowCatalog {
    // MARK: Runs

    /// Records the start of a run and returns its id.
    public func beginRun(pipeline: String) throws -> Int64 {
        try rows.write { try $0.insertRun(pipeline: pipeline) }
    }

    /// Records how a run ended (`ok`, or `failures` when any file failed), with its failures.
    public func finishRun(_ id: Int64, report: RunReport) throws {
        let outcome = RunOutcome(id: id, processed: report.processed, skipped: report.skipped, duplicates: report.duplicates,
                                 failed: report.failed, status: report.failures.isEmpty ? "ok" : "failures")
        try rows.write { try $0.finishRun(outcome, failures: report.failures) }
    }

    /// The pipeline names runs recorded, the most recently used first, each once.
    public func recordedPipelines() throws -> [String] {
        var latest: [String: Int64] = [:]
        for run in try rows.read({ try $0.runs() }) { latest[run.pipeline] = max(latest[run.pipeline] ?? run.id, run.id) }
        return latest.sorted { $0.value > $1.value }.map(\.key)
    }

    // MARK: Hash cache

    /// The content hash remembered for a file whose path, size, mtime and inode are unchanged.
    public func cachedHash(path: String, size: Int64, mtimeNanoseconds: Int64, inode: UInt64) throws -> String? {
        try fingerprints(paths: [path]).first { $0.path == path && $0.holds(size: size, mtimeNanoseconds: mtimeNanoseconds, inode: inode) }?.hash
    }

    /// The fingerprints remembered for these paths, in one lookup.
    public func fingerprints(paths: [String]) throws -> [FileFingerprint] {
        guard !paths.isEmpty else { return [] }
        return try rows.read(slicing: paths) { try $0.fileStats(paths: $1) }
    }

    /// Remembers hashes so that the next run need not read unchanged files (the last one wins for a path).
    public func rememberHashes(_ files: [FileFingerprint]) throws {
        let files = Self.lastOfEach(files, by: \.path)
        guard !files.isEmpty else { return }
        try rows.write { try $0.put(files) }
    }

    // MARK: Revisions

    /// The assets' revisions, in one lookup (sliced over the store's connections); nil when the store keeps none.
    public func revisions(contentHashes: [String]) throws -> [String: Int64]? {
        guard rows.keepsRevisions else { return nil }
        guard !contentHashes.isEmpty else { return [:] }
        let found = try rows.read(slicing: contentHashes) { try $0.revisions(contentHashes: $1) }
        return Dictionary(found.map { ($0.contentHash, $0.revision) }, uniquingKeysWith: max)
    }

    // MARK: Pixel sizes

    /// The pixel sizes remembered for these SHA-256s, in one lookup.
    public func pixelSizes(sha256s: [String]) throws -> [RecordedPixelSize] {
        guard !sha256s.isEmpty else { return [] }
        return try rows.read { try $0.pixelSizes(sha256s: sha256s) }
    }

    /// Remembers pixel sizes in one transaction (the last one wins for a SHA-256).
    public func rememberPixelSizes(_ sizes: [RecordedPixelSize]) throws {
        let sizes = Self.lastOfEach(sizes, by: \.sha256)
        guard !sizes.isEmpty else { return }
        try rows.write { try $0.put(sizes) }
    }

    // MARK: Similarity

    /// The similarity facts of these photos (every photo's when nil), in one lookup.
    public func similarity(contentHashes: [String]? = nil) throws -> [SimilarityRow] {
        if contentHashes?.isEmpty == true { return [] }
        return try rows.read { try $0.similarity(contentHashes: contentHashes) }
    }

    /// What burst grouping needs of these photos, in one lookup (a slice at a time for many).
    public func burstFacts(contentHashes: [String]) throws -> [BurstFacts] {
        guard !contentHashes.isEmpty else { return [] }
        return try rows.read(slicing: contentHashes) { try $0.burstFacts(contentHashes: $1) }
    }

    /// Records similarity facts learned outside a run (`darkroom duplicates` hashing the thumbnails
    /// of photos imported before fingerprints were made), merged over what the catalog has.
    public func rememberSimilarity(_ facts: [SimilarityRow]) throws {
        let facts = Self.lastOfEach(facts, by: \.contentHash)
        guard !facts.isEmpty else { return }
        try rows.write { try Self.mergeSimilarity(facts, in: $0) }
    }

    // MARK: Helpers

    /// The last element for each key, in first-seen key order (a store writes each key once).
    static func lastOfEach<T>(_ elements: [T], by key: (T) -> String) -> [T] {
        var index: [String: Int] = [:]
        var result: [T] = []
        for element in elements {
            if let at = index[key(element)] { result[at] = element } else { index[key(element)] = result.count; result.append(element) }
        }
        return result
    }
}

extension [String] {
    /// Sorted by their UTF-8 bytes, as SQLite's default collation and PostgreSQL's `COLLATE "C"` sort.
    func sortedByBytes() -> [String] { sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
}
