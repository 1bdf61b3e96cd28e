import DarkroomISOBMFF
import Foundation

extension MotionPhoto {
    /// How much is copied at a time.
    static let chunkSize = 1 << 20

    /// Copies the video that `location` found in the file at `path` to a new file at
    /// `destination`, a chunk at a time, and returns the number of bytes written.
    ///
    /// The copy must begin with an MP4 `ftyp` box and the source must still hold every byte of
    /// the range; the destination must not exist yet (nothing is overwritten). On any error the
    /// partial output is removed. Throws for a location other than `.video`.
    @discardableResult
    public static func extract(_ location: MotionPhotoLocation, from path: String, to destination: String) throws -> UInt64 {
        guard case .video(let offset, let length, _) = location else {
            throw MotionPhotoError(path: path, reason: "no video to extract (\(location))")
        }
        let source = try reading(path) { try ByteFile(path: path) }
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow, end <= source.size else {
            throw MotionPhotoError(path: path, reason: "the video's \(length) bytes at offset \(offset) run past the end of the file "
                + "(\(source.size) bytes); was it changed since it was located?")
        }
        let output = try OutputFile(creating: destination)
        do {
            var copied: UInt64 = 0
            while copied < length {
                let chunk = try reading(path) { try source.read(at: offset + copied, count: Int(min(UInt64(chunkSize), length - copied))) }
                guard !chunk.isEmpty else {
                    throw MotionPhotoError(path: path, reason: "the file ended \(length - copied) bytes before the end of the video")
                }
                if copied == 0, let problem = MP4Signature.problem(inFirstBytes: chunk, length: length) {
                    throw MotionPhotoError(path: path, reason: "the video at offset \(offset): \(problem)")
                }
                try output.write(chunk)
                copied += UInt64(chunk.count)
            }
            try output.close()
            return copied
        } catch {
            output.discard()
            throw error
        }
    }
}

/// A new file being written; removed by `discard()` when the write fails part-way.
final class OutputFile {
    let path: String
    private let handle: FileHandle
    private var closed = false

    /// Creates `path`, which must not exist yet.
    init(creating path: String) throws {
        self.path = path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw MotionPhotoError(path: path, reason: "cannot create: \(String(cString: strerror(errno)))")
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    deinit { if !closed { try? handle.close() } }

    func write(_ bytes: [UInt8]) throws {
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw MotionPhotoError(path: path, reason: "cannot write: \(ByteFile.describe(error))")
        }
    }

    func close() throws {
        closed = true
        do {
            try handle.close()
        } catch {
            throw MotionPhotoError(path: path, reason: "cannot close: \(ByteFile.describe(error))")
        }
    }

    /// Closes and removes the file.
    func discard() {
        if !closed { closed = true; try? handle.close() }
        unlink(path)
    }
}
