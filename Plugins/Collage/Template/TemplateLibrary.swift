import DarkroomCore
import Foundation
import DarkroomOptions

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

    /// A loaded template with the text it came from (hashed, so editing a template file redoes the collages).
    public struct Loaded: Sendable {
        public var template: CollageTemplate
        public var source: String
        /// `polaroid`, or the template file's reference as the pipeline writes it.
        public var origin: String
    }

    /// Loads `reference`: a built-in name, or a path to a `.yaml`/`.yml` file, read as
    /// `ReferencedFiles.decode` reads it (beside the pipeline file, else in the working directory,
    /// or from the texts a queued pipeline stored).
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
        let (template, source) = try ReferencedFiles.decode(CollageTemplate.self, reference, pipelineFile: pipelineFile)
        return Loaded(template: template, source: source, origin: reference)
    }
}

/// A template that cannot be found or read (its contents' mistakes are `Diagnostics`).
public struct TemplateLoadError: Error, CustomStringConvertible {
    public var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
