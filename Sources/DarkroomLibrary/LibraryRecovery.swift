import DarkroomModel
import Foundation
import Logging

/// What a crashed run (or date correction) may leave in a library, and its removal: temp files,
/// files published but never recorded (the catalog's pending notes), and files replaced but never
/// recorded (their old bytes, kept aside, are put back). Only for a process holding the library's
/// exclusive lock.
public enum LibraryRecovery {
    /// Undoes what was published but never recorded, then removes temp files and old bytes kept aside.
    public static func recover(_ catalog: CatalogStore, library: URL, logger: Logger) throws {
        try removeOrphans(catalog, library: library, logger: logger)
        Publisher.removeLeftovers(library: library)
    }

    /// Undoes what an interrupted run published but never recorded (the catalog's pending notes):
    /// new files are removed, replaced files get their old bytes back.
    public static func removeOrphans(_ catalog: CatalogStore, library: URL, logger: Logger) throws {
        for path in try catalog.recoverPending() { undo(path, library: library, logger: logger) }
    }

    /// Undoes one journalled path that was never recorded: the old bytes kept aside for a replaced
    /// output go back in its place; a new file is removed.
    public static func undo(_ path: String, library: URL, logger: Logger?) {
        if let replaced = LibraryFiles.replacedPath(ofKeptAside: path) {
            if LibraryFiles.restoreKeptAside(replaced, library: library) {
                logger?.info("restoring \(replaced): an interrupted run replaced it without recording the new file")
            }
            return
        }
        let url = library.appendingPathComponent(path)
        if FileInfo(path: url.path)?.isRegularFile == true {
            logger?.info("removing \(path): left by an interrupted run before it was recorded")
            LibraryFiles.retract(path, library: library)
        }
    }
}
