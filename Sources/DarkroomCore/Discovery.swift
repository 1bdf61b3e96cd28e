import Foundation

/// Walks input folders: include/exclude globs, a deterministic order (sorted by path), symbolic
/// links reported rather than followed (unless asked, and then without looping).
public struct Discovery {
    /// A file found under an input folder.
    public struct Found: Sendable, Hashable {
        public var url: URL
        /// Path below its input folder, `/`-separated.
        public var relativePath: String
        public var size: Int64
        public var modificationDate: Date
        /// Modification time in nanoseconds since 1970, for change detection.
        public var modificationNanoseconds: Int64
        public var inode: UInt64
    }

    /// Something passed over, with the reason (a symlink, an unreadable folder).
    public struct Skipped: Sendable, Hashable {
        public var path: String
        public var reason: String
    }

    public let spec: InputSpec
    /// Folders never entered (the library itself, when it lies inside an input folder).
    public let avoiding: [URL]
    private let include: [Glob]
    private let exclude: [Glob]

    public init(spec: InputSpec, avoiding: [URL] = []) {
        self.spec = spec
        self.avoiding = avoiding.map { $0.standardizedFileURL.resolvingSymlinksInPath() }
        include = spec.include.compactMap(Glob.init)
        exclude = spec.exclude.compactMap(Glob.init)
    }

    /// Every matching regular file under `folders` (a folder given twice is walked once).
    public func files(in folders: [URL]) -> (found: [Found], skipped: [Skipped]) {
        var found: [Found] = [], skipped: [Skipped] = []
        var seenFiles = Set<String>()
        var visitedDirectories = Set<FileID>()
        for folder in folders {
            let root = folder.standardizedFileURL
            guard let info = FileInfo(path: root.path) else {
                skipped.append(Skipped(path: root.path, reason: "input folder does not exist"))
                continue
            }
            if info.isRegularFile {
                // A single file given as input.
                if seenFiles.insert(root.path).inserted {
                    found.append(Found(url: root, relativePath: root.lastPathComponent, size: info.size,
                                       modificationDate: info.modificationDate,
                                   modificationNanoseconds: info.modificationNanoseconds, inode: info.id.inode))
                }
                continue
            }
            walk(root, relative: "", into: &found, skipped: &skipped, seen: &seenFiles, visited: &visitedDirectories)
        }
        return (found, skipped)
    }

    private func walk(_ directory: URL, relative: String, into found: inout [Found], skipped: inout [Skipped],
                      seen: inout Set<String>, visited: inout Set<FileID>) {
        if avoiding.contains(where: { $0.path == directory.resolvingSymlinksInPath().path }) { return }
        if let info = FileInfo(path: directory.path, followLinks: true), !visited.insert(info.id).inserted { return }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        } catch {
            skipped.append(Skipped(path: directory.path, reason: "cannot list folder: \(error.localizedDescription)"))
            return
        }
        for name in names {
            let url = directory.appendingPathComponent(name)
            let path = relative.isEmpty ? name : relative + "/" + name
            guard var info = FileInfo(path: url.path) else { continue }
            if info.isSymlink {
                guard spec.followSymlinks, let target = FileInfo(path: url.path, followLinks: true) else {
                    if include.contains(where: { $0.matches(path) }) || FileInfo(path: url.path, followLinks: true)?.isDirectory == true {
                        skipped.append(Skipped(path: url.path, reason: "symbolic link not followed"))
                    }
                    continue
                }
                info = target
            }
            if info.isDirectory {
                if exclude.contains(where: { $0.matches(path) || $0.matches(path + "/_") }) { continue }
                walk(url, relative: path, into: &found, skipped: &skipped, seen: &seen, visited: &visited)
            } else if info.isRegularFile,
                      include.contains(where: { $0.matches(path) }),
                      !exclude.contains(where: { $0.matches(path) }),
                      seen.insert(url.path).inserted {
                found.append(Found(url: url, relativePath: path, size: info.size,
                                   modificationDate: info.modificationDate,
                                   modificationNanoseconds: info.modificationNanoseconds, inode: info.id.inode))
            }
        }
    }
}

/// Device and inode: identifies a file whatever its path.
struct FileID: Hashable {
    var device: UInt64
    var inode: UInt64
}

/// `lstat`/`stat` results Darkroom uses.
struct FileInfo {
    var id: FileID
    var isDirectory: Bool
    var isRegularFile: Bool
    var isSymlink: Bool
    var size: Int64
    var modificationDate: Date
    var modificationNanoseconds: Int64

    init?(path: String, followLinks: Bool = false) {
        var s = stat()
        let result = followLinks ? stat(path, &s) : lstat(path, &s)
        guard result == 0 else { return nil }
        let type = s.st_mode & S_IFMT
        id = FileID(device: UInt64(s.st_dev), inode: UInt64(s.st_ino))
        isDirectory = type == S_IFDIR
        isRegularFile = type == S_IFREG
        isSymlink = type == S_IFLNK
        size = Int64(s.st_size)
        modificationNanoseconds = Int64(s.st_mtim.tv_sec) * 1_000_000_000 + Int64(s.st_mtim.tv_nsec)
        modificationDate = Date(timeIntervalSince1970: Double(s.st_mtim.tv_sec) + Double(s.st_mtim.tv_nsec) / 1e9)
    }
}
