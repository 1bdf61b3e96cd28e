import DarkroomCore
import Foundation
import DarkroomLibrary

extension PostgresCatalog {
    /// Checks every catalogued output against its file (exists, size, SHA-256) and lists library
    /// files the catalog does not know, as `Catalog.verify` does for SQLite. Only reads (SELECTs).
    public func verify(library: URL) throws -> CatalogDrift {
        CatalogVerification.verify(outputs: try allOutputs(), library: library)
    }

    /// Rebuilds a lost catalog from the library, as `Catalog.rebuild` does for SQLite: every
    /// untracked file whose name carries a Darkroom content id is recorded as that photo's output
    /// (step `rebuilt`, size and SHA-256 as found); the next run over the originals adopts them.
    /// Returns how many files were recorded and for how many photos.
    public func rebuild(library: URL) throws -> (files: Int, photos: Int) {
        let found = try CatalogVerification.rebuildable(library: library, known: Set(try allOutputs().map(\.path)))
        try session.transaction {
            for file in found {
                try session.execute("""
                    INSERT INTO outputs (path, step, subject, size, sha256, run_id)
                    VALUES (\(file.path), \(CatalogVerification.rebuiltStep), \("id:" + file.id), \(file.size), \(file.sha256), NULL)
                    ON CONFLICT (path) DO UPDATE SET step = EXCLUDED.step, subject = EXCLUDED.subject, size = EXCLUDED.size,
                        sha256 = EXCLUDED.sha256, run_id = NULL
                    """)
            }
        }
        return (found.count, Set(found.map(\.id)).count)
    }
}
