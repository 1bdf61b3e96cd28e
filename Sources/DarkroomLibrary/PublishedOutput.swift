import Foundation

/// A file a stage published into the library.
public struct PublishedOutput: Codable, Sendable, Hashable {
    /// The step that made it.
    public var step: String
    /// Path relative to the library root.
    public var path: String
    /// Bytes written.
    public var size: Int64
    /// SHA-256 of the bytes, lower-case hex (what `catalog verify` checks).
    public var sha256: String

    public init(step: String, path: String, size: Int64, sha256: String) {
        self.step = step
        self.path = path
        self.size = size
        self.sha256 = sha256
    }
}
