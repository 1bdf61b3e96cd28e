import Foundation

/// A loaded, fully validated pipeline file.
public struct Pipeline: Sendable {
    /// The file it came from, as given (used in messages).
    public var file: String
    public var description: String?
    public var inputs: InputSpec
    /// The default library folder, when the file gives one (the command line wins).
    public var library: String?
    public var steps: [PipelineStep]

    /// The per-item steps, in order.
    public var itemSteps: [PipelineStep] { steps.filter { $0.configured.kind == .perItem } }
    /// The collection steps, in order.
    public var collectionSteps: [PipelineStep] { steps.filter { $0.configured.kind == .collection } }
}

/// One step of a pipeline: a configured stage and where it was written.
public struct PipelineStep: Sendable {
    /// Position in `steps` (0-based).
    public var index: Int
    public var configured: ConfiguredStep
    public var line: Int
    public var column: Int

    public var name: String { configured.name }
}

/// Which files under the input folders a pipeline takes.
public struct InputSpec: Codable, Sendable, Equatable {
    /// Default input folders, when the command line gives none.
    public var folders: [String]
    /// Globs over paths relative to an input folder; a file must match one. Case-insensitive.
    public var include: [String]
    /// Globs that drop files (and whole folders) even when included.
    public var exclude: [String]
    /// Whether to follow symbolic links (off: links are reported and skipped).
    public var followSymlinks: Bool

    public static let defaultInclude = ["**/*.{jpg,jpeg,jpe,heic,heif,hif,png,webp,avif}"]
    public static let defaultExclude = ["**/.*", "**/.*/**"]

    public init(folders: [String] = [], include: [String] = InputSpec.defaultInclude,
                exclude: [String] = InputSpec.defaultExclude, followSymlinks: Bool = false) {
        self.folders = folders
        self.include = include
        self.exclude = exclude
        self.followSymlinks = followSymlinks
    }

    public init(from decoder: Decoder) throws {
        let reader = try OptionsReader(decoder)
        folders = try reader.value("folders", default: [])
        include = try reader.value("include", default: InputSpec.defaultInclude, where: { !$0.isEmpty }, expected: "at least one glob")
        exclude = try reader.value("exclude", default: InputSpec.defaultExclude)
        followSymlinks = try reader.value("follow-symlinks", default: false)
        for glob in include + exclude where Glob(glob) == nil {
            throw reader.invalid(include.contains(glob) ? "include" : "exclude", expected: "a valid glob", got: "'\(glob)'")
        }
    }
}
