import Foundation

/// What every catalog store does to the library's files, whoever records them.
public enum LibraryFiles {
    /// Removes a stale output and the folders it leaves empty (never the library itself).
    public static func retract(_ relativePath: String, library: URL) {
        var url = library.appendingPathComponent(relativePath)
        unlink(url.path)
        for _ in relativePath.split(separator: "/").dropLast() {
            url.deleteLastPathComponent()
            guard rmdir(url.path) == 0 else { break }
        }
    }

    /// The text of the last system call's `errno`.
    public static func errnoText() -> String { String(cString: strerror(errno)) }
}
