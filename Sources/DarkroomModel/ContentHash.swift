import DarkroomDigest
import Foundation

/// Content hashing: SHA-256 of a file's bytes, and the stable UUID derived from it.
public enum ContentHash {
    /// SHA-256 of the file at `url`, read in 1 MiB chunks, as lower-case hex.
    public static func ofFile(_ url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try of(handle)
    }

    /// SHA-256 of the bytes of an open file from where `handle` is to the end, read in 1 MiB
    /// chunks, as lower-case hex. The handle stays open, at the end of the file.
    ///
    /// The chunks are read with `read(2)` into one buffer: `FileHandle.read(upToCount:)` reads 4 KiB
    /// a system call into a new `Data` each time, which made hashing a 5 MB photo 1,200 system calls.
    public static func of(_ handle: FileHandle) throws -> String {
        let chunkSize = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        let digest = SHA256Digest()
        while true {
            let count = read(handle.fileDescriptor, buffer.baseAddress, chunkSize)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            digest.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        return hex(digest.finalize())
    }

    /// SHA-256 of bytes, as lower-case hex.
    public static func of(_ data: Data) -> String { hex(SHA256Digest.hash(data)) }

    /// SHA-256 of a string's UTF-8 bytes, as lower-case hex.
    public static func of(_ string: String) -> String {
        var string = string
        return string.withUTF8 { of(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// SHA-256 of the UTF-8 bytes of `prefix` and then of `pieces` one after another, as lower-case
    /// hex: the same as of them joined, without the joined text (a collection's key over 100,000
    /// photos is 10 MB of it).
    public static func of(_ prefix: String, then pieces: some Sequence<String>) -> String {
        let digest = SHA256Digest()
        func feed(_ text: String) {
            var text = text
            text.withUTF8 { digest.update(UnsafeRawBufferPointer($0)) }
        }
        feed(prefix)
        pieces.forEach(feed)
        return hex(digest.finalize())
    }

    /// SHA-256 of bytes in memory, as lower-case hex (nothing is copied to hash them).
    public static func of(bytes: UnsafeRawBufferPointer) -> String { hex(SHA256Digest.hash(bytes)) }

    /// Lower-case hex of bytes. Written out by hand: `String(format: "%02x")` per byte was a fifth of
    /// a no-op re-run's CPU (every unit key is a digest formatted this way).
    /// The digits are written straight into the string's storage (no array of them is made first).
    static func hex(_ digest: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: digest.count * 2) { digits in
            for (position, byte) in digest.enumerated() {
                digits[2 * position] = hexDigit(byte >> 4)
                digits[2 * position + 1] = hexDigit(byte & 0x0F)
            }
            return digest.count * 2
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// A UUID (RFC 9562 version 8, custom) made of the first 128 bits of a SHA-256 hex digest.
    public static func uuid(fromHex hex: String) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        let digits = Array(hex.utf8)
        for i in 0..<16 where 2 * i + 1 < digits.count {
            bytes[i] = UInt8(nibble(digits[2 * i]) << 4 | nibble(digits[2 * i + 1]))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 9562 variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    private static func nibble(_ c: UInt8) -> UInt8 {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return 0
        }
    }
}
