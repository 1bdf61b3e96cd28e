internal import CFFmpeg
import Foundation

/// A video file open for reading: its descriptor (opened here and closed in `deinit`, or lent by a
/// caller and left open), its size, and positioned reads that never move the descriptor's offset.
/// Everything Darkroom reads of one video goes through one of these: FFmpeg (`DescriptorIO`), the
/// `moov`/`mdat` scan (`MovieBoxes`), and a copy of the original bytes.
final class OpenedFile {
    /// The file, for messages.
    let path: String
    let descriptor: Int32
    /// Its size in bytes when it was opened.
    let size: Int64
    private let closes: Bool

    /// Opens `path` for reading; throws `VideoReadError` (FFmpeg's words for the system's reason)
    /// when it cannot be.
    init(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw VideoReadError(path: path, reason: .notAVideo(VideoError.text(for: darkroom_averror(errno))))
        }
        self.path = path
        self.descriptor = descriptor
        closes = true
        size = Self.size(of: descriptor)
    }

    /// The file open at `descriptor`, lent by the caller for as long as this lives: never closed here.
    init(borrowing descriptor: Int32, path: String) {
        self.path = path
        self.descriptor = descriptor
        closes = false
        size = Self.size(of: descriptor)
    }

    deinit {
        if closes { close(descriptor) }
    }

    private static func size(of descriptor: Int32) -> Int64 {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int64(status.st_size) : 0
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file); nil when reading fails.
    func read(at offset: Int64, count: Int) -> Data? {
        var data = Data(count: count)
        let got = data.withUnsafeMutableBytes { buffer -> Int in
            var done = 0
            while done < count {
                let read = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if read < 0 && errno == EINTR { continue }
                if read < 0 { return -1 }
                if read == 0 { break }
                done += read
            }
            return done
        }
        guard got >= 0 else { return nil }
        return data.prefix(got)
    }

    /// Copies the whole file, as it is now, to a new file at `destination` (which must not exist).
    func copy(to destination: String) throws {
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard output >= 0 else { throw Self.error("create", destination) }
        defer { close(output) }
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset: off_t = 0
        while true {
            let got = pread(descriptor, buffer, chunk, offset)
            if got < 0 && errno == EINTR { continue }
            if got < 0 { throw Self.error("read", path) }
            if got == 0 { return }
            var written = 0
            while written < got {
                let put = write(output, buffer + written, got - written)
                if put < 0 && errno == EINTR { continue }
                if put < 0 { throw Self.error("write", destination) }
                written += put
            }
            offset += off_t(got)
        }
    }

    /// The error the last system call left, doing `operation` on `path`.
    private static func error(_ operation: String, _ path: String) -> VideoError {
        VideoError(operation: operation, message: String(cString: strerror(errno)), path: path)
    }
}
