import Foundation

/// The archive being written: a temporary file beside the destination, created exclusively,
/// written through a small buffer, patched in place with `pwrite`, then synced and renamed over
/// the destination by `commit()`. `discard()` (and `deinit`, when neither ran) removes it.
final class ArchiveFile {
    let destination: String
    let temporaryPath: String
    /// Bytes written so far (buffered or not): where the next byte goes.
    private(set) var position: UInt64 = 0
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private let bufferCapacity = 256 << 10
    private var closed = false

    /// Creates `.<name>.partial-XXXXXXXX` (a new file, mode 0644 less the umask) in the destination's folder. Without `replacing`, an
    /// existing destination is an error (checked now and again at `commit()`).
    init(destination: String, replacing: Bool) throws {
        self.destination = destination
        if !replacing, FileManager.default.fileExists(atPath: destination) {
            throw ZipError(path: destination, reason: .destinationExists)
        }
        let url = URL(fileURLWithPath: destination)
        let suffix = UUID().uuidString.prefix(8)
        temporaryPath = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial-\(suffix)").path
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ZipError.system("creating a temporary file beside it", path: destination, errno: errno) }
        buffer.reserveCapacity(bufferCapacity)
        self.replacing = replacing
    }

    private let replacing: Bool

    deinit { if !closed { discard() } }

    /// Appends bytes (copied into the buffer when small, written through when large).
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > bufferCapacity { try flush() }
        if bytes.count >= bufferCapacity {
            try writeAll(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
        position += UInt64(bytes.count)
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Overwrites bytes already written, at `offset` from the start.
    func patch(_ bytes: [UInt8], at offset: UInt64) throws {
        try flush()
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                pwrite(descriptor, raw.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw ZipError.system("writing", path: destination, errno: errno)
            }
            done += written
        }
    }

    /// Flushes, syncs and renames the temporary file to the destination, then syncs the folder.
    func commit() throws {
        try flush()
        guard fsync(descriptor) == 0 else { throw ZipError.system("syncing", path: destination, errno: errno) }
        close(descriptor)
        closed = true
        if !replacing, FileManager.default.fileExists(atPath: destination) {
            unlink(temporaryPath)
            throw ZipError(path: destination, reason: .destinationExists)
        }
        guard rename(temporaryPath, destination) == 0 else {
            let code = errno
            unlink(temporaryPath)
            throw ZipError.system("renaming the finished archive into place", path: destination, errno: code)
        }
        let folder = open(URL(fileURLWithPath: destination).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// Closes and removes the temporary file.
    func discard() {
        guard !closed else { return }
        close(descriptor)
        unlink(temporaryPath)
        closed = true
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if written < 0 {
                if errno == EINTR { continue }
                throw ZipError.system("writing", path: destination, errno: errno)
            }
            done += written
        }
    }
}

/// A source file (or a range of its bytes) opened for reading in chunks; owns its descriptor.
final class SourceFile {
    let path: String
    let size: UInt64
    let modified: Date
    private let descriptor: Int32
    private var offset: UInt64
    private let end: UInt64?

    /// Opens `path`, which must be a regular file, to read it whole or only the bytes in `range`.
    init(_ path: String, range: Range<UInt64>? = nil) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ZipError.system("opening", path: path, errno: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw ZipError.system("reading its size", path: path, errno: code)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw ZipError(path: path, reason: .notARegularFile)
        }
        if let range, range.upperBound > UInt64(info.st_size) {
            close(fd)
            throw ZipError(path: path, reason: .sourceChanged(expectedBytes: range.upperBound, readBytes: UInt64(info.st_size)))
        }
        self.path = path
        descriptor = fd
        size = range.map { $0.upperBound - $0.lowerBound } ?? UInt64(info.st_size)
        offset = range?.lowerBound ?? 0
        end = range?.upperBound
        modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    deinit { close(descriptor) }

    /// Reads up to `buffer.count` bytes (never past the range's end); 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let wanted = end.map { Int(min(UInt64(buffer.count), $0 - offset)) } ?? buffer.count
        guard wanted > 0 else { return 0 }
        while true {
            let count = pread(descriptor, buffer.baseAddress, wanted, off_t(offset))
            if count >= 0 {
                offset += UInt64(count)
                return count
            }
            if errno != EINTR { throw ZipError.system("reading", path: path, errno: errno) }
        }
    }
}
