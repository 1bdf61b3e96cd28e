internal import CLibCrypto
import Foundation

/// SHA-256 through OpenSSL's libcrypto (EVP), fed in chunks: what Darkroom's content hashes are made
/// with. The system's libcrypto is used rather than a vendored copy, so that a build of Darkroom does
/// not compile a TLS library it never needs.
///
///     let digest = SHA256Digest()
///     digest.update(chunk); digest.update(next)
///     let bytes = digest.finalize()   // 32 bytes; the digest cannot be fed after this
public final class SHA256Digest {
    private let context: OpaquePointer

    /// A fresh digest.
    public init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            fatalError("libcrypto cannot start a SHA-256 digest (out of memory)")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes.
    public func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// Adds bytes in memory (nothing is copied).
    public func update(_ buffer: UnsafeRawBufferPointer) {
        _ = EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
    }

    /// The 32 bytes of the digest.
    public func finalize() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = EVP_DigestFinal_ex(context, &bytes, &length)
        return Array(bytes.prefix(Int(length)))
    }

    /// The SHA-256 of `data` in one go.
    public static func hash(_ data: Data) -> [UInt8] {
        data.withUnsafeBytes { hash($0) }
    }

    /// The SHA-256 of the bytes in `buffer` in one go, without a digest object (no `Data` is made
    /// of them: a re-run hashes hundreds of thousands of short unit keys this way).
    public static func hash(_ buffer: UnsafeRawBufferPointer) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_Digest(buffer.baseAddress, buffer.count, &bytes, &length, EVP_sha256(), nil) == 1 else {
            fatalError("libcrypto cannot make a SHA-256 digest (out of memory)")
        }
        bytes.removeSubrange(Int(length)...)
        return bytes
    }
}
