/// Bytes read by offset: a file read a little at a time (`ByteFile`), or bytes in memory.
///
/// Box readers take one of these so that a multi-gigabyte video and a HEIC being patched in memory
/// are walked by the same code, reading only the headers they need.
public protocol ByteSource {
    /// How many bytes there are.
    var size: UInt64 { get }
    /// Up to `count` bytes at `offset`: fewer when the bytes end first, none past their end.
    func read(at offset: UInt64, count: Int) throws -> [UInt8]
}

extension Array: ByteSource where Element == UInt8 {
    /// The number of bytes.
    public var size: UInt64 { UInt64(count) }

    /// Up to `count` bytes at `offset`: fewer at the end, none past it.
    public func read(at offset: UInt64, count wanted: Int) -> [UInt8] {
        guard offset < UInt64(count), wanted > 0 else { return [] }
        let start = Int(offset)
        return Array(self[start..<start + Swift.min(wanted, count - start)])
    }
}

/// Bytes that could not be read, or a box structure that does not hold together: the file
/// concerned (when there is one) and why.
public struct ISOBMFFError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file read or written, when known.
    public var path: String?
    /// What is wrong, in words.
    public var reason: String

    /// An error about `path` (nil for bytes in memory) saying `reason`.
    public init(path: String? = nil, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`, or the reason alone.
    public var description: String { path.map { "\($0): \(reason)" } ?? reason }
}
