/// Why a sidecar could not be read: the file (when known) and the reason, for the run's report.
public struct SidecarError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The sidecar's path, or nil when it was read from bytes.
    public var file: String?
    /// What is wrong (`not valid JSON: ...`, `larger than 1 MiB`).
    public var reason: String

    /// An error about `file` (nil when unknown).
    public init(file: String? = nil, reason: String) {
        self.file = file
        self.reason = reason
    }

    /// `path: reason`, or the reason alone.
    public var description: String { file.map { "\($0): \(reason)" } ?? reason }
}
