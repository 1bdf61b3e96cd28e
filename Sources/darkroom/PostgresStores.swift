import DarkroomCore
import DarkroomQueue
import Foundation

/// Opens PostgreSQL catalogs for the commands.
enum PostgresStores {
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
}
