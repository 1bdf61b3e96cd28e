import Foundation
import DarkroomModel

extension Publication {
    /// Stages a second name for an output already in the library, to be published at `relativePath`
    /// like a new file: a hard link to it (a copy where the filesystem has none), checked against the
    /// SHA-256 the catalog recorded. The old path stays until `commit` retracts it, so a crash at any
    /// moment leaves the file at its old place, its new place, or (until recovery) both: never nowhere.
    package func stageMove(of output: CatalogOutput, to relativePath: String) throws {
        let old = publisher.library.appendingPathComponent(output.path)
        guard FileInfo(path: old.path)?.isRegularFile == true else {
            throw StageError("\(output.path) is missing from the library; the next run of its pipeline makes it again")
        }
        let digest = try stage(relativePath, step: output.step) { temp in
            if link(old.path, temp.path) != 0 {
                guard [EPERM, EXDEV, EMLINK].contains(errno) else { throw SystemCallError.last("cannot link \(output.path)") }
                try FileManager.default.copyItem(at: old, to: temp)
            }
        }
        guard digest == output.sha256 else {
            throw StageError("\(output.path) changed since Darkroom made it (its SHA-256 is not the catalog's): left where it is; "
                             + "'darkroom catalog verify' lists it, and the next run of its pipeline makes it again")
        }
    }
}
