import ArgumentParser
import DarkroomCatalog
import DarkroomCore
import Foundation
import DarkroomLibrary

/// `--catalog`: where the catalog lives. By default the library's own SQLite file; a
/// `postgres://` URL keeps it in PostgreSQL (a library on a network filesystem, a fleet of workers).
struct CatalogArguments: ParsableArguments {
    @Option(help: ArgumentHelp("The catalog: a postgres:// URL (default: $DARKROOM_CATALOG), or nothing for the library's own "
                               + ".darkroom/catalog.sqlite.", valueName: "URL"))
    var catalog: String?

    /// `--catalog`, or else `$DARKROOM_CATALOG` (which keeps a password out of `ps`); nil for SQLite.
    var url: String? {
        catalog ?? ProcessInfo.processInfo.environment["DARKROOM_CATALOG"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A malformed URL is an argument mistake, reported before anything is opened.
    func validate() throws {
        guard let url else { return }
        do { try PostgresStores.check(url: url) } catch { throw ValidationError("--catalog (or DARKROOM_CATALOG): \(error)") }
    }

    /// The catalog to read and write, by `threads` threads at once.
    func store(library: URL, threads: Int = 1) throws -> CatalogStore {
        if let url { return try PostgresStores.catalog(url: url, library: library, threads: threads) }
        return try Catalog(library: library)
    }

    /// What a shard reads to know what is already done: the catalog opened read-only, or nil.
    func snapshot(library: URL) throws -> CatalogStore? {
        if let url { return try PostgresStores.catalog(url: url, library: library, threads: 1) }
        return try Catalog.openReadOnly(library: library)
    }
}
