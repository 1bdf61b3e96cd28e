import DarkroomCore
import DarkroomImaging
import DarkroomLibrary
import Foundation
import Synchronization
import DarkroomModel

/// Reading the library's files the pages link to: whether they are there, and images' pixel sizes
/// from their headers (no pixels decoded).
struct LibraryFile {
    let library: URL
    let pixelLimit: Int
    /// Where the folders of the files looked for are noted, when they are wanted (`noting(_:)`).
    private var lookedIn: FolderNotes?

    init(library: URL, pixelLimit: Int) {
        self.library = library
        self.pixelLimit = pixelLimit
    }

    /// The same files, noting in `notes` the folder of every file looked for (there or not): what a
    /// month's pages show of the library's files changes only when one of those folders does.
    func noting(_ notes: FolderNotes) -> LibraryFile {
        var copy = self
        copy.lookedIn = notes
        return copy
    }

    /// The absolute location of a library-relative path.
    func url(_ path: String) -> URL { library.appendingPathComponent(path, isDirectory: false) }

    /// Whether a regular file is at `path`.
    func exists(_ path: String) -> Bool {
        lookedIn?.note(folderOf: path)
        return LibraryFiles.holdsFile(path, library: library)
    }

    /// The image at `path` with its pixel size; throws with the reason when it is missing or unreadable.
    func image(_ path: String) throws -> LibraryImage {
        guard exists(path) else { throw StageError("\(path) is missing") }
        let header = try ImageLoader.header(of: url(path), pixelLimit: pixelLimit)
        return LibraryImage(path: path, width: header.width, height: header.height)
    }

    /// The library-relative path of a file inside the library, nil for a file elsewhere.
    func relativePath(of file: URL) -> String? {
        let root = library.standardizedFileURL.path + "/"
        let path = file.standardizedFileURL.path
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : nil
    }

    /// Video files a browser plays, best first (MP4 and WebM before QuickTime and the rest).
    static func playableOrder(_ a: String, _ b: String) -> Bool {
        let rank = { (path: String) -> Int in ["mp4", "m4v", "webm", "mov"].firstIndex(of: (path as NSString).pathExtension.lowercased()) ?? 9 }
        return (rank(a), a) < (rank(b), b)
    }

    /// Whether `path` names a video file.
    static func isVideo(_ path: String) -> Bool { MediaKind(fileName: path) == .video }
}

/// The library folders files were looked for in, noted from any thread.
final class FolderNotes: Sendable {
    private let noted = Mutex<Set<String>>([])

    /// Notes the folder of the library-relative `path` (`""` for the library's top).
    func note(folderOf path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        noted.withLock { _ = $0.insert(folder) }
    }

    /// The folders noted so far.
    var folders: Set<String> { noted.withLock { $0 } }
}
