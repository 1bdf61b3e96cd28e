import ArgumentParser
import CollageStage
import DarkroomCore
import DarkroomImaging
import DarkroomQueue
import DarkroomStages
import Foundation
import Logging

struct Worker: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take jobs from a PostgreSQL work queue and run them until stopped. SIGTERM or SIGINT: the job in hand is finished first. "
            + "A worker killed mid-job loses nothing: its lease runs out and another worker takes the job.")

    @Option(help: ArgumentHelp("The queue (and catalog): postgres://user@host:port/database. Default: $DARKROOM_QUEUE (which keeps a password out of ps).", valueName: "URL"))
    var queue: String?

    @Option(help: "Seconds a job stays this worker's without renewal (renewed every third of it): how long a killed worker's job waits.")
    var lease: Double = 60

    @Option(help: "Seconds before the first retry of a failed job; doubled on each further attempt.")
    var backoff: Double = 30

    @Option(help: "Seconds between looks at an empty queue.")
    var poll: Double = 2

    @Option(name: [.short, .long], help: "Threads a job's stages may use (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "Stop when no job is pending or running (a batch job, rather than a long-running fleet).")
    var exitWhenDone = false

    @Flag(name: .shortAndLong, help: "Log each job.")
    var verbose = false

    func validate() throws {
        guard lease >= 1 else { throw ValidationError("--lease must be at least 1 second, got \(lease)") }
        guard backoff >= 0, poll > 0 else { throw ValidationError("--backoff must not be negative and --poll must be positive") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
    }

    func run() throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = verbose ? .debug : .info
            return handler
        }
        try CommandErrors.reported {
            let session = try PostgresSession(try PostgresLocation(QueueURL.resolve(queue)))
            defer { session.close() }
            let worker = try QueueWorker(session: session, options: self)
            try worker.run()
        }
    }
}

/// One worker process: claims a job, keeps its lease alive while running it, records the outcome, repeats.
final class QueueWorker {
    let session: PostgresSession
    let queue: WorkQueue
    let options: Worker
    let id: String
    /// What the queue's `workers` table records of this worker (its temp folder is the last library's).
    private var registration: WorkerRegistration
    let logger = Logger(label: "darkroom.worker")
    private let stop = StopRequest()
    /// What the worker has set up for each queued pipeline it has seen, by digest.
    private var pipelines: [String: PipelineContext] = [:]
    /// The library locks (shared) and temp folders, by library path.
    private var libraries: [String: (lock: LibraryLock, temporaryFolder: URL)] = [:]

    struct PipelineContext {
        var runner: Runner
        var catalog: PostgresCatalog
        var run: Int64
        var temporaryFolder: URL
    }

    init(session: PostgresSession, options: Worker) throws {
        self.session = session
        self.options = options
        queue = try WorkQueue(session: session)
        id = "\(ProcessInfo.processInfo.hostName)-\(getpid())-\(UUID().uuidString.prefix(8).lowercased())"
        registration = WorkerRegistration(id: id, host: ProcessInfo.processInfo.hostName, pid: getpid(), temporaryFolder: "")
    }

    func run() throws {
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
    }

    /// Heartbeats; registers again (and makes the temp folders again) when found stale meanwhile.
    private func keepAlive() throws {
        guard try queue.keepAlive(registration) else { return }
        logger.warning("worker \(id) had been found stale and removed; registered again")
        for library in libraries.values {
            try FileManager.default.createDirectory(at: library.temporaryFolder, withIntermediateDirectories: true)
        }
    }

    private func handle(_ job: ClaimedJob) {
        let renewal = LeaseRenewal(queue: queue, job: job, lease: options.lease, worker: registration, logger: logger)
        defer { renewal.stop() }
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
        if let known = pipelines[job.pipeline.digest] { return known }
        let record = job.pipeline
        // The templates it reads come from the queue, as enqueued (files only for older records).
        let pipeline = try TemplateSources(pipelineFile: record.fileName, stored: record.templates).loading {
            try PipelineLoader(registry: BuiltInStages.registry).load(yaml: record.yaml, file: record.fileName)
        }
        let settings = try JSONDecoder().decode(QueuedSettings.self, from: Data(record.settingsJSON.utf8)).settings(jobs: options.jobs)
        try ImagingSetup.configure(for: settings)
        let library = try self.library(settings.library)
        let catalog = try PostgresCatalog(session: session, library: settings.library)
        let run = try catalog.beginRun(pipeline: "\(record.fileName) (worker \(id))")
        let context = PipelineContext(runner: Runner(pipeline: pipeline, settings: settings, logger: logger), catalog: catalog,
                                      run: run, temporaryFolder: library.temporaryFolder)
        pipelines[record.digest] = context
        return context
    }

    /// Joins a library: its shared lock (no single-machine run meanwhile) and a temp folder of this
    /// worker's own. Temp folders of stale workers (no live lease, no heartbeat for long) are removed.
    private func library(_ url: URL) throws -> (lock: LibraryLock, temporaryFolder: URL) {
        if let known = libraries[url.path] { return known }
        let lock = try LibraryLock(library: url, shared: true)
        let folder = try Runner.processTemporaryFolder(library: url)
        registration.temporaryFolder = folder.path
        try queue.register(registration)
        for stale in try queue.staleWorkers(olderThan: max(600, 10 * options.lease)) {
            if !stale.temporaryFolder.isEmpty { try? FileManager.default.removeItem(atPath: stale.temporaryFolder) }
            try queue.unregisterWorker(id: stale.id)
        }
        libraries[url.path] = (lock, folder)
        return (lock, folder)
    }

    private func finish() {
        for context in pipelines.values {
            let report = RunReport(pipeline: context.runner.pipeline.file, library: context.runner.settings.library.path)
            try? context.catalog.finishRun(context.run, report: report)
        }
        for library in libraries.values { try? FileManager.default.removeItem(at: library.temporaryFolder) }
        try? queue.unregisterWorker(id: id)
    }
}

/// SIGTERM and SIGINT ask the worker to stop after the job in hand.
final class StopRequest: @unchecked Sendable {
    private let condition = NSCondition()
    private var flag = false
    private var sources: [DispatchSourceSignal] = []

    init() {
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [weak self] in self?.request() }
            source.resume()
            sources.append(source)
        }
    }

    var requested: Bool { condition.lock(); defer { condition.unlock() }; return flag }

    func request() { condition.lock(); flag = true; condition.broadcast(); condition.unlock() }

    /// Sleeps up to `seconds`, waking early when a stop is asked for.
    func wait(seconds: Double) {
        condition.lock()
        if !flag { _ = condition.wait(until: Date().addingTimeInterval(seconds)) }
        condition.unlock()
    }
}
