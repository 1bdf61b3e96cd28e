import Foundation
import DarkroomModel

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

    /// Whether the library holds a regular file (not a folder, not a symbolic link) at `relativePath`:
    /// one `lstat` (a `URL` appended without saying it is a file would `stat` it once more to ask).
    public static func holdsFile(_ relativePath: String, library: URL) -> Bool {
        holdsFile(relativePath, libraryPath: library.path)
    }

    /// Whether the library at `libraryPath` (its URL's path, worked out once by a caller asking
    /// about many files) holds a regular file at `relativePath`.
    public static func holdsFile(_ relativePath: String, libraryPath: String) -> Bool {
        FileInfo(path: libraryPath + "/" + relativePath)?.isRegularFile == true
    }

    /// The text of the last system call's `errno`.
    public static func errnoText() -> String { String(cString: strerror(errno)) }

    // MARK: Old files kept aside

    /// Where, inside the library, the old bytes of replaced outputs wait for the catalog to record
    /// the new ones.
    public static let keptAsideFolder = ".darkroom/replaced"

    /// The library-relative path where the old bytes of the output at `relativePath` are kept while
    /// a new file replaces it: journalled like a new output's path, and cleared by the commit that
    /// records the new file.
    public static func keptAsidePath(of relativePath: String) -> String {
        keptAsideFolder + "/" + relativePath
    }

    /// The output whose old bytes a kept-aside path holds, or nil for any other path.
    public static func replacedPath(ofKeptAside path: String) -> String? {
        path.hasPrefix(keptAsideFolder + "/") ? String(path.dropFirst(keptAsideFolder.count + 1)) : nil
    }

    /// Puts the old bytes kept aside for `relativePath` back in its place (the new file was never
    /// recorded); returns whether there were any.
    @discardableResult
    public static func restoreKeptAside(_ relativePath: String, library: URL) -> Bool {
        let final = library.appendingPathComponent(relativePath)
        guard rename(library.appendingPathComponent(keptAsidePath(of: relativePath)).path, final.path) == 0 else { return false }
        try? Publisher.fsync(path: final.deletingLastPathComponent().path)
        return true
    }

    /// Removes the old bytes kept aside for `relativePath`: the catalog records its new file now.
    public static func dropKeptAside(_ relativePath: String, library: URL) {
        unlink(library.appendingPathComponent(keptAsidePath(of: relativePath)).path)
    }
}
