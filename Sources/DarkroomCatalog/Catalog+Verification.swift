import DarkroomCore
import Foundation
import GRDB
import DarkroomLibrary
import DarkroomModel

extension Catalog {
    /// Checks every catalogued output against its file and lists files the catalog does not know.
    public func verify(library: URL) throws -> CatalogDrift {
        CatalogVerification.verify(outputs: try allOutputs(), library: library)
    }

    /// Rebuilds a lost catalog from the library itself: every untracked file whose name carries a
    /// Darkroom content id is recorded as that photo's output (size and SHA-256 as found). The next
    /// run over the originals adopts them: a photo whose id matches gets its rows, and its work is
    /// taken as done (only metadata steps run again), so nothing is encoded twice.
    /// Returns how many files were recorded and for how many photos.
    public func rebuild(library: URL) throws -> (files: Int, photos: Int) {
        let found = try CatalogVerification.rebuildable(library: library, known: Set(try allOutputs().map(\.path)))
        try database.write { db in
            for file in found {
                try db.execute(sql: "INSERT OR REPLACE INTO outputs (path, step, subject, size, sha256, run_id) VALUES (?, ?, ?, ?, ?, NULL)",
                               arguments: [file.path, CatalogVerification.rebuiltStep, "id:" + file.id, file.size, file.sha256])
            }
        }
        return (found.count, Set(found.map(\.id)).count)
    }

    /// Gives the outputs a rebuild recorded under a photo's id to the photo with that content hash;
    /// returns how many there were.
    public func adopt(contentHash: String) throws -> Int {
        let id = "id:" + ContentHash.uuid(fromHex: contentHash).uuidString.lowercased()
        return try database.write { db in
            try db.execute(sql: "UPDATE outputs SET subject = ? WHERE subject = ?", arguments: [contentHash, id])
            return db.changesCount
        }
    }
}
