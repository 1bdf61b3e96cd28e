import DarkroomCore
import Foundation
import Logging
import Synchronization
import DarkroomLibrary
import DarkroomReport

/// How a `QueueWorker` works the queue.
public struct QueueWorkerOptions: Sendable {
    /// Seconds a job stays the worker's without renewal (renewed every third of it).
    public var lease: TimeInterval
    /// Seconds before the first retry of a failed job; doubled on each further attempt.
    public var backoff: TimeInterval
    /// Seconds between looks at an empty queue.
    public var poll: TimeInterval
    /// Stop when no job is pending or running, rather than wait for more.
    public var exitWhenDone: Bool

    /// Options; the defaults are the `darkroom worker` command's.
    public init(lease: TimeInterval = 60, backoff: TimeInterval = 30, poll: TimeInterval = 2, exitWhenDone: Bool = false) {
        self.lease = lease; self.backoff = backoff; self.poll = poll; self.exitWhenDone = exitWhenDone
    }
}

/// One worker: claims a job, keeps its lease (and its own registration) alive while running it,
/// records the outcome, repeats until asked to stop (or, with `exitWhenDone`, until the queue is
/// empty). Each queued pipeline is prepared once (`prepare` turns its record into a runner), and
/// each library it publishes into is joined once: its shared `LibraryLock` and a temp folder of
/// the worker's own; temp folders of stale workers (no live lease, no heartbeat for long) are removed.
public final class QueueWorker: Sendable {
    let session: PostgresSession
    let queue: WorkQueue
    let options: QueueWorkerOptions
    /// The worker's id in the queue (`<host>-<pid>-<random>`), the `lease_owner` of its jobs.
    public let id: String
    let logger: Logger
    private let stop: StopRequest
    private let prepare: @Sendable (PipelineRecord) throws -> Runner
    /// The job being worked on, with its lease renewal (for `abandonJobInHand`).
    private let inHand = JobInHand()
    /// What the worker has set up so far; only the thread running `run()` changes it.
    private let setUp: Mutex<SetUp>

    /// What a worker registers and prepares as it goes.
    private struct SetUp {
        /// What the queue's `workers` table records of this worker (its temp folder is the last library's).
        var registration: WorkerRegistration
        /// What the worker has set up for each queued pipeline it has seen, by digest.
        var pipelines: [String: PipelineContext] = [:]
        /// The library locks (shared) and temp folders, by library path.
        var libraries: [String: (lock: LibraryLock, temporaryFolder: URL)] = [:]
    }

    struct PipelineContext {
        var runner: Runner
        var catalog: PostgresCatalog
        var run: Int64
        var temporaryFolder: URL
    }

    /// A worker on `session`'s queue. `prepare` loads a queued pipeline with its settings (it runs
    /// once per pipeline); `stop` asks the worker to stop (`requestStop()` does too; as a service,
    /// `QueueWorkerService` asks on graceful shutdown).
    public init(session: PostgresSession, options: QueueWorkerOptions, logger: Logger = Logger(label: "darkroom.worker"),
                stop: StopRequest = StopRequest(), prepare: @escaping @Sendable (PipelineRecord) throws -> Runner) throws {
        self.session = session
        self.options = options
        self.logger = logger
        self.stop = stop
        self.prepare = prepare
        queue = try WorkQueue(session: session)
        id = "\(ProcessInfo.processInfo.hostName)-\(getpid())-\(UUID().uuidString.prefix(8).lowercased())"
        setUp = Mutex(SetUp(registration: WorkerRegistration(id: id, host: ProcessInfo.processInfo.hostName, pid: getpid(), temporaryFolder: "")))
    }

    /// Works the queue until asked to stop (the job in hand is finished first) or, with
    /// `exitWhenDone`, until no job is pending or running; then unregisters. Returns how many jobs
    /// it handled. Throws when the queue's database fails outside a job.
    @discardableResult
    public func run() throws -> Int {
        try queue.register(registration)
        defer { finish() }
        logger.info("worker \(id) started")
        var handled = 0
        while !stop.requested {
            try keepAlive()
            guard let job = try queue.claim(worker: id, lease: options.lease) else {
                if options.exitWhenDone {
                    let status = try queue.status()
                    if status.pending == 0 && status.running == 0 { break }
                }
                stop.wait(seconds: options.poll)
                continue
            }
            handle(job)
            handled += 1
        }
        logger.info("worker \(id) stopping after \(handled) jobs\(stop.requested ? " (asked to stop)" : "")")
        return handled
    }

    /// What the queue's `workers` table records of this worker now.
    private var registration: WorkerRegistration { setUp.withLock { $0.registration } }

    /// Heartbeats; registers again (and makes the temp folders again) when found stale meanwhile.
    private func keepAlive() throws {
        guard try queue.keepAlive(registration) else { return }
        logger.warning("worker \(id) had been found stale and removed; registered again")
        for library in setUp.withLock({ Array($0.libraries.values) }) {
            try FileManager.default.createDirectory(at: library.temporaryFolder, withIntermediateDirectories: true)
        }
    }

    /// Asks the worker to stop once the job in hand is finished (at once when it has none).
    public func requestStop() { stop.request() }

    /// Gives up the job in hand without finishing it (the worker was asked to stop twice): its
    /// lease renewal stops and its lease is expired, so that the next claim, by any worker, takes it
    /// over at once, as it would a killed worker's once the lease ran out (the attempt counts). Files
    /// the job links into the library after this are refused (the lease is checked), and those it
    /// linked before are removed by the next attempt. Returns the job, or nil when there was none.
    @discardableResult
    public func abandonJobInHand() throws -> ClaimedJob? {
        guard let (job, renewal) = inHand.take() else { return nil }
        renewal.stop()
        try queue.abandon(job)
        logger.warning("job \(job.id) (\(job.unitKey)) given up unfinished; another worker takes it over")
        return job
    }

    private func handle(_ job: ClaimedJob) {
        let renewal = LeaseRenewal(queue: queue, job: job, lease: options.lease, worker: registration, logger: logger)
        inHand.hold(job, renewal)
        defer { inHand.take(); renewal.stop() }
        var subject = "job \(job.id)"
        do {
            let context = try pipeline(for: job)
            renewal.update(worker: registration)
            let unit = try JSONDecoder().decode(QueuedUnit.self, from: Data(job.payload.utf8))
            let steps = context.runner.pipeline.steps
            subject = unit.photo?.source ?? unit.step.flatMap { steps.indices.contains($0) ? steps[$0].name : nil } ?? subject
            let outcome = context.runner.runQueued(unit, store: context.catalog.forJob(job), run: context.run,
                                                   temporaryFolder: context.temporaryFolder)
            // A failure after the lease was lost is the refusal to publish (or the new owner's business).
            if renewal.isLost, case .failed = outcome { throw LeaseLost(job) }
            switch outcome {
            case .done(let published):
                logger.debug("done \(subject) (attempt \(job.attempt)): \(published.count) files")
            case .nothingToDo:
                try queue.complete(job)
                logger.debug("done \(subject): nothing to do")
            case .failed(let step, let reason):
                try record(failure: "\(subject) [\(step)]: \(reason)", of: job)
            }
        } catch let lost as LeaseLost {
            logger.warning("\(subject): \(lost); another worker has the job")
        } catch {
            try? record(failure: "\(subject): \(error)", of: job)
        }
    }

    private func record(failure: String, of job: ClaimedJob) throws {
        switch try queue.fail(job, error: failure, backoff: options.backoff) {
        case .retry(let after): logger.warning("failed (attempt \(job.attempt), retry in \(Int(after)) s): \(failure)")
        case .failed: logger.error("failed for good after \(job.attempt) attempts: \(failure)")
        }
    }

    /// The runner and catalog for a job's pipeline, loaded once per worker.
    private func pipeline(for job: ClaimedJob) throws -> PipelineContext {
        if let known = setUp.withLock({ $0.pipelines[job.pipeline.digest] }) { return known }
        let runner = try prepare(job.pipeline)
        let settings = runner.settings
        let library = try self.library(settings.library)
        let catalog = try PostgresCatalog(session: session, library: settings.library)
        let run = try catalog.beginRun(pipeline: "\(job.pipeline.fileName) (worker \(id))")
        let context = PipelineContext(runner: runner, catalog: catalog, run: run, temporaryFolder: library.temporaryFolder)
        setUp.withLock { $0.pipelines[job.pipeline.digest] = context }
        return context
    }

    /// Joins a library: its shared lock (no single-machine run meanwhile) and a temp folder of this
    /// worker's own. Temp folders of stale workers (no live lease, no heartbeat for long) are removed.
    private func library(_ url: URL) throws -> (lock: LibraryLock, temporaryFolder: URL) {
        if let known = setUp.withLock({ $0.libraries[url.path] }) { return known }
        let lock = try LibraryLock(library: url, shared: true)
        let folder = try Runner.processTemporaryFolder(library: url)
        let registration = setUp.withLock { setUp in
            setUp.registration.temporaryFolder = folder.path
            return setUp.registration
        }
        try queue.register(registration)
        for stale in try queue.staleWorkers(olderThan: max(600, 10 * options.lease)) {
            if !stale.temporaryFolder.isEmpty { try? FileManager.default.removeItem(atPath: stale.temporaryFolder) }
            try queue.unregisterWorker(id: stale.id)
        }
        setUp.withLock { $0.libraries[url.path] = (lock, folder) }
        return (lock, folder)
    }

    private func finish() {
        let (pipelines, libraries) = setUp.withLock { (Array($0.pipelines.values), Array($0.libraries.values)) }
        for context in pipelines {
            let report = RunReport(pipeline: context.runner.pipeline.file, library: context.runner.settings.library.path)
            try? context.catalog.finishRun(context.run, report: report)
        }
        for library in libraries { try? FileManager.default.removeItem(at: library.temporaryFolder) }
        try? queue.unregisterWorker(id: id)
    }
}
