import DarkroomCore
import Foundation
import DarkroomModel

/// Asks a `QueueWorker` to stop after the job in hand (`request()`); `QueueWorkerService` asks on a
/// `ServiceGroup`'s graceful shutdown (SIGTERM or SIGINT in `darkroom worker`).
public final class StopRequest: Sendable {
    /// Whether a stop was asked for.
    private let flag = Monitor(false)

    /// A request not made yet.
    public init() {}

    /// Whether a stop was asked for.
    public var requested: Bool { flag.withLock { $0 } }

    /// Asks for a stop (wakes a worker waiting for work).
    public func request() { flag.withLock { $0 = true } }

    /// Sleeps up to `seconds`, waking early when a stop is asked for.
    public func wait(seconds: Double) {
        flag.wait(until: { $0 }, deadline: Date().addingTimeInterval(seconds)) { _ in }
    }
}
