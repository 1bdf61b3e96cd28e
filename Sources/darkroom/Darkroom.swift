import ArgumentParser
import DarkroomCore
import DarkroomImaging
import DarkroomStages
import Foundation
import Logging

/// The `darkroom` command-line tool.
@main
struct Darkroom: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "darkroom",
        abstract: "Run media-processing pipelines: import a camera roll, thumbnails, time-lapses, collages.",
        subcommands: [Run.self, Validate.self, Stages.self, CatalogCommand.self])
}

/// Options every pipeline command shares.
struct PipelineArguments: ParsableArguments {
    @Argument(help: "The pipeline file (YAML), e.g. pipelines/import-camera-roll.yaml.")
    var pipeline: String

    /// Loads and validates the pipeline, printing compiler-style errors and exiting 2 when it is wrong.
    func load() throws -> Pipeline {
        do {
            return try PipelineLoader(registry: BuiltInStages.registry).load(path: pipeline)
        } catch let error as Diagnostics {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode(2)
        }
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run a pipeline over input folders into a library.")

    @OptionGroup var arguments: PipelineArguments

    @Option(name: [.short, .long], help: "An input folder or file (repeatable). Default: the pipeline's inputs.folders.")
    var input: [String] = []

    @Option(name: [.short, .long], help: "The library (output) folder. Default: the pipeline's library.")
    var library: String?

    @Option(name: [.short, .long], help: "Photos processed at once (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Refuse images over this many megapixels, from the header, before decoding.")
    var maxMegapixels: Double = 100

    @Option(help: "Time zone for times without an offset (GPS UTC, file times), e.g. Europe/Paris. Default: this machine's.")
    var timeZone: String?

    @Flag(help: "Print what would be done, and do nothing.")
    var dryRun = false

    @Flag(help: "Print the plan or the report as JSON on standard output.")
    var json = false

    @Option(help: "Also write the report as JSON to this file.")
    var report: String?

    @Flag(help: "Redo all work even when the catalog says it is current.")
    var force = false

    @Flag(name: .shortAndLong, help: "Log each file.")
    var verbose = false

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
        guard maxMegapixels > 0 else { throw ValidationError("--max-megapixels must be positive, got \(maxMegapixels)") }
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            throw ValidationError("--time-zone: unknown time zone '\(timeZone)' (use a name like Europe/Paris or UTC)")
        }
    }

    func run() throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = verbose ? .debug : .info
            return handler
        }
        let pipeline = try arguments.load()
        let inputs = (input.isEmpty ? pipeline.inputs.folders : input).map { URL(fileURLWithPath: $0) }
        guard let libraryPath = library ?? pipeline.library else {
            throw ValidationError("no library: give --library (or 'library:' in the pipeline)")
        }
        guard !inputs.isEmpty else { throw ValidationError("no inputs: give --input (or 'inputs: folders:' in the pipeline)") }
        let settings = RunSettings(library: URL(fileURLWithPath: libraryPath, isDirectory: true),
                                   pixelLimit: Int(maxMegapixels * 1_000_000),
                                   timeZone: timeZone.flatMap(TimeZone.init(identifier:)) ?? .current,
                                   jobs: jobs, force: force)
        try ImagingSetup.configure(for: settings)
        let interactive = isatty(STDERR_FILENO) != 0 && !json
        let runner = Runner(pipeline: pipeline, settings: settings, logger: Logger(label: "darkroom"),
                            progress: interactive ? ProgressBar() : nil)
        do {
            if dryRun {
                let plan = try runner.plan(inputs: inputs)
                print(json ? try Self.json(plan) : plan.text)
                return
            }
            let result = try runner.run(inputs: inputs)
            if interactive { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            if let report { try Data(try Self.json(result).utf8).write(to: URL(fileURLWithPath: report)) }
            if json { print(try Self.json(result)) } else { print(result.summary) }
            if !result.succeeded { throw ExitCode(1) }
        } catch let error as RunError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check a pipeline file and print its steps.")

    @OptionGroup var arguments: PipelineArguments

    func run() throws {
        let pipeline = try arguments.load()
        print("\(pipeline.file): ok, \(pipeline.steps.count) steps: \(pipeline.steps.map(\.name).joined(separator: " -> "))")
    }
}

struct Stages: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the stages a pipeline can use, with their options.")

    func run() throws {
        for stage in BuiltInStages.all {
            print("\(stage.name) (\(stage.kind.rawValue))\n  \(stage.summary)")
            for field in stage.fields {
                let value = field.defaultValue.isEmpty ? "" : " [default: \(field.defaultValue)]"
                print("    \(field.key): \(field.summary)\(value)")
            }
        }
    }
}

struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "catalog", abstract: "Inspect a library's catalog.",
                                                    subcommands: [Verify.self, Rebuild.self])

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check every catalogued file (exists, size, SHA-256) and list files the catalog does not know. Exit 1 on drift.")

        @Option(name: [.short, .long], help: "The library folder.")
        var library: String

        @Flag(help: "Print the result as JSON.")
        var json = false

        func run() throws {
            let url = URL(fileURLWithPath: library, isDirectory: true)
            guard let catalog = try Catalog.openIfPresent(library: url) else {
                FileHandle.standardError.write(Data("error: \(library) has no catalog (.darkroom/catalog.sqlite)\n".utf8))
                throw ExitCode(2)
            }
            let drift = try catalog.verify(library: url)
            print(json ? try Run.json(drift) : drift.text)
            if !drift.isClean { throw ExitCode(1) }
        }
    }
}

extension CatalogCommand {
    struct Rebuild: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rebuild a lost catalog from the library: files named with a photo's id are recorded, and the next run over the originals adopts them without redoing their work.")

        @Option(name: [.short, .long], help: "The library folder.")
        var library: String

        func run() throws {
            let url = URL(fileURLWithPath: library, isDirectory: true)
            let catalog = try Catalog(library: url)
            let (files, photos) = try catalog.rebuild(library: url)
            print("recorded \(files) files of \(photos) photos; run the import over the originals to attach them to their photos")
            let drift = try catalog.verify(library: url)
            if !drift.untracked.isEmpty { print("\(drift.untracked.count) files carry no photo id and stay untracked:\n" + drift.untracked.map { "  \($0)" }.joined(separator: "\n")) }
        }
    }
}

/// A one-line progress bar on standard error.
final class ProgressBar: RunProgress, @unchecked Sendable {
    private let lock = NSLock()
    private var lastDraw = Date.distantPast

    func update(finished: Int, total: Int, current: String) {
        lock.lock(); defer { lock.unlock() }
        guard finished == total || Date().timeIntervalSince(lastDraw) > 0.1 else { return }
        lastDraw = Date()
        let width = 30
        let filled = total == 0 ? width : width * finished / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let name = current.count > 40 ? "..." + current.suffix(37) : current
        FileHandle.standardError.write(Data("\r\u{1B}[K[\(bar)] \(finished)/\(total) \(name)".utf8))
    }

    func collectionStarted(_ step: String, items: Int) {
        lock.lock(); defer { lock.unlock() }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(step): \(items) photos...".utf8))
    }
}
