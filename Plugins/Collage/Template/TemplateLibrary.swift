import DarkroomCore
import Foundation
import Synchronization

/// Finds templates: a built-in name (`grid`) or a template file (`templates/mine.yaml`).
/// Built-ins are YAML text compiled into the module and decoded by the same code as users' files.
public enum TemplateLibrary {
    /// A built-in template's YAML text, by name, in the order they are documented.
    public static let builtIn: [(name: String, yaml: String)] = [
        ("polaroid", BuiltInTemplate.polaroid),
        ("grid", BuiltInTemplate.grid),
        ("film-strip", BuiltInTemplate.filmStrip),
        ("then-and-now", BuiltInTemplate.thenAndNow),
    ]

    /// The names of the built-in templates.
    public static var builtInNames: [String] { builtIn.map(\.name) }

    /// Where template files are found while a pipeline loads, and which were read: set it around
    /// `PipelineLoader.load` with `TemplateSources.loading`.
    @TaskLocal public static var sources: TemplateSources?

    /// A loaded template with the text it came from (hashed, so editing a template file redoes the collages).
    public struct Loaded: Sendable {
        public var template: CollageTemplate
        public var source: String
        /// `polaroid`, or the template file's reference as the pipeline writes it.
        public var origin: String
    }

    /// Loads `reference`: a built-in name, or a path to a `.yaml`/`.yml` file. A relative path is
    /// read from the pipeline file's folder (`pipelineFile`, which the loader hands every stage), and
    /// else from the working directory (as before pipelines carried their folder). A template the
    /// current `sources` holds as text (a queued pipeline's) is taken from there, with no file.
    /// Template-file mistakes are thrown as `Diagnostics` pointing into the file.
    public static func load(_ reference: String, pipelineFile: String? = nil) throws -> Loaded {
        if let entry = builtIn.first(where: { $0.name == reference }) {
            let template = try YAMLDocument.decode(CollageTemplate.self, yaml: entry.yaml, file: "<built-in \(entry.name)>")
            return Loaded(template: template, source: entry.yaml, origin: entry.name)
        }
        guard reference.hasSuffix(".yaml") || reference.hasSuffix(".yml") else {
            var message = "unknown template '\(reference)': expected one of \(builtInNames.joined(separator: ", ")) or a .yaml file"
            if let near = Suggestion.nearest(to: reference, in: builtInNames) { message += " (did you mean '\(near)'?)" }
            throw TemplateLoadError(message)
        }
        let (template, source) = try loadFile(CollageTemplate.self, reference, pipelineFile: pipelineFile)
        return Loaded(template: template, source: source, origin: reference)
    }

    /// Reads and decodes a template file of any kind (a collage template, a photo book's page
    /// layout) the way `load` does: the text the current `sources` holds for `reference`, else the
    /// file beside `pipelineFile`, then in the working directory; the text read is noted in
    /// `sources` for a queue to store. Returns the decoded value and the text. Mistakes in the file
    /// are `Diagnostics` pointing into it; a file not found is a `TemplateLoadError`.
    public static func loadFile<T: Decodable>(_ type: T.Type, _ reference: String, pipelineFile: String?) throws -> (value: T, source: String) {
        let context = sources
        if let source = context?.stored[reference] {
            context?.noteRead(reference, source: source)
            return (try YAMLDocument.decode(T.self, yaml: source, file: reference), source)
        }
        let candidates = candidatePaths(reference, pipelineFile: pipelineFile)
        for path in candidates {
            guard let source = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            context?.noteRead(reference, source: source)
            return (try YAMLDocument.decode(T.self, yaml: source, file: path), source)
        }
        throw TemplateLoadError("cannot read template file '\(reference)'"
                                + (candidates.count > 1 ? " (looked for \(candidates.joined(separator: " and ")))" : ""))
    }

    /// Where a template file may be: next to the pipeline file first, then in the working directory.
    static func candidatePaths(_ reference: String, pipelineFile: String?) -> [String] {
        guard !reference.hasPrefix("/"), let pipelineFile else { return [reference] }
        let folder = URL(fileURLWithPath: pipelineFile).deletingLastPathComponent()
        let besidePipeline = folder.appendingPathComponent(reference).standardizedFileURL.path
        let inWorkingDirectory = URL(fileURLWithPath: reference).standardizedFileURL.path
        return besidePipeline == inWorkingDirectory ? [reference] : [besidePipeline, reference]
    }
}

/// The template files of one pipeline being loaded: the texts to use instead of files (a queued
/// pipeline's, stored with it), and the texts that were read, so that whoever queues a pipeline can
/// store them with it.
public final class TemplateSources: Sendable {
    /// Template texts by reference as the pipeline writes it, used instead of files.
    public let stored: [String: String]
    /// The texts read so far, by reference.
    private let texts = Mutex<[String: String]>([:])

    /// Sources for loading a pipeline, with `stored` texts taking precedence over files.
    public init(stored: [String: String] = [:]) {
        self.stored = stored
    }

    /// The template files loaded so far (from files or `stored`), by reference, with their text.
    public var read: [String: String] { texts.withLock { $0 } }

    func noteRead(_ reference: String, source: String) {
        texts.withLock { $0[reference] = source }
    }

    /// Runs `body` (typically `PipelineLoader.load`) with these sources as `TemplateLibrary.sources`.
    public func loading<T>(_ body: () throws -> T) rethrows -> T {
        try TemplateLibrary.$sources.withValue(self, operation: body)
    }
}

/// A template that cannot be found or read (its contents' mistakes are `Diagnostics`).
public struct TemplateLoadError: Error, CustomStringConvertible {
    public var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
