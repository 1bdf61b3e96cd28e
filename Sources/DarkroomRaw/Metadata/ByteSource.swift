import Foundation

/// Random-access bytes a metadata reader walks: a file read range by range (RAW files run to
/// 100 MB and their metadata sits in a few kilobytes), or a block already in memory.
///
/// Every read is bounds-checked: a range outside the source gives nil, never a trap.
protocol ByteSource {
    /// The number of bytes.
    var count: Int { get }
    /// `length` bytes at `offset`, or nil when they are not all inside the source.
    func bytes(at offset: Int, length: Int) -> [UInt8]?
}

extension ByteSource {
    /// Whether the range lies inside the source.
    func contains(offset: Int, length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= count && length <= count - offset
    }

    func uint16(at offset: Int, bigEndian: Bool) -> UInt16? {
        guard let b = bytes(at: offset, length: 2) else { return nil }
        return bigEndian ? UInt16(b[0]) << 8 | UInt16(b[1]) : UInt16(b[1]) << 8 | UInt16(b[0])
    }

    func uint32(at offset: Int, bigEndian: Bool) -> UInt32? {
        guard let b = bytes(at: offset, length: 4) else { return nil }
        let v = b.map(UInt32.init)
        return bigEndian ? v[0] << 24 | v[1] << 16 | v[2] << 8 | v[3] : v[3] << 24 | v[2] << 16 | v[1] << 8 | v[0]
    }

    /// Whether the bytes at `offset` are exactly `expected`.
    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        bytes(at: offset, length: expected.count) == expected
    }
}

/// A file read with `pread`, so walking its metadata never loads the sensor data. Owns the
/// descriptor and closes it in `deinit`.
final class FileBytes: ByteSource {
    let path: String
    let count: Int
    private let descriptor: Int32

    /// Opens `path` for reading; throws `RawError.unreadable` with the system's reason.
    init(path: String) throws {
        try FileCheck.requireReadable(path)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw RawError(path: path, reason: .unreadable(String(cString: strerror(errno)))) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw RawError(path: path, reason: .unreadable(reason))
        }
        self.path = path
        self.descriptor = descriptor
        self.count = Int(status.st_size)
    }

    deinit { close(descriptor) }

    func bytes(at offset: Int, length: Int) -> [UInt8]? {
        guard contains(offset: offset, length: length) else { return nil }
        if length == 0 { return [] }
        var buffer = [UInt8](repeating: 0, count: length)
        var filled = 0
        while filled < length {
            let read = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + filled, length - filled, off_t(offset + filled))
            }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { return nil }
            filled += read
        }
        return buffer
    }
}

/// Bytes already in memory (a CR3 metadata box, a Sigma properties section).
struct MemoryBytes: ByteSource {
    let storage: [UInt8]
    var count: Int { storage.count }

    init(_ storage: [UInt8]) { self.storage = storage }

    func bytes(at offset: Int, length: Int) -> [UInt8]? {
        guard contains(offset: offset, length: length) else { return nil }
        return Array(storage[offset..<offset + length])
    }
}
