import Foundation
internal import CZlib

/// zlib's CRC-32 and raw deflate, as ZIP uses them.
enum Zlib {
    /// `crc` updated with `bytes` (start from 0).
    static func crc32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        return UInt32(CZlib.crc32_z(UInt(crc), base.assumingMemoryBound(to: UInt8.self), bytes.count))
    }

    /// `data` raw-deflated at the default level, or nil when that would not make it smaller.
    /// Throws zlib's error code, about `name`, for any other failure.
    static func deflated(_ data: Data, name: String) throws -> Data? {
        guard data.count > 1 else { return nil }
        var output = Data(count: data.count - 1)
        var length = output.count
        let result = data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                darkroom_deflate_raw(input.baseAddress, input.count, out.baseAddress, &length, Z_DEFAULT_COMPRESSION)
            }
        }
        if result == Z_BUF_ERROR { return nil }
        guard result == Z_OK else { throw ZipError(path: name, reason: .compression(code: result)) }
        output.count = length
        return output
    }
}
