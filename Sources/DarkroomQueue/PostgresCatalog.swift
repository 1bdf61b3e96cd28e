import DarkroomCore
import Foundation
import PostgresNIO
import DarkroomLibrary
import DarkroomModel
import DarkroomReport

/// A library's catalog in PostgreSQL, shared by a fleet of workers: the same tables and the same
/// meaning as the SQLite `Catalog`, so that a run behaves the same against either.
///
/// One database holds one library's catalog; `meta` records which. Pending notes made outside a job
/// (`markPending`) are separate from those of jobs (`forJob`), so a plain run's `recoverPending`
/// never removes files a worker may still be publishing.
public final class PostgresCatalog: CatalogStore {
    let session: PostgresSession
    /// The library this catalog describes.
    public let library: URL

    /// The database holds another library's catalog.
    public struct WrongLibrary: RefusalError, CustomStringConvertible {
        /// The library the database records.
        public var recorded: String
        /// The library that was asked for.
        public var library: String
        /// What went wrong, for messages.
        public var description: String { "this database is the catalog of \(recorded), not \(library)" }
    }

    /// Migrates the database, then claims it for `library` (or checks that it is `library`'s).
    public init(session: PostgresSession, library: URL) throws {
        self.session = session
        self.library = library
        try QueueSchema.migrate(session)
        let path = PostgresCatalog.canonicalPath(library)
        let recorded = try session.transaction { () throws -> String in
            try session.execute("INSERT INTO meta (key, value) VALUES ('library', \(path)) ON CONFLICT (key) DO NOTHING")
            return try session.query("SELECT value FROM meta WHERE key = 'library'")[0].decode(String.self)
        }
        guard recorded == path else { throw WrongLibrary(recorded: recorded, library: path) }
    }

    /// Opens the catalog of `library` in `session`'s database only to read it: no migration, no
    /// write, only SELECTs (what `catalog verify` needs). Returns nil when the database holds no
    /// catalog yet; throws `WrongLibrary` when it is another library's.
    public static func openReadOnly(session: PostgresSession, library: URL) throws -> PostgresCatalog? {
        guard let exists = try session.query("SELECT to_regclass('meta') IS NOT NULL").first, try exists.decode(Bool.self),
              let row = try session.query("SELECT value FROM meta WHERE key = 'library'").first else { return nil }
        let recorded = try row.decode(String.self)
        let path = canonicalPath(library)
        guard recorded == path else { throw WrongLibrary(recorded: recorded, library: path) }
        return PostgresCatalog(unmigrated: session, library: library)
    }

    private init(unmigrated session: PostgresSession, library: URL) {
        self.session = session
        self.library = library
    }

    /// The absolute path `meta` records for a library (no `.`, `..` or trailing slash).
    static func canonicalPath(_ library: URL) -> String {
        let path = library.standardizedFileURL.path
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// A view for one claimed job: its `commit` also marks the job done, in the same transaction and
    /// only while the job's lease is still this worker's (else it throws `LeaseLost` and writes
    /// nothing); its pending notes belong to the job, and its `recoverPending` names the files an
    /// earlier attempt at the job left unrecorded. Everything else is this catalog's.
    public func forJob(_ job: ClaimedJob) -> CatalogStore {
        JobCatalog(catalog: self, job: job)
    }

    // MARK: Runs

    /// Records the start of a run and returns its id.
    public func beginRun(pipeline: String) throws -> Int64 {
        try session.query("INSERT INTO runs (pipeline) VALUES (\(pipeline)) RETURNING id")[0].decode(Int64.self)
    }

    /// Records how a run ended, with its failures.
    public func finishRun(_ id: Int64, report: RunReport) throws {
        try session.transaction {
            try session.execute("""
                UPDATE runs SET finished_at = now(), processed = \(report.processed), skipped = \(report.skipped),
                    duplicates = \(report.duplicates), failed = \(report.failed),
                    status = \(report.failures.isEmpty ? "ok" : "failures")
                WHERE id = \(id)
                """)
            guard !report.failures.isEmpty else { return }
            try session.execute("""
                INSERT INTO failures (run_id, path, step, reason)
                SELECT \(id), path, step, reason
                FROM unnest(\(report.failures.map(\.path)), \(report.failures.map(\.step)), \(report.failures.map(\.reason)))
                    AS f(path, step, reason)
                """)
        }
    }

    // MARK: Hash cache

    /// The content hash remembered for a file whose path, size, mtime and inode are unchanged.
    public func cachedHash(path: String, size: Int64, mtimeNanoseconds: Int64, inode: UInt64) throws -> String? {
        try session.query("""
            SELECT content_hash FROM file_stats
            WHERE path = \(path) AND size = \(size) AND mtime_ns = \(mtimeNanoseconds) AND inode = \(Int64(bitPattern: inode))
            """).first?.decode(String.self)
    }

    /// Remembers hashes so that the next run need not read unchanged files (the last one wins for a path).
    public func rememberHashes(_ files: [FileFingerprint]) throws {
        let files = PostgresCatalog.lastOfEach(files, by: \.path)
        guard !files.isEmpty else { return }
        try session.execute("""
            INSERT INTO file_stats (path, size, mtime_ns, inode, content_hash)
            SELECT * FROM unnest(\(files.map(\.path)), \(files.map(\.size)), \(files.map(\.mtimeNanoseconds)),
                                 \(files.map { Int64(bitPattern: $0.inode) }), \(files.map(\.hash)))
            ON CONFLICT (path) DO UPDATE SET size = EXCLUDED.size, mtime_ns = EXCLUDED.mtime_ns,
                inode = EXCLUDED.inode, content_hash = EXCLUDED.content_hash
            """)
    }

    // MARK: Units and outputs

    /// The done units and published outputs of one subject.
    public func state(of subject: String) throws -> SubjectState {
        try session.transaction {
            var state = SubjectState()
            for row in try session.query("SELECT step, unit_key FROM units WHERE subject = \(subject)") {
                let (step, key) = try row.decode((String, String).self)
                state.unitKeys[step] = key
            }
            state.outputs = try session.query("""
                SELECT path, step, subject, size, sha256 FROM outputs WHERE subject = \(subject) ORDER BY path
                """).map(PostgresCatalog.output)
            return state
        }
    }

    /// The catalogued output at a library-relative path, if any.
    public func output(at path: String) throws -> CatalogOutput? {
        try session.query("""
            SELECT path, step, subject, size, sha256, assets.original_path FROM outputs
            LEFT JOIN assets ON assets.content_hash = outputs.subject WHERE path = \(path)
            """).first.map { row in
            let (path, step, subject, size, sha256, source) = try row.decode((String, String, String, Int64, String, String?).self)
            return CatalogOutput(path: path, step: step, subject: subject, size: size, sha256: sha256, sourcePath: source)
        }
    }

    /// Every published file, by path (for `catalog verify`).
    public func allOutputs() throws -> [CatalogOutput] {
        try session.query("SELECT path, step, subject, size, sha256 FROM outputs ORDER BY path").map(PostgresCatalog.output)
    }

    static func output(_ row: PostgresRow) throws -> CatalogOutput {
        let (path, step, subject, size, sha256) = try row.decode((String, String, String, Int64, String).self)
        return CatalogOutput(path: path, step: step, subject: subject, size: size, sha256: sha256)
    }

    /// The capture date and size remembered for a photo.
    public func rememberedFacts(contentHash: String) throws -> RememberedFacts? {
        guard let row = try session.query("""
            SELECT capture_json, width, height, content_identifier, motion_of, media_kind FROM assets WHERE content_hash = \(contentHash)
            """).first
        else { return nil }
        let (json, width, height, identifier, motionOf, kind) = try row.decode((String?, Int?, Int?, String?, String?, String).self)
        let date = json.flatMap { try? JSONDecoder().decode(CaptureDate.self, from: Data($0.utf8)) }
        return RememberedFacts(captureDate: date, width: width, height: height, contentIdentifier: identifier, motionOf: motionOf,
                               mediaKind: MediaKind(rawValue: kind) ?? .photo)
    }

    /// The photos and videos that carry Apple's Live Photo identifier `identifier`.
    public func assets(withContentIdentifier identifier: String) throws -> [PairedAsset] {
        try session.query("""
            SELECT content_hash, original_path, motion_of FROM assets WHERE content_identifier = \(identifier) ORDER BY content_hash
            """).map { row in
            let (hash, path, motionOf) = try row.decode((String, String, String?).self)
            return PairedAsset(contentHash: hash, originalPath: path, motionOf: motionOf)
        }
    }

    // MARK: Pending outputs

    /// Notes paths about to be linked into the library by a run outside any job.
    public func markPending(_ paths: [String], run: Int64) throws {
        try markPending(paths, run: run, job: nil)
    }

    func markPending(_ paths: [String], run: Int64, job: Int64?) throws {
        let paths = Array(Set(paths)).sorted()
        guard !paths.isEmpty else { return }
        try session.execute("""
            INSERT INTO pending_outputs (path, run_id, job_id) SELECT path, \(run), \(job)::bigint FROM unnest(\(paths)) AS p(path)
            ON CONFLICT (path) DO UPDATE SET run_id = EXCLUDED.run_id, job_id = EXCLUDED.job_id
            """)
    }

    /// Paths an interrupted run may have left in the library without recording them; clears those
    /// notes. It takes the notes made outside any job, and those of jobs that have ended (done, or
    /// failed for good, e.g. after killing every worker): never those of a job that may still run,
    /// which belong to its next attempt (see `forJob`).
    public func recoverPending() throws -> [String] {
        try session.transaction {
            try unrecorded(session.query("""
                DELETE FROM pending_outputs
                WHERE job_id IS NULL OR job_id IN (SELECT id FROM jobs WHERE state IN ('done', 'failed'))
                RETURNING path
                """))
        }
    }

    /// Deletes the pending notes of `job` and returns the noted paths that are not catalogued outputs.
    func takePending(job: Int64) throws -> [String] {
        try session.transaction {
            try unrecorded(session.query("DELETE FROM pending_outputs WHERE job_id = \(job) RETURNING path"))
        }
    }

    /// The paths among `rows` that are not catalogued outputs, sorted.
    private func unrecorded(_ rows: [PostgresRow]) throws -> [String] {
        let paths = try rows.map { try $0.decode(String.self) }
        guard !paths.isEmpty else { return [] }
        let recorded = Set(try session.query("SELECT path FROM outputs WHERE path = ANY(\(paths))").map { try $0.decode(String.self) })
        return paths.filter { !recorded.contains($0) }.sorted()
    }

    // MARK: Adoption

    /// Gives the outputs a rebuild recorded under a photo's id to the photo with that content hash;
    /// returns how many there were.
    public func adopt(contentHash: String) throws -> Int {
        let id = "id:" + ContentHash.uuid(fromHex: contentHash).uuidString.lowercased()
        return try session.execute("UPDATE outputs SET subject = \(contentHash) WHERE subject = \(id)")
    }

    /// The last element for each key, in first-seen key order (PostgreSQL refuses to upsert one key
    /// twice in a statement).
    static func lastOfEach<T>(_ elements: [T], by key: (T) -> String) -> [T] {
        var index: [String: Int] = [:]
        var result: [T] = []
        for element in elements {
            if let at = index[key(element)] { result[at] = element } else { index[key(element)] = result.count; result.append(element) }
        }
        return result
    }
}
