import DarkroomCore
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// `darkroom worker`: a queue worker and its session's connection pool, run as a `ServiceGroup`.
///
/// SIGTERM or SIGINT shuts the group down gracefully: the worker finishes the job in hand (or
/// stops waiting for work) and unregisters, then the pool closes its connections. A second SIGTERM
/// or SIGINT meanwhile gives the job in hand up at once: its lease is expired so that the next
/// worker to claim takes it over, and the worker ends with `QueueWorkerInterrupted`. Nothing is
/// lost either way; SIGKILL is the same as the second signal, except that the job waits for its
/// lease to run out.
public enum WorkerGroup {
    /// The group of `session`'s pool (the session made with `runner: .serviceGroup`) and `worker`,
    /// shut down gracefully on `signals`. The pool goes first, so that it is shut down last; the
    /// worker stopping by itself (`exitWhenDone`, or an error) shuts the group down.
    public static func make(session: PostgresSession, worker: QueueWorkerService, signals: [UnixSignal] = [.sigterm, .sigint],
                            logger: Logger) -> ServiceGroup {
        ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [
                .init(service: session.poolService, serviceName: "postgres-pool"),
                .init(service: worker, successTerminationBehavior: .gracefullyShutdownGroup,
                      failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "queue-worker"),
            ],
            gracefulShutdownSignals: signals,
            logger: logger))
    }

    /// Connects to the queue at `location` with a pool of at most `connections` connections, then
    /// works it until the worker stops (see `WorkerGroup`); returns how many jobs it handled. Blocks
    /// the calling thread, which must not be one of Swift's cooperative pool (`main` is right).
    public static func run(location: PostgresLocation, connections: Int, options: QueueWorkerOptions, logger: Logger,
                           prepare: @escaping @Sendable (PipelineRecord) throws -> Runner) throws -> Int {
        let session = try PostgresSession(location, connections: connections, runner: .serviceGroup)
        defer { session.close() }
        let worker = QueueWorkerService(session: session, options: options, logger: logger, prepare: prepare)
        let group = make(session: session, worker: worker, logger: logger)
        let ended = PendingResult<Void>()
        Task {
            do {
                try await group.run()
                ended.finish(.success(()))
            } catch {
                ended.finish(.failure(error))
            }
        }
        try ended.wait()
        return worker.handled ?? 0
    }
}
