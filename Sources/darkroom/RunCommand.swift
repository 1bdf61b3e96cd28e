import ArgumentParser
import DarkroomCore
import DarkroomModel
import DarkroomShards
import DarkroomStages
import Foundation
import Logging
import DarkroomReport

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run a pipeline over input folders into a library.")

    @OptionGroup var arguments: PipelineArguments

    @Option(name: [.short, .long], help: "An input folder or file (repeatable). Default: the pipeline's inputs.folders.")
    var input: [String] = []

    @OptionGroup var library: PipelineLibraryArguments

    @OptionGroup var jobs: JobsArguments

    @OptionGroup var photoSettings: PhotoSettingsArguments

    @Flag(help: "Print what would be done, and do nothing.")
    var dryRun = false

    @Flag(help: "Print the plan or the report as JSON on standard output.")
    var json = false

    @Option(help: "Also write the report to this file: a page to look at when it ends in .html (failures, duplicates, uncertain dates, a contact sheet), JSON otherwise.")
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

    func run() throws {
        Verbosity.bootstrap(verbose: verbose)
        let pipeline = try arguments.load()
        let inputs = (input.isEmpty ? pipeline.inputs.folders : input).map { URL(fileURLWithPath: $0) }
        let libraryURL = try library.resolve(pipelineLibrary: pipeline.library)
        guard !inputs.isEmpty else { throw ValidationError("no inputs: give --input (or 'inputs: folders:' in the pipeline)") }
        let jobs = self.jobs.jobs
        var settings = RunSettings(library: libraryURL, pixelLimit: photoSettings.pixelLimit, timeZone: photoSettings.timeZone,
                                   jobs: jobs, force: force)
        settings.listsFiles = json || report != nil
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
            if json { print(try Self.json(result)) } else { print(result.summary(listingPassedOver: verbose > 0)) }
            // The photos are done whatever happens to the report: a report that cannot be written is
            // said, and the exit status still tells what happened to the photos.
            if let report {
                do {
                    try Self.write(result, to: URL(fileURLWithPath: report), settings: settings)
                } catch {
                    printError("error: cannot write the report \(report): \(error)")
                }
            }
            let (stopped, succeeded) = (result.stopped != nil, result.succeeded)
            // Its hundreds of thousands of files' entries are freed while the process exits.
            let leftovers = Leftovers()
            leftovers.hold(consume result)
            Leftovers.free(consume leftovers)
            if stopped { throw ExitStatus.incomplete }
            if !succeeded { throw ExitStatus.failuresListed }
        }
    }

    /// Writes the report: HTML for a `.html` file (its thumbnails linked relative to it), JSON otherwise.
    static func write(_ report: RunReport, to url: URL, settings: RunSettings) throws {
        if url.pathExtension.lowercased() == "html" {
            try BuiltInStages.reportPage.write(report, library: settings.library, to: url, pixelLimit: settings.pixelLimit)
        } else {
            try Data(try json(report).utf8).write(to: url)
        }
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
