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

/// A per-item failure with the reason a user should read, and its kind where it is known.
public struct StageError: ClassifiedError, CustomStringConvertible {
    public var message: String
    /// What kind of failure it is, for counting; nil counts it as an error of its step.
    public var kind: FailureKind?

    public init(_ message: String, kind: FailureKind? = nil) {
        self.message = message
        self.kind = kind
    }

    public var description: String { message }
    public var failureKind: FailureKind? { kind }
}
