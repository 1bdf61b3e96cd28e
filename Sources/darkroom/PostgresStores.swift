import DarkroomCore
import DarkroomQueue
import Foundation

/// Opens PostgreSQL catalogs for the commands.
enum PostgresStores {
    /// The catalog of `library` kept in the PostgreSQL database at `url`.
    static func catalog(url: String, library: URL) throws -> CatalogStore {
        do {
            return try PostgresCatalog(session: try PostgresSession(try PostgresLocation(url)), library: library)
        } catch let error as RunError {
            throw error
        } catch {
            throw RunError("\(error)")
        }
    }
}
