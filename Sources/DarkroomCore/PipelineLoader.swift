import Foundation
import Yams
import DarkroomOptions

/// Loads pipeline files: YAML in, a validated `Pipeline` out, or every problem as a compiler-style
/// `Diagnostic`. Nothing touches a pixel before the whole file validates.
///
///     description: Import a camera roll
///     inputs: { include: ["**/*.jpg"] }
///     steps:
///       - exif-date
///       - resize: { long-edge: 2048 }
public struct PipelineLoader: Sendable {
    public let registry: StageRegistry

    public init(registry: StageRegistry) {
        self.registry = registry
    }

    static let topLevelKeys = ["description", "inputs", "library", "steps"]

    /// Loads and validates the file at `path` (relative paths are kept as given, for messages).
    public func load(path: String) throws -> Pipeline {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw Diagnostics([Diagnostic(file: path, line: 1, column: 1, keyPath: "",
                                          message: "cannot read pipeline file: \(error.localizedDescription)")])
        }
        return try load(yaml: text, file: path)
    }

    /// Validates pipeline YAML given as text; `file` names it in messages.
    public func load(yaml: String, file: String) throws -> Pipeline {
        let decoding = NodeDecoding(file: file, source: yaml)
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: yaml) else {
                throw Diagnostics([decoding.diagnostic(at: nil, path: "", "the pipeline file is empty; it needs 'steps'")])
            }
            root = node
        } catch let error as YamlError {
            throw Diagnostics([decoding.diagnostic(yamlError: error)])
        }
        guard let mapping = root.mapping else {
            throw Diagnostics([decoding.diagnostic(at: root.mark, path: "", "expected a mapping with 'steps', got \(kind(of: root))")])
        }

        var problems: [Diagnostic] = []
        for key in mapping.keys {
            guard let name = key.string, !Self.topLevelKeys.contains(name) else { continue }
            var message = "unknown key '\(name)'"
            if let near = Suggestion.nearest(to: name, in: Self.topLevelKeys) { message += " (did you mean '\(near)'?)" }
            problems.append(decoding.diagnostic(at: key.mark, path: "", message))
        }

        var inputs = InputSpec()
        if let node = mapping["inputs"] {
            do { inputs = try decoding.decode(InputSpec.self, from: node, keyPath: "inputs") }
            catch let error as Diagnostics { problems += error.items }
        }

        var library: String?
        if let node = mapping["library"] {
            if let value = node.scalar?.string, !value.isEmpty { library = value }
            else { problems.append(decoding.diagnostic(at: node.mark, path: "library", "expected a folder path, got \(kind(of: node))")) }
        }

        var steps: [PipelineStep] = []
        if let node = mapping["steps"] {
            if let sequence = node.sequence, !sequence.isEmpty {
                for (index, stepNode) in sequence.enumerated() {
                    do { steps.append(try step(stepNode, index: index, decoding: decoding)) }
                    catch let error as Diagnostics { problems += error.items }
                }
            } else {
                problems.append(decoding.diagnostic(at: node.mark, path: "steps", "expected a list of steps, got \(kind(of: node))"))
            }
        } else {
            problems.append(decoding.diagnostic(at: root.mark, path: "", "missing required key 'steps'"))
        }

        problems += orderProblems(steps, decoding: decoding, source: yaml)
        guard problems.isEmpty else {
            throw Diagnostics(problems.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        return Pipeline(file: file, description: mapping["description"]?.string, inputs: inputs, library: library, steps: steps)
    }

    /// A step is `name` or `name: {options}` (a mapping with exactly one key).
    private func step(_ node: Node, index: Int, decoding: NodeDecoding) throws -> PipelineStep {
        let nameNode: Node, optionsNode: Node?
        if let name = node.scalar, !name.string.isEmpty {
            nameNode = node; optionsNode = nil
        } else if let mapping = node.mapping, mapping.count == 1, let first = mapping.first {
            nameNode = first.key; optionsNode = first.value
        } else {
            throw Diagnostics([decoding.diagnostic(at: node.mark, path: "steps[\(index)]",
                                                   "expected a stage name, or a stage name with its options (one key), got \(kind(of: node))")])
        }
        let name = nameNode.string ?? ""
        guard let descriptor = registry.descriptor(named: name) else {
            var message = "unknown stage '\(name)'"
            if let howToGet = registry.leftOut[name] { message = "stage '\(name)' is not in this build of darkroom: \(howToGet)" }
            else if let near = Suggestion.nearest(to: name, in: registry.names) { message += " (did you mean '\(near)'?)" }
            else { message += "; known stages: \(registry.names.joined(separator: ", "))" }
            throw Diagnostics([decoding.diagnostic(at: nameNode.mark, path: "steps[\(index)]", message)])
        }
        let options = optionsNode ?? Node("", Tag(.null))
        let configured = try decoding.decode(ConfiguredStepBox.self, from: options,
                                             keyPath: "steps[\(index)].\(name)", userInfo: [ConfiguredStepBox.descriptorKey: descriptor])
        return PipelineStep(index: index, configured: configured.step, line: nameNode.mark?.line ?? 1,
                            column: nameNode.mark?.column ?? 1)
    }

    /// Each stage's `reads` must be written by an earlier per-item step.
    private func orderProblems(_ steps: [PipelineStep], decoding: NodeDecoding, source: String) -> [Diagnostic] {
        var available: Set<ItemAspect> = []
        var problems: [Diagnostic] = []
        for step in steps {
            let missing = step.configured.reads.subtracting(available)
            if !missing.isEmpty {
                let producers = registry.descriptors.filter { !$0.writes.isDisjoint(with: missing) }.map(\.name)
                let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
                problems.append(Diagnostic(
                    file: decoding.file, line: step.line, column: step.column, keyPath: "steps[\(step.index)]",
                    message: "'\(step.name)' needs \(missing.map(\.name).sorted().joined(separator: ", ")) from an earlier step"
                        + (producers.isEmpty ? "" : " (add \(producers.map { "'\($0)'" }.joined(separator: " or ")) before it)"),
                    sourceLine: step.line <= lines.count ? String(lines[step.line - 1]) : nil))
            }
            available.formUnion(step.configured.writes)
        }
        return problems
    }

    private func kind(of node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let s): return s.string.isEmpty ? "nothing" : "'\(s.string)'"
        default: return "an alias"
        }
    }
}

/// Decodes a step's options through its descriptor (passed as the decoding's context).
struct ConfiguredStepBox: Decodable {
    let step: ConfiguredStep

    init(from decoder: Decoder) throws {
        guard let descriptor = decoder.userInfo[ConfiguredStepBox.descriptorKey] as? StageDescriptor else {
            preconditionFailure("ConfiguredStepBox decoded without a descriptor")
        }
        step = try descriptor.configure(decoder)
    }

    static let descriptorKey = CodingUserInfoKey(rawValue: "darkroom.descriptor")!
}
