import Foundation

/// Why an archive or an entry could not be written: the file concerned (the archive or an entry's
/// source) and the reason. Errors about one entry found before it was written (`notARegularFile`,
/// a source that cannot be opened, `invalidName`, `duplicateName`) leave the archive usable; any
/// other has already removed the partial archive.
public struct ZipError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The archive being written, or the source file of the entry that failed.
    public var path: String
    /// What went wrong.
    public var reason: Reason

    /// An error about `path`.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// What went wrong, for a person.
    public enum Reason: Equatable, Sendable, CustomStringConvertible {
        /// The disk (or the user's quota) is full: ENOSPC or EDQUOT.
        case diskFull(errno: Int32)
        /// A system call failed: which one, and its errno.
        case system(operation: String, errno: Int32)
        /// The destination exists and replacing it was not asked for.
        case destinationExists
        /// An entry's name is empty after sanitising, holds a NUL or is longer than ZIP allows.
        case invalidName(String)
        /// Two entries would have the same name.
        case duplicateName(String)
        /// The source is not a regular file (a directory, a device, a FIFO).
        case notARegularFile
        /// The source file's size changed while it was being read.
        case sourceChanged(expectedBytes: UInt64, readBytes: UInt64)
        /// zlib could not compress an entry.
        case compression(code: Int32)
        /// The writer already finished, was discarded, or failed earlier and removed its partial archive.
        case writerClosed
        /// An existing file read as an archive is not one (`ZipReader`), with what is wrong.
        case notAnArchive(String)

        public var description: String {
            switch self {
            case .diskFull(let code):
                return "disk full (\(ZipError.errnoName(code))) while writing the archive"
            case .system(let operation, let code):
                return "\(operation) failed: \(String(cString: strerror(code))) (\(ZipError.errnoName(code)))"
            case .destinationExists:
                return "already exists (not replaced)"
            case .invalidName(let name):
                return "\"\(name)\" is not a usable entry name (empty, a NUL, or over 65,535 bytes)"
            case .duplicateName(let name):
                return "the archive already has an entry named \"\(name)\""
            case .notARegularFile:
                return "not a regular file"
            case .sourceChanged(let expected, let read):
                return "changed while it was being archived (\(expected) bytes expected, \(read) read)"
            case .compression(let code):
                return "zlib could not compress it (error \(code))"
            case .writerClosed:
                return "the archive is already finished or has failed"
            case .notAnArchive(let reason):
                return "not a ZIP archive that can be read: \(reason)"
            }
        }
    }

    public var description: String { "\(path): \(reason)" }

    /// The error for a failed system call on `path`, ENOSPC and EDQUOT told apart as a full disk.
    static func system(_ operation: String, path: String, errno code: Int32) -> ZipError {
        if code == ENOSPC || code == EDQUOT { return ZipError(path: path, reason: .diskFull(errno: code)) }
        return ZipError(path: path, reason: .system(operation: operation, errno: code))
    }

    /// `ENOSPC` for 28: the symbolic names of the errors a writer meets, the number for others.
    static func errnoName(_ code: Int32) -> String {
        let names: [Int32: String] = [
            ENOSPC: "ENOSPC", EDQUOT: "EDQUOT", EFBIG: "EFBIG", EACCES: "EACCES", EPERM: "EPERM", ENOENT: "ENOENT",
            EEXIST: "EEXIST", EISDIR: "EISDIR", ENOTDIR: "ENOTDIR", EROFS: "EROFS", EIO: "EIO", EXDEV: "EXDEV",
            ENAMETOOLONG: "ENAMETOOLONG", EMFILE: "EMFILE", EINVAL: "EINVAL",
        ]
        return names[code] ?? "errno \(code)"
    }
}
