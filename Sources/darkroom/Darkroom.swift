import ArgumentParser
import DarkroomCore
import DarkroomStages
import Foundation
import Logging
import DarkroomOptions

/// The `darkroom` command-line tool.
@main
struct Darkroom: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "darkroom",
        abstract: "Run media-processing pipelines: import a camera roll, thumbnails, time-lapses, collages.",
        subcommands: Darkroom.commands)

    /// The commands; the work queue's only in a build with the package's `Queue` trait, and `export`
    /// only with its `Studio` trait (a build without it says how to get one).
    static var commands: [any ParsableCommand.Type] {
        #if Studio
        let export: any ParsableCommand.Type = Export.self
        #else
        let export: any ParsableCommand.Type = ExportLeftOut.self
        #endif
        var commands: [any ParsableCommand.Type] = [Run.self, Validate.self, Stages.self, Explain.self, export, DuplicatesCommand.self, CatalogCommand.self]
        #if Queue
        commands += [Enqueue.self, Worker.self, QueueCommand.self]
        #endif
        return commands
    }

    /// Parses and runs a command, then exits with the status `ExitStatus` documents: argument
    /// mistakes exit 2 (not swift-argument-parser's 64), unexpected errors 3 (not 1, which means
    /// "some files failed").
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let standard = exitCode(for: error)
            if standard == .success {  // --help, --version
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            if standard == .validationFailure && !(error is ExitCode) {
                printError(fullMessage(for: error))
                Foundation.exit(ExitStatus.refused.rawValue)
            }
            let (status, message) = ExitStatus.classify(error)
            if let message { printError(message) }
            Foundation.exit(status.rawValue)
        }
    }
}

/// Options every pipeline command shares.
struct PipelineArguments: ParsableArguments {
    @Argument(help: "The pipeline file (YAML), e.g. pipelines/import-camera-roll.yaml.")
    var pipeline: String

    /// Loads and validates the pipeline, printing compiler-style errors and exiting 2 when it is wrong.
    func load() throws -> Pipeline { try Self.load(path: pipeline) }

    /// Loads and validates the pipeline at `path`, as `load()` does.
    static func load(path: String) throws -> Pipeline {
        do {
            return try PipelineLoader(registry: BuiltInStages.registry).load(path: path)
        } catch let error as Diagnostics {
            printError(error.description)
            throw ExitCode(2)
        }
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

    @Flag(help: "Print Markdown tables (the README's stage reference) instead of text.")
    var markdown = false

    func run() throws {
        let stages = BuiltInStages.all
        print(markdown ? StageDocumentation.markdown(stages) : StageDocumentation.text(stages), terminator: "")
    }
}
