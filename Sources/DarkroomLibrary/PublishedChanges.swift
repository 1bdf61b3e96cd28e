import Foundation
import DarkroomModel

/// What one `Publisher.publish` call changed in the library so far: what it must make durable, and
/// what it undoes when a later file fails.
struct PublishedChanges {
    /// Folders made in the library, parents first.
    var madeFolders: [URL] = []
    /// New files linked into place.
    var linked: [URL] = []
    /// Outputs whose old bytes were kept aside, by library-relative path, and whether the new file
    /// has replaced the old one yet.
    private var keptAside: [(path: String, replaced: Bool)] = []

    /// Links the file at `relativePath` aside (`LibraryFiles.keptAsidePath`), over a stale copy an
    /// earlier publish left there (recovery has put back those whose replacement was never
    /// recorded), and makes the link durable before anything replaces the file.
    mutating func keepAside(_ relativePath: String, library: URL) throws {
        let components = LibraryFiles.keptAsidePath(of: relativePath).split(separator: "/").map(String.init)
        var made: [URL] = []
        let folder = try Self.makeFolders(components.dropLast(), under: library, noting: &made)
        let aside = folder.appendingPathComponent(components.last!)
        unlink(aside.path)
        guard link(library.appendingPathComponent(relativePath).path, aside.path) == 0 else {
            throw SystemCallError.last("cannot keep the old \(relativePath) aside before replacing it")
        }
        keptAside.append((relativePath, false))
        for path in Self.deepestFirst([folder] + made.map { $0.deletingLastPathComponent() }) { try Publisher.fsync(path: path) }
        try FaultInjection.pass(.keptAside(relativePath))
    }

    /// Notes that the new file is in place of the old one kept aside for `relativePath`.
    mutating func replaced(_ relativePath: String) {
        if let index = keptAside.lastIndex(where: { $0.path == relativePath }) { keptAside[index].replaced = true }
    }

    /// The folders whose entries changed: each placed file's folder, and the parent of each folder made.
    func foldersToSync(placed: [URL]) -> [String] {
        Self.deepestFirst(placed.map { $0.deletingLastPathComponent() } + madeFolders.map { $0.deletingLastPathComponent() })
    }

    /// Puts the library back as it was: old bytes back in place of the files that replaced them,
    /// new files and the folders made for them removed. Best effort: it runs after a failure.
    func undo(library: URL) {
        for file in keptAside.reversed() {
            if file.replaced { LibraryFiles.restoreKeptAside(file.path, library: library) } else { LibraryFiles.dropKeptAside(file.path, library: library) }
        }
        for url in linked { unlink(url.path) }
        for folder in madeFolders.reversed() { rmdir(folder.path) }
        for path in foldersToSync(placed: linked) where FileInfo(path: path) != nil { try? Publisher.fsync(path: path) }
    }

    /// Makes the folders of `components` below `base` one by one, refusing symbolic links and
    /// anything that is not a folder; notes each folder it made in `made`.
    static func makeFolders(_ components: some Collection<String>, under base: URL, noting made: inout [URL]) throws -> URL {
        var url = base
        for component in components {
            url.appendPathComponent(component, isDirectory: true)
            if let info = FileInfo(path: url.path) {
                if info.isSymlink { throw StageError("refusing to write through the symbolic link \(url.path)") }
                if !info.isDirectory { throw StageError("\(url.path) is in the way: it is not a folder") }
            } else if mkdir(url.path, 0o755) == 0 {
                made.append(url)
            } else if errno != EEXIST {
                throw SystemCallError.last("cannot create folder \(url.path)")
            }
        }
        return url
    }

    /// Folders' paths, each once, deepest first (a folder's entry in its parent is synced after it).
    private static func deepestFirst(_ folders: [URL]) -> [String] {
        Set(folders.map(\.path)).sorted { ($0.count, $0) > ($1.count, $1) }
    }
}
