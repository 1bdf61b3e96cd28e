import DarkroomCore
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// A `QueueWorker` as a `Service` for a `ServiceGroup` (see `WorkerGroup`).
///
/// The worker's loop runs on a thread of its own (jobs block for seconds in libvips and x265; they
/// must not sit on Swift's cooperative pool). On the group's graceful shutdown the worker finishes
/// the job in hand, unregisters and returns. An `Interruption` during that shutdown (by default a
/// second SIGTERM or SIGINT) gives the job in hand up at once (`QueueWorker.abandonJobInHand`) and
/// ends the service with `QueueWorkerInterrupted`, without waiting for the job's thread.
public final class QueueWorkerService: Service, Sendable {
    private let session: PostgresSession
    private let options: QueueWorkerOptions
    private let logger: Logger
    private let interruption: Interruption
    private let prepare: @Sendable (PipelineRecord) throws -> Runner
    private let stop = StopRequest()
    private let state = Mutex(State())

    /// What the service learns while it runs.
    private struct State {
        /// The worker, once the service has made it.
        var worker: QueueWorker?
        /// How many jobs the worker handled, once it has stopped.
        var handledJobs: Int?
    }

    /// A worker on `session`'s queue, made when the service starts (so the session's pool may be a
    /// service of the same group). `prepare` is `QueueWorker`'s.
    public init(session: PostgresSession, options: QueueWorkerOptions, logger: Logger = Logger(label: "darkroom.worker"),
                interruption: Interruption = .terminationSignal, prepare: @escaping @Sendable (PipelineRecord) throws -> Runner) {
        self.session = session
        self.options = options
        self.logger = logger
        self.interruption = interruption
        self.prepare = prepare
    }

    /// Whether the worker was asked to stop (it finishes the job in hand first).
    public var isStopping: Bool { stop.requested }

    /// How many jobs the worker handled, once it has stopped by itself or gracefully.
    public var handled: Int? { state.withLock { $0.handledJobs } }

    /// Runs the worker until it stops (graceful shutdown, or `exitWhenDone` with nothing left);
    /// throws what ended it otherwise.
    public func run() async throws {
        let loop = BlockingThread.start { [self] () throws -> Int in
            let worker = try QueueWorker(session: session, options: options, logger: logger, stop: stop, prepare: prepare)
            state.withLock { $0.worker = worker }
            return try worker.run()
        }
        let ending = try await withGracefulShutdownHandler {
            try await withThrowingTaskGroup(of: Ending.self) { group in
                group.addTask { .stopped(handled: try await loop.value) }
                group.addTask { [interruption, logger] in
                    try await gracefulShutdown()
                    await interruption.wait(logger)
                    return .interrupted
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        } onGracefulShutdown: { [stop] in
            stop.request()
        }
        switch ending {
        case .stopped(let handled):
            state.withLock { $0.handledJobs = handled }
        case .interrupted:
            let worker = state.withLock { $0.worker }
            let job = try await BlockingThread.run { try worker?.abandonJobInHand() }
            throw QueueWorkerInterrupted(job: job)
        }
    }

    private enum Ending {
        case stopped(handled: Int)
        case interrupted
    }
}

extension QueueWorkerService {
    /// What, once a graceful shutdown has begun, makes a worker give up the job in hand.
    public struct Interruption: Sendable {
        /// Returns when the job in hand should be given up (it is cancelled when the worker stops first).
        let wait: @Sendable (Logger) async -> Void

        /// An interruption when `wait` returns (tests pass their own).
        public init(_ wait: @escaping @Sendable (Logger) async -> Void) { self.wait = wait }

        /// The next SIGTERM or SIGINT (the group took the first one for its graceful shutdown).
        public static let terminationSignal = Interruption { logger in
            let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
            logger.info("stopping after the job in hand; SIGTERM or SIGINT again gives it up now")
            for await _ in signals { return }
        }
    }
}

/// A worker was told to stop twice: it gave the job in hand up unfinished (another worker takes
/// it over at its next claim) and stopped without waiting for it.
public struct QueueWorkerInterrupted: Error, CustomStringConvertible {
    /// The job given up, if the worker had one.
    public var job: ClaimedJob?

    /// What happened, for messages.
    public var description: String {
        guard let job else { return "the worker was interrupted while it held no job" }
        return "the worker was interrupted: job \(job.id) (\(job.unitKey)) was given up unfinished, and the next worker to claim takes it over"
    }
}
