import Foundation
import DarkroomModel
import DarkroomReport

/// The narrow store under a catalog: its tables' rows, read and written in transactions, and
/// nothing else. It knows no rule of the catalog (which outputs are stale on commit, how dates and
/// other facts merge, what a listing returns and in what order, adoption, pending notes): those
/// are `RowCatalog`'s, computed in Swift once for every store. The SQLite `Catalog` and
/// `PostgresCatalog` each implement only this.
///
/// Every lookup is one query however many keys it is given, and every write takes all its rows at
/// once, so that a rule over 100,000 rows costs a few queries, not 100,000.
public protocol CatalogRows: Sendable {
    /// Runs `body` to read rows. The SQLite store reads one snapshot (a read transaction); the
    /// PostgreSQL one runs each statement as it comes (READ COMMITTED), so a rule reads what it
    /// must see as one state in one statement, or inside `write`.
    func read<T>(_ body: (any CatalogRowReader) throws -> T) throws -> T
    /// Runs `body` in one write transaction: all of its writes happen, or (when it throws) none.
    /// The SQLite store takes the write lock first; the PostgreSQL one locks the asset rows it
    /// reads, so that a row read, merged and written back is not changed by another writer meanwhile.
    func write<T>(_ body: (any CatalogRowWriter) throws -> T) throws -> T
    /// How many reads the store runs at once, each on a connection of its own (1: one at a time).
    var concurrentReads: Int { get }
    /// Runs `body` to read rows, on a connection beside the writer when one is free: a slice of a bulk
    /// lookup, read at once with the others. (Every other read stays on the writer's connection, whose
    /// pages are current after its own commits: an import reading a photo at a time on a connection
    /// beside it re-read pages after every commit and took a fifth longer.)
    func readBeside<T>(_ body: (any CatalogRowReader) throws -> T) throws -> T
    /// Whether the store numbers each asset's changes (`CatalogRowReader.revisions`): the SQLite
    /// store does, by triggers; a store that does not answers no revisions, and its readers read
    /// whatever they show again.
    var keepsRevisions: Bool { get }
}

extension CatalogRows {
    public var concurrentReads: Int { 1 }

    public var keepsRevisions: Bool { false }

    public func readBeside<T>(_ body: (any CatalogRowReader) throws -> T) throws -> T { try read(body) }

    /// The rows `lookup` reads for `keys`: in one read, or, for many keys in a store that reads on
    /// several connections at once, in one read a slice of them, the slices at once (a re-run over
    /// 100,000 photos asks about 100,000 paths and photos at a time, and turning rows into values
    /// takes longer than SQLite's lookups). Each key's rows come from one read.
    public func read<Row: Sendable>(slicing keys: [String],
                                    _ lookup: @escaping @Sendable (any CatalogRowReader, [String]) throws -> [Row]) throws -> [Row] {
        let slices = min(concurrentReads, keys.count / Self.smallestSlice)
        guard slices > 1 else { return try read { try lookup($0, keys) } }
        let size = (keys.count + slices - 1) / slices
        let slicesRead = DarkroomThreads.map(count: slices, jobs: slices) { slice in
            Result { try self.readBeside { try lookup($0, Array(keys[(slice * size)..<min(keys.count, (slice + 1) * size)])) } }
        }
        return try slicesRead.flatMap { try $0.get() }
    }

    /// Below this many keys a slice is not worth a thread.
    private static var smallestSlice: Int { 2_000 }
}

/// Reads rows, inside a transaction of `CatalogRows`.
public protocol CatalogRowReader {
    /// The assets a lookup matches, in no particular order.
    func assets(_ lookup: AssetLookup) throws -> [AssetRow]
    /// The original paths of these assets (those the catalog has), by content hash.
    func originalPaths(contentHashes: [String]) throws -> [String: String]
    /// Every camera name assets record, each once, in no particular order.
    func cameras() throws -> [String]
    /// The outputs a lookup matches, in no particular order.
    func outputs(_ lookup: OutputLookup) throws -> [OutputRow]
    /// The done units of these subjects (of these steps alone when given), in no particular order.
    func units(ofSubjects subjects: [String], steps: [String]?) throws -> [UnitRow]
    /// The remembered fingerprints of these paths, in no particular order.
    func fileStats(paths: [String]) throws -> [FileFingerprint]
    /// Every run's id and pipeline, in no particular order.
    func runs() throws -> [RunRow]
    /// The remembered pixel sizes of these SHA-256s, in no particular order.
    func pixelSizes(sha256s: [String]) throws -> [RecordedPixelSize]
    /// The similarity facts of these photos (every photo's when nil), in no particular order.
    func similarity(contentHashes: [String]?) throws -> [SimilarityRow]
    /// What pairing needs of these photos and videos (those the catalog has), by content hash, in no
    /// particular order: only the columns, not whole rows.
    func pairingFacts(contentHashes: [String]) throws -> [(contentHash: String, facts: PairingFacts)]
    /// What burst grouping needs of these photos (those the catalog has), in no particular order.
    func burstFacts(contentHashes: [String]) throws -> [BurstFacts]
    /// The revisions of these assets that changed since revisions were kept (an asset not changed
    /// since is absent), in no particular order.
    func revisions(contentHashes: [String]) throws -> [AssetRevision]
}

extension CatalogRowReader {
    /// A store that keeps no revisions has none to read.
    public func revisions(contentHashes: [String]) throws -> [AssetRevision] { [] }

    /// The original paths of these assets, from their whole rows (a store may read only the column).
    public func originalPaths(contentHashes: [String]) throws -> [String: String] {
        Dictionary(try assets(.contentHashes(contentHashes)).map { ($0.contentHash, $0.originalPath) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Reads and writes rows, inside a write transaction of `CatalogRows`.
public protocol CatalogRowWriter: CatalogRowReader {
    /// Adds a run (its start time is now, by the store's clock) and returns its id.
    func insertRun(pipeline: String) throws -> Int64
    /// Records how a run ended (its finish time is now) and its failures.
    func finishRun(_ outcome: RunOutcome, failures: [RunReport.Failure]) throws
    /// Adds an asset; returns false, writing nothing, when one with its content hash exists.
    func insert(_ asset: AssetRow) throws -> Bool
    /// Writes every column of the existing asset with `asset`'s content hash.
    func update(_ asset: AssetRow) throws
    /// Adds outputs, each replacing any at its path (each path once).
    func put(_ outputs: [OutputRow]) throws
    /// Removes the outputs at these paths.
    func deleteOutputs(paths: [String]) throws
    /// Adds done units, each replacing any of its step and subject (each step and subject once).
    func put(_ units: [UnitRow]) throws
    /// Removes the units of these steps of one subject.
    func deleteUnits(subject: String, steps: [String]) throws
    /// Adds fingerprints, each replacing any of its path (each path once).
    func put(_ files: [FileFingerprint]) throws
    /// Adds pixel sizes, each replacing any of its SHA-256 (each SHA-256 once).
    func put(_ sizes: [RecordedPixelSize]) throws
    /// Adds similarity facts, each replacing any of its content hash (each content hash once).
    func put(_ similarity: [SimilarityRow]) throws
    /// Adds pending notes, each replacing any of its path (each path once).
    func put(_ notes: [PendingNote]) throws
    /// Removes the pending notes of these paths.
    func deletePending(paths: [String]) throws
    /// Removes the pending notes in `scope` and returns their paths.
    func takePending(_ scope: PendingScope) throws -> [String]
}

/// Which assets a lookup reads.
public enum AssetLookup: Sendable, Hashable {
    case contentHashes([String])
    /// By their `id` column (lower-case UUIDs).
    case ids([String])
    case originalPaths([String])
    /// Those whose original path begins with exactly these characters.
    case originalPathPrefix(String)
    /// Those whose camera is exactly one of these names.
    case cameras([String])
    case contentIdentifiers([String])
    /// Those whose `motion_of` is one of these stills' content hashes.
    case motionOf([String])
    case all
}

/// Which outputs a lookup reads.
public enum OutputLookup: Sendable, Hashable {
    case paths([String])
    case subjects([String])
    /// Those of these subjects made by these steps.
    case subjectsOfSteps([String], steps: [String])
    /// Those whose subject begins with exactly these characters.
    case subjectPrefix(String)
    case all
}

/// Which pending notes `takePending` takes.
public enum PendingScope: Sendable, Hashable {
    /// The notes no running job owns: those made outside any job, and (where there are jobs) those of
    /// jobs that have ended.
    case unowned
    /// The notes of one job of a work queue.
    case job(Int64)
}
