import ArgumentParser
import DarkroomCore
import Foundation

/// `--catalog`: where the catalog lives. By default the library's own SQLite file; a
/// `postgres://` URL keeps it in PostgreSQL (a library on a network filesystem, a fleet of workers).
struct CatalogArguments: ParsableArguments {
    @Option(help: ArgumentHelp("The catalog: a postgres:// URL, or nothing for the library's own .darkroom/catalog.sqlite.",
                               valueName: "URL"))
    var catalog: String?

    /// The catalog to read and write.
    func store(library: URL) throws -> CatalogStore {
        if let catalog { return try PostgresStores.catalog(url: catalog, library: library) }
        return try Catalog(library: library)
    }

    /// What a shard reads to know what is already done: the catalog opened read-only, or nil.
    func snapshot(library: URL) throws -> CatalogStore? {
        if let catalog { return try PostgresStores.catalog(url: catalog, library: library) }
        return try Catalog.openReadOnly(library: library)
    }
}
