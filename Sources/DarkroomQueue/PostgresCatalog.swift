import DarkroomCore
import Foundation
import PostgresNIO
import DarkroomLibrary
import DarkroomModel
import DarkroomReport

/// A library's catalog in PostgreSQL, shared by a fleet of workers: the same tables as the SQLite
/// `Catalog`, and the same rules, which are `RowCatalog`'s for both; this class only stores and
/// loads rows (`PostgresCatalogRows`).
///
/// One database holds one library's catalog; `meta` records which. Pending notes made outside a job
/// (`markPending`) are separate from those of jobs (`forJob`), so a plain run's `recoverPending`
/// never removes files a worker may still be publishing.
public final class PostgresCatalog: RowCatalog {
    let session: PostgresSession
    /// The catalog's tables, under the rules of `RowCatalog`.
    public var rows: any CatalogRows { PostgresCatalogRows(session: session) }
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
}
