import DarkroomCore
import Foundation
import Synchronization
import GRDB
import DarkroomLibrary
import DarkroomModel
import DarkroomReport

/// The library's memory: which photos are in it, what was made from each, and which work units
/// (step, content hash, unit key) are done. SQLite through GRDB at
/// `<library>/.darkroom/catalog.sqlite`, WAL with synchronous=FULL, one writer, and connections
/// beside it that only read (a re-run over 100,000 photos reads slices of its lookups on them at once).
public final class Catalog: RowCatalog, Sendable {
    let database: DatabaseQueue
    /// The connections that only read, beside `database` (none for a catalog opened only to read).
    let readers: CatalogReaders?
    public let url: URL

    /// The catalog's rows; every rule over them is `RowCatalog`'s, the same as PostgreSQL's.
    public var rows: any CatalogRows { SQLiteCatalogRows(database: database, readers: readers) }

    /// Opens (creating when needed) the catalog of `library`, and upgrades one an older Darkroom
    /// wrote (under the database's write lock: see `CatalogSchema`). Refuses a library on a network
    /// filesystem: SQLite's locking and WAL are not safe there (use PostgreSQL, `--catalog postgres://`).
    /// `networkFilesystem` names the network filesystem a path is on (`statfs` by default).
    public convenience init(library: URL, networkFilesystem: (String) -> String? = NetworkFilesystem.kind(of:)) throws {
        let folder = library.appendingPathComponent(".darkroom", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let kind = networkFilesystem(folder.path) {
            throw RunError("the library \(library.path) is on a network filesystem (\(kind)), where SQLite's locking is not safe; "
                           + "keep the catalog in PostgreSQL instead: --catalog postgres://... (see \"Running on many machines\" in the README)")
        }
        try self.init(url: folder.appendingPathComponent("catalog.sqlite"), readOnly: false)
        try CatalogSchema.upgrade(database)
    }

    private init(url: URL, readOnly: Bool) throws {
        self.url = url
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.readonly = readOnly
        configuration.prepareDatabase { db in
            // A re-run over 100,000 photos looks up hundreds of thousands of rows in bulk: pages are
            // read through a memory map (not copied by a system call each), and the key lists they
            // are looked up by are kept in memory (not in a temporary file).
            try db.execute(sql: "PRAGMA mmap_size = \(Catalog.mappedBytes)")
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            guard !readOnly else { return }
            try Self.switchToWAL(db)
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        database = try DatabaseQueue(path: url.path, configuration: configuration)
        // Plain connections, only ever read through: GRDB's own pool writes a transaction into a
        // catalog whose log is empty when it opens (a dry run would change the file). They read
        // their slices through SQLite's own small page cache, not a memory map of their own: each
        // map's pages count again in the process's resident memory (twice the catalog with one).
        var readerConfiguration = configuration
        readerConfiguration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 0") }
        readers = readOnly ? nil : try CatalogReaders(path: url.path, configuration: readerConfiguration,
                                                       count: min(ProcessInfo.processInfo.activeProcessorCount, 4) - 1)
    }

    /// Tells `record` every statement run from now on, on any of the catalog's connections (tests
    /// count the statements a run executes); call it before the catalog is read.
    package func traceStatements(_ record: @escaping @Sendable (String) -> Void) {
        let trace = { (db: Database) in db.trace(options: .statement) { record("\($0)") } }
        database.inDatabase(trace)
        readers?.inEach(trace)
    }

    /// How much of the catalog file SQLite reads through a memory map (1 GiB).
    private static let mappedBytes = 1 << 30

    /// Makes the catalog WAL unless it is already. Switching needs the database to itself, and when
    /// another process opens it at the same moment SQLite answers "database is locked" at once (the
    /// busy timeout does not cover it): the switch is tried again, for up to 10 s, and is not needed
    /// once the other process has made the catalog WAL.
    private static func switchToWAL(_ db: Database) throws {
        let deadline = Date().addingTimeInterval(10)
        while true {
            do {
                if try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal" { return }
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                return
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                usleep(20_000)
            }
        }
    }

    /// Opens an existing catalog (upgrading it as `init(library:)` does), or returns nil when the
    /// library has none yet.
    public static func openIfPresent(library: URL) throws -> Catalog? {
        let path = library.appendingPathComponent(".darkroom/catalog.sqlite").path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try Catalog(library: library)
    }

    /// Opens an existing catalog only to read it (what the shards of a sweep read while no one writes
    /// it), or returns nil when the library has none yet (or one still being made). Never changes
    /// it: a catalog an older Darkroom wrote is refused with the advice to upgrade it by an import.
    public static func openReadOnly(library: URL) throws -> Catalog? {
        let url = library.appendingPathComponent(".darkroom/catalog.sqlite")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let catalog = try Catalog(url: url, readOnly: true)
        switch try catalog.database.read(CatalogSchema.state(of:)) {
        case .current: return catalog
        case .empty: return nil
        case .outdated:
            throw RunError("the catalog of \(library.path) was written by an older Darkroom and needs an upgrade, which only a command "
                           + "that writes the library makes: run an import (darkroom run) into it first; this command only reads")
        }
    }

    /// Makes a catalog as an older Darkroom left it, with the migrations up to the one named
    /// `migration` only (for tests of upgrading).
    package static func createOutdated(library: URL, through migration: String) throws {
        let folder = library.appendingPathComponent(".darkroom", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let catalog = try Catalog(url: folder.appendingPathComponent("catalog.sqlite"), readOnly: false)
        try CatalogSchema.upgrade(catalog.database, through: migration)
    }

    /// A summary of one asset, for tests and `darkroom catalog` commands.
    public struct AssetSummary: Sendable, Codable, Hashable {
        public var id: String
        public var contentHash: String
        public var originalPath: String
        public var captureLocal: String?
        public var captureSource: String?
        public var width: Int?
        public var height: Int?
    }

    /// Every asset, ordered by capture date (undated first), then original path.
    public func assets() throws -> [AssetSummary] {
        try rows.read { try $0.assets(.all) }.map {
            AssetSummary(id: $0.id, contentHash: $0.contentHash, originalPath: $0.originalPath, captureLocal: $0.captureLocal,
                         captureSource: $0.captureSource, width: $0.width.map(Int.init), height: $0.height.map(Int.init))
        }.sorted { a, b in
            let (dateA, dateB) = (a.captureLocal ?? "", b.captureLocal ?? "")  // undated first, as SQL's NULLs
            return dateA == dateB ? a.originalPath.utf8.lexicographicallyPrecedes(b.originalPath.utf8)
                                  : dateA.utf8.lexicographicallyPrecedes(dateB.utf8)
        }
    }
}

/// Connections to the catalog that only read, beside its writer: a slice of a bulk lookup takes one
/// that is free, or reads on the writer when all are busy, so that as many slices as there are
/// connections are read at once.
final class CatalogReaders: Sendable {
    private let free: Mutex<[DatabaseQueue]>
    /// How many there are.
    let count: Int

    init(path: String, configuration: Configuration, count: Int) throws {
        self.count = max(0, count)
        free = Mutex(try (0..<max(0, count)).map { _ in try DatabaseQueue(path: path, configuration: configuration) })
    }

    /// Runs `body` on each reader not reading now (outside a transaction).
    func inEach(_ body: (Database) -> Void) {
        free.withLock { readers in
            for reader in readers { reader.inDatabase(body) }
        }
    }

    /// Runs `body` in a read transaction on a free reader, or on `writer` when none is free.
    func read<T>(orOn writer: DatabaseQueue, _ body: (Database) throws -> T) throws -> T {
        guard let reader = free.withLock({ $0.popLast() }) else { return try writer.read(body) }
        defer { free.withLock { $0.append(reader) } }
        return try reader.read(body)
    }
}
