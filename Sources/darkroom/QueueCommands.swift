#if Queue
import ArgumentParser
import DarkroomOptions
import DarkroomCore
import DarkroomQueue
import Foundation
import DarkroomModel

struct Enqueue: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Queue a pipeline's work in PostgreSQL, one job per photo with work to do (and one per collection step); "
            + "'darkroom worker' processes run them. Queuing the same work again adds nothing.")

    @OptionGroup var arguments: PipelineArguments

    @Option(name: [.short, .long], help: "An input folder or file (repeatable), on storage every worker sees at the same path.")
    var input: [String] = []

    /// The library, on storage every worker sees at the same path.
    @OptionGroup var library: PipelineLibraryArguments

    @Option(help: ArgumentHelp("The queue (and catalog): postgres://user@host:port/database. Default: $DARKROOM_QUEUE (which keeps a password out of ps).", valueName: "URL"))
    var queue: String?

    @Option(help: "Attempts per job before it is marked failed.")
    var maxAttempts = 3

    @OptionGroup var photoSettings: PhotoSettingsArguments

    func validate() throws {
        guard (1...100).contains(maxAttempts) else { throw ValidationError("--max-attempts must be from 1 to 100, got \(maxAttempts)") }
    }

    func run() throws {
        // Template files are read beside the pipeline file, and stored with it: workers need no file.
        let templates = ReferencedFiles()
        let pipeline = try templates.loading { try arguments.load() }
        let inputs = (input.isEmpty ? pipeline.inputs.folders : input).map { URL(fileURLWithPath: $0).standardizedFileURL }
        let queued = QueuedSettings(library: try library.resolve(pipelineLibrary: pipeline.library).path,
                                    pixelLimit: photoSettings.pixelLimit, timeZone: photoSettings.zone.identifier)
        let settings = try queued.runSettings(jobs: ProcessInfo.processInfo.activeProcessorCount, pipeline: pipeline.file)
        try CommandErrors.reported {
            let session = try PostgresSession(try PostgresLocation(QueueURL.resolve(queue)))
            defer { session.close() }
            let catalog = try PostgresCatalog(session: session, library: settings.library)
            let workQueue = try WorkQueue(session: session)
            let plan = try Runner(pipeline: pipeline, settings: settings).queuePlan(inputs: inputs, catalog: catalog)
            let yaml = try String(contentsOfFile: pipeline.file, encoding: .utf8)
            let digest = try workQueue.registerPipeline(fileName: pipeline.file, yaml: yaml, library: queued.library,
                                                        settingsJSON: try queued.json(),
                                                        templates: templates.read)
            let batch = UUID().uuidString.lowercased()
            let encoder = JSONEncoder()
            let jobs = try plan.units.map { unit in
                NewJob(unitKey: unit.key, kind: unit.waitsForPhotos ? .collection : .photo, batch: batch, pipelineDigest: digest,
                       payload: String(decoding: try encoder.encode(unit), as: UTF8.self), maxAttempts: maxAttempts)
            }
            let (added, alreadyQueued) = try workQueue.enqueue(jobs)
            print("queued \(English.count(added, "job")) (\(alreadyQueued) already queued); \(English.count(plan.upToDate, "photo")) up to date, "
                  + "\(English.count(plan.duplicates.count, "duplicate")), \(plan.unreadable.count) unreadable")
            for failure in plan.unreadable { print("  failed: \(failure.path) [\(failure.step)]: \(failure.reason)") }
            for duplicate in plan.duplicates { print("  duplicate: \(duplicate.path) is the same photo as \(duplicate.sameAs)") }
            if !plan.unreadable.isEmpty { throw ExitCode(1) }
        }
    }
}

struct QueueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "queue", abstract: "Inspect a PostgreSQL work queue.",
                                                    subcommands: [Status.self, Retry.self])

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Pending, running, done and failed jobs, the workers, and recent failures.")

        @Option(help: ArgumentHelp("The queue: postgres://user@host:port/database. Default: $DARKROOM_QUEUE (which keeps a password out of ps).", valueName: "URL"))
        var queue: String?

        @Flag(help: "Print the status as JSON.")
        var json = false

        func run() throws {
            try CommandErrors.reported {
                let session = try PostgresSession(try PostgresLocation(QueueURL.resolve(queue)))
                defer { session.close() }
                let status = try WorkQueue(session: session).status()
                print(json ? try Run.json(status) : status.text)
            }
        }
    }
}

extension QueueCommand {
    struct Retry: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give the failed jobs more attempts, once what made them fail is fixed (their history and last error stay).")

        @Option(help: ArgumentHelp("The queue: postgres://user@host:port/database. Default: $DARKROOM_QUEUE.", valueName: "URL"))
        var queue: String?

        @Option(help: "Attempts each failed job gets.")
        var attempts = 1

        func validate() throws {
            guard attempts >= 1 else { throw ValidationError("--attempts must be at least 1, got \(attempts)") }
        }

        func run() throws {
            try CommandErrors.reported {
                let session = try PostgresSession(try PostgresLocation(QueueURL.resolve(queue)))
                defer { session.close() }
                let count = try WorkQueue(session: session).requeueFailed(extraAttempts: attempts)
                print("\(count) failed jobs queued again")
            }
        }
    }
}

/// The queue's location on the command line.
enum QueueURL {
    /// The queue's URL: `--queue`, or else `$DARKROOM_QUEUE`.
    static func resolve(_ given: String?) throws -> String {
        guard let url = given ?? ProcessInfo.processInfo.environment["DARKROOM_QUEUE"], !url.isEmpty else {
            throw ValidationError("no queue: give --queue postgres://user@host:port/database, or set DARKROOM_QUEUE")
        }
        return url
    }
}
#endif
