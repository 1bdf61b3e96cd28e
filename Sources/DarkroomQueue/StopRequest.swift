import Foundation

/// Asks a `QueueWorker` to stop after the job in hand (`request()`); `QueueWorkerService` asks on a
/// `ServiceGroup`'s graceful shutdown (SIGTERM or SIGINT in `darkroom worker`).
public final class StopRequest: @unchecked Sendable {
    private let condition = NSCondition()
    private var flag = false

    /// A request not made yet.
    public init() {}

    /// Whether a stop was asked for.
    public var requested: Bool { condition.lock(); defer { condition.unlock() }; return flag }

    /// Asks for a stop (wakes a worker waiting for work).
    public func request() { condition.lock(); flag = true; condition.broadcast(); condition.unlock() }

    /// Sleeps up to `seconds`, waking early when a stop is asked for.
    public func wait(seconds: Double) {
        condition.lock()
        if !flag { _ = condition.wait(until: Date().addingTimeInterval(seconds)) }
        condition.unlock()
    }
}
