import Foundation
import DarkroomCore
import DarkroomModel
import DarkroomOptions

/// The pipeline steps that made a library's outputs, found again from the catalog's step ids
/// (`<pipeline name>/<step id>`): in a pipeline file given on the command line, else in the file
/// the latest run of that name recorded. Not thread-safe: one planner uses it.
final class OutputSteps {
    /// A step found again, with a runner for its pipeline (for the unit keys of motion parts).
    struct Found {
        let runner: Runner
        let step: PipelineStep

        /// The step's templates that put a capture date in the path.
        var datedTemplates: [PathTemplate] { step.configured.outputTemplates.filter(\.usesDateFields) }
    }

    private let library: URL
    private let given: [String: Pipeline]
    private let recorded: [String]
    private let load: (String) throws -> Pipeline
    private var runners: [String: Runner] = [:]
    /// Why a pipeline name could not be read, by name; reported all at once (`PipelinesNotFound`).
    private(set) var problems: [String: String] = [:]

    /// `given` are the pipeline files of `--pipeline`; `recorded` the pipeline files runs recorded,
    /// latest first; `load` reads and validates one.
    init(library: URL, given: [Pipeline], recorded: [String], load: @escaping (String) throws -> Pipeline) {
        self.library = library
        self.given = Dictionary(given.map { (Runner.pipelineName(of: $0), $0) }, uniquingKeysWith: { first, _ in first })
        self.recorded = recorded
        self.load = load
    }

    /// The step that made the output at `path`, or nil (with the reason in `problems`).
    func step(_ catalogStep: String, madeOutput path: String) -> Found? {
        guard let slash = catalogStep.firstIndex(of: "/") else { return nil }
        let name = String(catalogStep[..<slash]), stepID = String(catalogStep[catalogStep.index(after: slash)...])
        guard problems[name] == nil, let runner = runner(named: name, madeOutput: path) else { return nil }
        guard let index = runner.stepIDs.firstIndex(of: stepID) else {
            problems[name] = "the pipeline file \(runner.pipeline.file) has no step '\(stepID)' (which made \(path)); "
                + "give the pipeline file that made it with --pipeline"
            return nil
        }
        return Found(runner: runner, step: runner.pipeline.steps[index])
    }

    private func runner(named name: String, madeOutput path: String) -> Runner? {
        if let runner = runners[name] { return runner }
        guard let pipeline = given[name] ?? recordedPipeline(named: name, madeOutput: path) else { return nil }
        let runner = Runner(pipeline: pipeline, settings: RunSettings(library: library))
        runners[name] = runner
        return runner
    }

    /// The file the latest run of that name recorded, loaded.
    private func recordedPipeline(named name: String, madeOutput path: String) -> Pipeline? {
        guard let file = recorded.first(where: { Runner.pipelineName(file: $0) == name }) else {
            problems[name] = "no run recorded a pipeline file named '\(name)' (which made \(path)); give it with --pipeline"
            return nil
        }
        guard FileManager.default.fileExists(atPath: file) else {
            problems[name] = "the pipeline file \(file) (which made \(path)) is missing; give it with --pipeline"
            return nil
        }
        do {
            return try load(file)
        } catch {
            problems[name] = "the pipeline file \(file) (which made \(path)) does not load: \(error)"
            return nil
        }
    }
}

/// The pipeline files that made some outputs could not be read: where their outputs go now is
/// unknown, so nothing was changed (the command exits 2).
public struct PipelinesNotFound: RefusalError, CustomStringConvertible {
    /// One line per pipeline name.
    public var problems: [String]
    /// The problems, one a line, under a line saying nothing changed.
    public var description: String {
        "cannot tell where outputs go now, nothing was changed:\n" + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}
