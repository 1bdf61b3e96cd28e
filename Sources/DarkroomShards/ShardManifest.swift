import DarkroomCore
import Foundation
import Synchronization
import DarkroomLibrary
import DarkroomModel
import DarkroomReport

/// What one shard of a sharded sweep records instead of writing the catalog: its results, appended
/// as JSON lines to `<library>/.darkroom/shards/<pipeline>.<I>-of-<N>.jsonl`, each line whole or not
/// at all (a write that stops short is cut off again) and fsynced. A line torn by a kill is ended by
/// the shard's next run, so it never swallows the next record, and the reader skips and counts it.
/// `darkroom catalog merge` folds the manifests into the catalog afterwards.
///
/// Many shards share one library (often on a network filesystem, where SQLite is unsafe), so no
/// shard writes the catalog: it reads what earlier runs did from `snapshot` (the catalog as it was
/// when the sweep began, or nothing) and appends. A shard run again (a retried pod) appends again.
public final class ShardManifest: CatalogStore, Sendable {
    /// One line of a manifest.
    public enum Record: Codable, Sendable {
        case start(pipeline: String, shard: Shard, host: String, pid: Int32, at: String)
        case hashes([FileFingerprint])
        case pending([String])
        case commit(UnitCompletion)
        case finish(RunReport)
    }

    public let url: URL
    public let shard: Shard
    private let snapshot: CatalogStore?
    private let descriptor: Int32
    /// Held while a record is written, so that lines from several threads never interleave.
    private let writing = Mutex(())

    /// Opens (creating or appending to) the manifest of `shard` for the pipeline named `pipelineName`.
    public init(library: URL, pipelineName: String, shard: Shard, snapshot: CatalogStore?) throws {
        let folder = ShardManifest.folder(library: library)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        url = folder.appendingPathComponent("\(pipelineName).\(shard.index)-of-\(shard.count).jsonl")
        self.shard = shard
        self.snapshot = snapshot
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw RunError("cannot open the shard manifest \(url.path): \(LibraryFiles.errnoText())") }
        if let failure = ShardManifest.endTornLine(descriptor) {
            close(descriptor)
            throw RunError("cannot end the torn last line of the shard manifest \(url.path): \(failure)")
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Where shards write their manifests.
    public static func folder(library: URL) -> URL {
        library.appendingPathComponent(".darkroom/shards", isDirectory: true)
    }

    /// Appends one record as one line and makes it durable, or (when it cannot) leaves nothing of it.
    func append(_ record: Record) throws {
        var line = try JSONEncoder().encode(record)
        line.append(UInt8(ascii: "\n"))
        // errno is read before the lock is let go.
        let failure: String? = writing.withLock { _ in
            let end = lseek(descriptor, 0, SEEK_END)
            let written = write(line)
            if written == line.count && fsync(descriptor) == 0 { return nil }
            let reason = (0..<line.count).contains(written) && written > 0
                ? "wrote \(written) of \(line.count) bytes: \(LibraryFiles.errnoText())" : LibraryFiles.errnoText()
            // Whole or nothing: what was written of the line is cut off again.
            if end >= 0, ftruncate(descriptor, end) == 0 { _ = fsync(descriptor) }
            return reason
        }
        if let failure { throw RunError("cannot write the shard manifest \(url.path): \(failure)") }
    }

    /// Ends the last line when a killed run of the shard left it torn (no newline), so that the
    /// next record starts a line of its own; the torn line stays, and the reader counts it as
    /// unreadable. Returns why it could not, or nil.
    private static func endTornLine(_ descriptor: Int32) -> String? {
        let size = lseek(descriptor, 0, SEEK_END)
        guard size > 0 else { return size < 0 ? LibraryFiles.errnoText() : nil }
        var byte = UInt8(0)
        guard pread(descriptor, &byte, 1, size - 1) == 1 else { return LibraryFiles.errnoText() }
        guard byte != UInt8(ascii: "\n") else { return nil }
        byte = UInt8(ascii: "\n")
        return Foundation.write(descriptor, &byte, 1) == 1 && fsync(descriptor) == 0 ? nil : LibraryFiles.errnoText()
    }

    /// Writes `bytes` at the end of the manifest, as far as it can; returns how many bytes were
    /// written (errno tells why it stopped short). Faults a test injects (`FaultPoint.appending`)
    /// stop it early: a full disk, or a kill in the middle of the line.
    private func write(_ bytes: Data) -> Int {
        var limit = bytes.count
        switch FaultInjection.action(at: .appending(url.path)) {
        case .proceed: break
        case .kill: FaultInjection.killThisProcess()
        case .fail(let code):
            errno = code.rawValue
            return -1
        case .shortWrite(let count): limit = min(count, bytes.count)
        case .killAfterWriting(let count):
            _ = bytes.prefix(count).withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            FaultInjection.killThisProcess()
        }
        var done = 0
        while done < bytes.count {
            guard done < limit else {
                errno = ENOSPC
                break
            }
            let count = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + done, limit - done) }
            if count < 0 {
                if errno == EINTR { continue }
                break
            }
            done += count
        }
        return done
    }

    /// What a manifest file holds.
    public struct Contents: Sendable {
        /// Its records, in the order written.
        public var records: [Record] = []
        /// Lines that could not be read: torn by a kill or a crash, and ended by the shard's next run.
        public var unreadable = 0
        /// Whether the file ends in a torn line (its writer was killed in the middle of it), skipped.
        public var tornTail = false
    }

    /// The records of a manifest file, the lines that could not be read, and whether its last line
    /// is torn. A last line without its newline is read when it holds a whole record (only the
    /// newline was lost), and skipped as torn otherwise.
    public static func records(at url: URL) throws -> Contents {
        var lines = try Data(contentsOf: url).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // After the last newline: empty, unless the last line is torn.
        let tail = lines.removeLast()
        var contents = Contents()
        let decoder = JSONDecoder()
        for line in lines where !line.isEmpty {
            if let record = try? decoder.decode(Record.self, from: Data(line)) { contents.records.append(record) } else { contents.unreadable += 1 }
        }
        if !tail.isEmpty {
            if let record = try? decoder.decode(Record.self, from: Data(tail)) { contents.records.append(record) } else { contents.tornTail = true }
        }
        return contents
    }

    // MARK: CatalogStore

    public func beginRun(pipeline: String) throws -> Int64 {
        try append(.start(pipeline: pipeline, shard: shard, host: ProcessInfo.processInfo.hostName,
                          pid: getpid(), at: Timestamp.now()))
        return 0
    }

    public func finishRun(_ id: Int64, report: RunReport) throws { try append(.finish(report)) }

    public func cachedHash(path: String, size: Int64, mtimeNanoseconds: Int64, inode: UInt64) throws -> String? {
        try snapshot?.cachedHash(path: path, size: size, mtimeNanoseconds: mtimeNanoseconds, inode: inode)
    }

    public func rememberHashes(_ files: [FileFingerprint]) throws {
        if !files.isEmpty { try append(.hashes(files)) }
    }

    public func state(of subject: String) throws -> SubjectState { try snapshot?.state(of: subject) ?? SubjectState() }

    public func fingerprints(paths: [String]) throws -> [FileFingerprint] { try snapshot?.fingerprints(paths: paths) ?? [] }

    public func states(of subjects: [String], ofSteps steps: [String]?) throws -> [String: SubjectState] {
        try snapshot?.states(of: subjects, ofSteps: steps) ?? [:]
    }

    public func rememberedFacts(contentHashes: [String]) throws -> [String: RememberedFacts] {
        try snapshot?.rememberedFacts(contentHashes: contentHashes) ?? [:]
    }

    public func pairingFacts(contentHashes: [String]) throws -> [String: PairingFacts] {
        try snapshot?.pairingFacts(contentHashes: contentHashes) ?? [:]
    }

    public func output(at path: String) throws -> CatalogOutput? { try snapshot?.output(at: path) }

    public func outputs(atPaths paths: [String]) throws -> [CatalogOutput] { try snapshot?.outputs(atPaths: paths) ?? [] }

    public func pixelSizes(sha256s: [String]) throws -> [RecordedPixelSize] { try snapshot?.pixelSizes(sha256s: sha256s) ?? [] }
    /// What earlier runs learned (this run's shards record theirs in their manifests, not here).
    public func similarity(contentHashes: [String]?) throws -> [SimilarityRow] { try snapshot?.similarity(contentHashes: contentHashes) ?? [] }
    public func burstFacts(contentHashes: [String]) throws -> [BurstFacts] { try snapshot?.burstFacts(contentHashes: contentHashes) ?? [] }

    public func rebuiltSubjects() throws -> Set<String> { try snapshot?.rebuiltSubjects() ?? [] }
    /// None: a shard's own work is in its manifest, where no revision numbers it.
    public func revisions(contentHashes: [String]) throws -> [String: Int64]? { nil }

    /// Not kept: a shard writes no catalog, and a size is only a shortcut (the file's header says it again).
    public func rememberPixelSizes(_ sizes: [RecordedPixelSize]) throws {}

    public func assets(withContentIdentifier identifier: String) throws -> [PairedAsset] {
        try snapshot?.assets(withContentIdentifier: identifier) ?? []
    }

    public func rememberedFacts(contentHash: String) throws -> RememberedFacts? {
        try snapshot?.rememberedFacts(contentHash: contentHash)
    }

    // What a collection reads of the library: the snapshot's (a shard's own results are merged later).

    public func assets(contentHashes: [String]) throws -> [AssetFacts] { try snapshot?.assets(contentHashes: contentHashes) ?? [] }

    public func outputs(ofSubjects subjects: [String]) throws -> [CatalogOutput] { try snapshot?.outputs(ofSubjects: subjects) ?? [] }

    public func motionParts(ofStills stills: [String]) throws -> [AssetFacts] { try snapshot?.motionParts(ofStills: stills) ?? [] }

    public func collectionOutputs() throws -> [CatalogOutput] { try snapshot?.collectionOutputs() ?? [] }

    public func markPending(_ paths: [String], run: Int64) throws {
        if !paths.isEmpty { try append(.pending(paths)) }
    }

    /// Orphans are found by `catalog merge`, which sees every shard's manifest.
    public func recoverPending() throws -> [String] { [] }

    /// Appends the completion. Stale outputs are left for `catalog merge`: a collection's outputs are
    /// spread over the shards, and only the merge sees them all.
    public func commit(_ completion: UnitCompletion, run: Int64) throws -> [String] {
        try append(.commit(completion))
        return []
    }

    /// Rebuilt catalogs are adopted by single-machine runs only.
    public func adopt(contentHash: String) throws -> Int { 0 }
}
