/// A motion photo could not be read or its video not extracted: the file concerned and why.
public struct MotionPhotoError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file being read or written.
    public var path: String
    /// What went wrong, in words.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
