import DarkroomModel
import Foundation
import Logging

/// What a crashed run (or date correction) may leave in a library, and its removal: temp files, and
/// files published but never recorded (the catalog's pending notes). Only for a process holding the
/// library's exclusive lock.
public enum LibraryRecovery {
    /// Removes temp files and published files never recorded.
    public static func recover(_ catalog: CatalogStore, library: URL, logger: Logger) throws {
        Publisher.removeLeftovers(library: library)
        try removeOrphans(catalog, library: library, logger: logger)
    }

    /// Removes files an interrupted run published but never recorded (the catalog's pending notes).
    public static func removeOrphans(_ catalog: CatalogStore, library: URL, logger: Logger) throws {
        for path in try catalog.recoverPending() {
            let url = library.appendingPathComponent(path)
            if FileInfo(path: url.path)?.isRegularFile == true {
                logger.info("removing \(path): left by an interrupted run before it was recorded")
                unlink(url.path)
            }
        }
    }
}
