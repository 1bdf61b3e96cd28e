import DarkroomISOBMFF

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

/// `body`'s result, with the byte reader's errors (a file that cannot be opened or read) told as
/// `MotionPhotoError`s about `path`.
func reading<Result>(_ path: String, _ body: () throws -> Result) throws -> Result {
    do {
        return try body()
    } catch let error as ISOBMFFError {
        throw MotionPhotoError(path: error.path ?? path, reason: error.reason)
    }
}
