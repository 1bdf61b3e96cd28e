import Foundation

/// Device and inode: identifies a file whatever its path.
public struct FileID: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
}

/// `lstat`/`stat` results Darkroom uses.
public struct FileInfo: Sendable {
    public var id: FileID
    public var isDirectory: Bool
    public var isRegularFile: Bool
    public var isSymlink: Bool
    public var size: Int64
    public var modificationDate: Date
    public var modificationNanoseconds: Int64

    /// What `lstat` (or `stat`, with `followLinks`) says of `path`; nil when it does not exist.
    public init?(path: String, followLinks: Bool = false) {
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
