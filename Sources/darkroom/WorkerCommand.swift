#if Queue
import ArgumentParser
import DarkroomOptions
import DarkroomCore
import DarkroomQueue
import DarkroomStages
import Foundation
import Logging

struct Worker: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take jobs from a PostgreSQL work queue and run them until stopped. SIGTERM or SIGINT: the job in hand is finished first; "
            + "a second one gives it up at once to the next worker. A worker killed mid-job loses nothing: its lease runs out and another worker takes the job.")

    @Option(help: ArgumentHelp("The queue (and catalog): postgres://user@host:port/database. Default: $DARKROOM_QUEUE (which keeps a password out of ps).", valueName: "URL"))
    var queue: String?

    @Option(help: "Seconds a job stays this worker's without renewal (renewed every third of it): how long a killed worker's job waits.")
    var lease: Double = 60

    @Option(help: "Seconds before the first retry of a failed job; doubled on each further attempt.")
    var backoff: Double = 30

    @Option(help: "Seconds between looks at an empty queue.")
    var poll: Double = 2

    @OptionGroup var jobs: JobsArguments

    @Option(help: "Connections to PostgreSQL at most, made as needed (default: --jobs + 1).")
    var connections: Int?

    @Flag(help: "Stop when no job is pending or running (a batch job, rather than a long-running fleet).")
    var exitWhenDone = false

    @Flag(name: .shortAndLong, help: "Log each job.")
    var verbose = false

    func validate() throws {
        guard (1...86_400).contains(lease) else { throw ValidationError("--lease must be from 1 to 86400 seconds, got \(lease)") }
        guard (0...86_400).contains(backoff) else { throw ValidationError("--backoff must be from 0 to 86400 seconds, got \(backoff)") }
        guard poll > 0, poll <= 3_600 else { throw ValidationError("--poll must be above 0 and at most 3600 seconds, got \(poll)") }
        if let connections, !(1...64).contains(connections) {
            throw ValidationError("--connections must be from 1 to 64, got \(connections)")
        }
    }

    func run() throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = verbose ? .debug : .info
            return handler
        }
        try CommandErrors.reported {
            let jobs = self.jobs.jobs
            _ = try WorkerGroup.run(location: try PostgresLocation(QueueURL.resolve(queue)),
                                connections: connections ?? PostgresSession.connections(threads: jobs),
                                options: QueueWorkerOptions(lease: lease, backoff: backoff, poll: poll, exitWhenDone: exitWhenDone),
                                logger: Logger(label: "darkroom.worker")) { record in
                try Worker.prepare(record, jobs: jobs)
            }
        }
    }
}

extension Worker {
    /// A queued pipeline's runner: its YAML loaded with the templates stored with it (files only
    /// for older records), its settings as enqueued (the runner starts the native libraries for them).
    static func prepare(_ record: PipelineRecord, jobs: Int) throws -> Runner {
        let pipeline = try ReferencedFiles(stored: record.templates).loading {
            try PipelineLoader(registry: BuiltInStages.registry).load(yaml: record.yaml, file: record.fileName)
        }
        let settings = try record.runSettings(jobs: jobs)
        return Runner(pipeline: pipeline, settings: settings, logger: Logger(label: "darkroom.worker"))
    }
}
#endif
