import Foundation
import PostgresNIO
import ServiceLifecycle

extension PostgresSession {
    /// A session's connection pool as a `Service` (see `PostgresSession.poolService`): runs the
    /// pool until the group shuts it down gracefully or cancels it, which closes its connections.
    public struct PoolService: Service {
        let client: PostgresClient
        let stopped: (@Sendable () -> Void)?

        /// Runs the pool; returns once it has closed its connections.
        public func run() async {
            await client.run()
            stopped?()
        }
    }
}

/// The task a session runs its own pool on (`PoolRunner.session`).
final class PoolTask: Sendable {
    private let task: Task<Void, Never>
    private let finished: DispatchSemaphore

    init(_ service: PostgresSession.PoolService) {
        let finished = DispatchSemaphore(value: 0)
        self.finished = finished
        task = Task.detached {
            await service.run()
            finished.signal()
        }
    }

    /// Stops the pool and waits (at most 30 seconds) until it has closed its connections.
    func stop() {
        task.cancel()
        _ = finished.wait(timeout: .now() + 30)
    }
}
