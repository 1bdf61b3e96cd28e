import Foundation

/// An error that refuses a request before anything was done (a locked or wrong library, a shard
/// that has not finished): the command line exits 2 for it, not 3 ("could not complete").
public protocol RefusalError: Error {}

/// A problem that stops a whole run (not one file): a locked library, no inputs, an unusable catalog.
public struct RunError: RefusalError, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A per-item failure with the reason a user should read.
public struct StageError: Error, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
