import DarkroomCore
import Foundation

/// Opens PostgreSQL catalogs for the commands.
enum PostgresStores {
    static func catalog(url: String, library: URL) throws -> CatalogStore {
        throw RunError("PostgreSQL catalogs: not built yet")
    }
}
