import DarkroomCore
import Foundation
import DarkroomLibrary
import DarkroomModel
#if Queue
import DarkroomQueue
#endif

/// Opens PostgreSQL catalogs for the commands. Without the package's `Queue` trait (the default
/// build, which leaves out swift-nio and postgres-nio), each says how to get a build that has them.
enum PostgresStores {
    #if Queue
    /// Throws when `url` is not a PostgreSQL location Darkroom can use.
    static func check(url: String) throws {
        _ = try PostgresLocation(url)
    }

    /// The catalog of `library` kept in the PostgreSQL database at `url`, for a run of `threads`
    /// threads (each may commit at once, on a connection of its own).
    static func catalog(url: String, library: URL, threads: Int) throws -> CatalogStore {
        do {
            let session = try PostgresSession(try PostgresLocation(url), connections: PostgresSession.connections(threads: threads))
            return try PostgresCatalog(session: session, library: library)
        } catch let error as RunError {
            throw error
        } catch {
            throw RunError("\(error)")
        }
    }

    /// `catalog verify` of a catalog in PostgreSQL: SELECTs only.
    static func verify(url: String, library: URL) throws -> CatalogDrift {
        let session = try PostgresSession(try PostgresLocation(url))
        defer { session.close() }
        guard let store = try PostgresCatalog.openReadOnly(session: session, library: library) else {
            throw RunError("the database holds no catalog yet (nothing was run or queued with it)")
        }
        return try store.verify(library: library)
    }

    /// `catalog rebuild` of a catalog in PostgreSQL, then what is left untracked.
    static func rebuild(url: String, library: URL) throws -> (recorded: (files: Int, photos: Int), drift: CatalogDrift) {
        let session = try PostgresSession(try PostgresLocation(url))
        defer { session.close() }
        let store = try PostgresCatalog(session: session, library: library)
        let recorded = try store.rebuild(library: library)
        return (recorded, try store.verify(library: library))
    }
    #else
    /// What a build without PostgreSQL says when one is asked for.
    static let notBuilt = "this darkroom was built without PostgreSQL (the package's Queue trait); "
        + "build it with: swift build -c release --traits Studio,Queue"

    static func check(url: String) throws { throw RunError(notBuilt) }
    static func catalog(url: String, library: URL, threads: Int) throws -> CatalogStore { throw RunError(notBuilt) }
    static func verify(url: String, library: URL) throws -> CatalogDrift { throw RunError(notBuilt) }
    static func rebuild(url: String, library: URL) throws -> (recorded: (files: Int, photos: Int), drift: CatalogDrift) {
        throw RunError(notBuilt)
    }
    #endif
}
