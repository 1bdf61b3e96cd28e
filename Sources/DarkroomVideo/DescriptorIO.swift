internal import CFFmpeg
import Foundation

/// FFmpeg's I/O over an `OpenedFile`: an `AVIOContext` whose reads and seeks go to `pread` on the
/// file's descriptor (FFmpeg 5.1 has no `fd:` protocol, and opening by path would open the file
/// again). Owns the context, its buffer and the reader's state, and keeps the file open while FFmpeg
/// may read it.
final class DescriptorIO {
    let context: UnsafeMutablePointer<AVIOContext>
    private let reader: UnsafeMutablePointer<darkroom_descriptor_reader>
    /// The file read (kept alive for as long as FFmpeg may read it).
    let file: OpenedFile

    /// FFmpeg's own buffer size for files (`IO_BUFFER_SIZE`).
    static let bufferSize: Int32 = 32_768

    init(_ file: OpenedFile) throws {
        self.file = file
        reader = .allocate(capacity: 1)
        reader.initialize(to: darkroom_descriptor_reader(descriptor: file.descriptor, position: 0, size: file.size))
        guard let context = darkroom_descriptor_io(reader, Self.bufferSize) else {
            reader.deallocate()
            throw VideoError(operation: "read", message: "out of memory for FFmpeg's read buffer", path: file.path)
        }
        self.context = context
    }

    deinit {
        darkroom_descriptor_io_free(context)
        reader.deallocate()
    }
}
