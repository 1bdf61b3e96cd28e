import Foundation

/// A file opened for bounded reads at given offsets; owns the handle and closes it in `deinit`.
///
/// Motion photos and videos run to many megabytes; parsers read only what they need (segment and
/// box headers, a `meta` box, a trailer's directory) through this, never the whole file. Errors
/// are `ISOBMFFError`s naming the file.
public final class ByteFile: ByteSource {
    /// The file's path.
    public let path: String
    /// The file's size when it was opened.
    public let size: UInt64
    private let handle: FileHandle

    /// The most one read may ask for: every structure read whole is far smaller.
    public static let maximumRead = 16 << 20

    /// Opens `path` for reading.
    public init(path: String) throws {
        self.path = path
        do {
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            size = try handle.seekToEnd()
        } catch {
            throw ISOBMFFError(path: path, reason: "cannot open for reading: \(Self.describe(error))")
        }
    }

    deinit { try? handle.close() }

    /// Up to `count` bytes (at most `maximumRead`) at `offset`: fewer when the file ends first, none past its end.
    public func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard offset < size, count > 0 else { return [] }
        let wanted = Int(min(UInt64(min(count, Self.maximumRead)), size - offset))
        do {
            try handle.seek(toOffset: offset)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(wanted)
            while bytes.count < wanted, let chunk = try handle.read(upToCount: wanted - bytes.count), !chunk.isEmpty {
                bytes.append(contentsOf: chunk)
            }
            return bytes
        } catch {
            throw ISOBMFFError(path: path, reason: "cannot read \(wanted) bytes at offset \(offset): \(Self.describe(error))")
        }
    }

    /// The last `count` bytes (all of them in a smaller file).
    public func tail(_ count: Int) throws -> [UInt8] {
        let length = min(UInt64(count), size)
        return try read(at: size - length, count: Int(length))
    }

    /// Foundation's errors carry the POSIX reason in their underlying error; says it plainly.
    public static func describe(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription
    }
}
