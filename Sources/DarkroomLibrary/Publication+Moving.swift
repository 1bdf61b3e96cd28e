import Foundation
import DarkroomModel

extension Publication {
    /// Stages a second name for an output already in the library, to be published at `relativePath`
    /// like a new file: a hard link to it (a copy where the filesystem has none), checked against the
    /// SHA-256 the catalog recorded. The old path stays until `commit` retracts it, so a crash at any
    /// moment leaves the file at its old place, its new place, or (until recovery) both: never nowhere.
    package func stageMove(of output: CatalogOutput, to relativePath: String) throws {
        let old = try existing(output)
        let digest = try stage(relativePath, step: output.step) { temp in
            if link(old.path, temp.path) != 0 {
                guard [EPERM, EXDEV, EMLINK].contains(errno) else { throw SystemCallError.last("cannot link \(output.path)") }
                try FileManager.default.copyItem(at: old, to: temp)
            }
        }
        guard digest == output.sha256 else { throw Self.changed(output) }
    }

    /// Stages a rewritten copy of an output already in the library (its metadata changed, say), to
    /// be published at `relativePath`: its old path, or a new one as with `stageMove`. Published at
    /// the old path, the copy replaces the file atomically, so a kill leaves the old file or the new
    /// one, whole. The file must have the SHA-256 the catalog recorded, or already be what `rewrite`
    /// makes of it (rewritten by a correction killed before it was recorded); the original file
    /// itself is never written to.
    package func stageRewrite(of output: CatalogOutput, to relativePath: String, rewrite: ([UInt8]) throws -> [UInt8]) throws {
        let bytes = try [UInt8](Data(contentsOf: try existing(output)))
        let rewritten = try rewrite(bytes)
        guard rewritten == bytes || ContentHash.of(Data(bytes)) == output.sha256 else { throw Self.changed(output) }
        try stage(relativePath, step: output.step) { temp in
            try Data(rewritten).write(to: temp, options: .withoutOverwriting)
        }
    }

    /// The output's file, which must be a regular file.
    private func existing(_ output: CatalogOutput) throws -> URL {
        let url = publisher.library.appendingPathComponent(output.path)
        guard FileInfo(path: url.path)?.isRegularFile == true else {
            throw StageError("\(output.path) is missing from the library; the next run of its pipeline makes it again")
        }
        return url
    }

    private static func changed(_ output: CatalogOutput) -> StageError {
        StageError("\(output.path) changed since Darkroom made it (its SHA-256 is not the catalog's): left where it is; "
                   + "'darkroom catalog verify' lists it, and the next run of its pipeline makes it again")
    }
}
