import Foundation

/// A problem found when a stage is made from its options, reported against the step.
public struct StageSetupError: Error, CustomStringConvertible {
    /// The option key (`long-edge`), or nil for the step as a whole.
    public var key: String?
    public var message: String

    public init(key: String? = nil, _ message: String) {
        self.key = key
        self.message = message
    }

    public var description: String { message }
}
