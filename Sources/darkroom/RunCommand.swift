import ArgumentParser
import DarkroomCore
import DarkroomShards
import DarkroomImaging
import DarkroomStages
import Foundation
import Logging

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run a pipeline over input folders into a library.")

    @OptionGroup var arguments: PipelineArguments

    @Option(name: [.short, .long], help: "An input folder or file (repeatable). Default: the pipeline's inputs.folders.")
    var input: [String] = []

    @Option(name: [.short, .long], help: "The library (output) folder. Default: the pipeline's library.")
    var library: String?

    @Option(name: [.short, .long], help: "Photos processed at once (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @OptionGroup var photoSettings: PhotoSettingsArguments

    @Flag(help: "Print what would be done, and do nothing.")
    var dryRun = false

    @Flag(help: "Print the plan or the report as JSON on standard output.")
    var json = false

    @Option(help: "Also write the report as JSON to this file.")
    var report: String?

    @Flag(help: "Redo all work even when the catalog says it is current.")
    var force = false

    @Flag(name: .shortAndLong, help: "Say more: -v logs each step's notes and lists every file passed over (the summary counts them by kind); -vv adds debug lines.")
    var verbose: Int

    @Flag(name: .shortAndLong, help: "No progress line (it is drawn only on a terminal anyway).")
    var quiet = false

    @Option(help: ArgumentHelp("Run one shard of a sweep: I/N (I counted from 0), or auto / auto/N to read I (and N) from the array job "
                               + "(JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID, AWS_BATCH_JOB_ARRAY_INDEX; N also from DARKROOM_SHARDS). "
                               + "Results go to a manifest; fold them in with 'darkroom catalog merge'.", valueName: "I/N"),
            transform: { try Shard.parse($0) })
    var shard: Shard?

    @OptionGroup var catalog: CatalogArguments

    func validate() throws {
        guard (1...1024).contains(jobs) else { throw ValidationError("--jobs must be from 1 to 1024, got \(jobs)") }
    }

    func run() throws {
        Verbosity.bootstrap(verbose: verbose)
        let pipeline = try arguments.load()
        let inputs = (input.isEmpty ? pipeline.inputs.folders : input).map { URL(fileURLWithPath: $0) }
        guard let libraryPath = library ?? pipeline.library else {
            throw ValidationError("no library: give --library (or 'library:' in the pipeline)")
        }
        guard !inputs.isEmpty else { throw ValidationError("no inputs: give --input (or 'inputs: folders:' in the pipeline)") }
        let settings = RunSettings(library: URL(fileURLWithPath: libraryPath, isDirectory: true),
                                   pixelLimit: photoSettings.pixelLimit, timeZone: photoSettings.timeZone,
                                   jobs: jobs, force: force)
        try ImagingSetup.configure(for: settings)
        let progress = isatty(STDERR_FILENO) != 0 && !json && !quiet ? ProgressBar() : nil
        let runner = Runner(pipeline: pipeline, settings: settings, logger: Logger(label: "darkroom"), progress: progress)
        try CommandErrors.reported {
            if dryRun {
                let plan = try runner.plan(inputs: inputs, catalog: try catalog.snapshot(library: settings.library),
                                           shard: shard)
                print(json ? try Self.json(plan) : plan.text)
                return
            }
            let result: RunReport
            if let shard {
                result = try runner.run(inputs: inputs, shard: shard,
                                        snapshot: try catalog.snapshot(library: settings.library))
            } else {
                result = try runner.run(inputs: inputs) { try catalog.store(library: settings.library, threads: jobs) }
            }
            progress?.clear()
            if let report { try Data(try Self.json(result).utf8).write(to: URL(fileURLWithPath: report)) }
            if json { print(try Self.json(result)) } else { print(result.summary(listingPassedOver: verbose > 0)) }
            if result.stopped != nil { throw ExitStatus.incomplete }
            if !result.succeeded { throw ExitStatus.failuresListed }
        }
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
