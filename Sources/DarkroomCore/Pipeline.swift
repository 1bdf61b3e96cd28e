import Foundation
import DarkroomModel
import DarkroomOptions

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
    /// The kinds of media it takes: those of its per-item steps that make something (a step that
    /// only learns a fact, such as the capture date, takes no file on its own) and of its collection
    /// steps (a gallery takes videos, which no per-item step may work on); photos when it has none.
    public var media: Set<MediaKind> {
        let making = itemSteps.filter { !$0.configured.learnsOnly }
        var kinds = (making.isEmpty ? itemSteps : making).reduce(into: Set<MediaKind>()) { $0.formUnion($1.configured.media) }
        for step in collectionSteps { kinds.formUnion(step.configured.media) }
        return kinds.isEmpty ? [.photo] : kinds
    }
    /// The kinds of file discovery hands to the runner: those it takes, and videos too when a step
    /// publishes motion parts (a video may turn out to be a Live Photo's).
    public var discovers: Set<MediaKind> { prober == nil ? media : media.union([.video]) }
    /// What the survey reads in each file's header to pair stills with their videos, when a step
    /// publishes motion parts.
    public var prober: (any SourceProber)? { itemSteps.lazy.compactMap(\.configured.prober).first }
    /// How sidecars are matched to photos, when a step reads them.
    public var sidecars: (any SidecarMatcher)? { itemSteps.lazy.compactMap(\.configured.sidecars).first }
    /// The per-item steps that take motion parts.
    public var motionSteps: [PipelineStep] { itemSteps.filter(\.configured.takesMotionParts) }
    /// The collection steps, in order.
    public var collectionSteps: [PipelineStep] { steps.filter { $0.configured.kind == .collection } }

    /// Starts the native libraries every step uses, for a run with `settings`: call it on the thread
    /// that starts the work, before any worker thread (every entry point of `Runner` does).
    public func prepare(_ settings: RunSettings) throws {
        for step in steps { try step.configured.prepare(settings) }
    }
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

    public static let defaultInclude = ["**/*.{jpg,jpeg,jpe,heic,heif,hif,png,webp,avif,tif,tiff}"]
    public static let defaultExclude = ["**/.*", "**/.*/**"]

    public init(folders: [String] = [], include: [String] = InputSpec.defaultInclude,
                exclude: [String] = InputSpec.defaultExclude, followSymlinks: Bool = false) {
        self.folders = folders
        self.include = include
        self.exclude = exclude
        self.followSymlinks = followSymlinks
    }

    static let foldersOption = StageOption<[String]>.value(
        "folders", default: [], shown: "[]", accepts: "a list of folders",
        "Input folders used when the command line gives no --input.")
    static let includeOption = globs("include", default: defaultInclude, minimum: 1,
                                     "Globs over paths relative to an input folder (case-insensitive); a file must match one.")
    static let excludeOption = globs("exclude", default: defaultExclude, minimum: 0,
                                     "Globs that drop files and whole folders even when included.")
    static let followSymlinksOption = StageOption.flag(
        "follow-symlinks", default: false, "Follow symbolic links; when false, links are reported and passed over.")

    /// The keys of `inputs:`.
    public static let options: [any OptionDeclaration] = [foldersOption, includeOption, excludeOption, followSymlinksOption]

    private static func globs(_ key: String, default defaultValue: [String], minimum: Int, _ summary: String) -> StageOption<[String]> {
        .custom(key, as: [String].self, default: defaultValue, shown: "[\(defaultValue.joined(separator: ", "))]",
                accepts: minimum > 0 ? "a list of at least one glob" : "a list of globs", summary) { globs in
            guard globs.count >= minimum else { return nil }
            if let bad = globs.first(where: { Glob($0) == nil }) {
                throw OptionRejection(message: "expected a valid glob, got '\(bad)'")
            }
            return globs
        }
    }

    public init(from decoder: Decoder) throws {
        let reader = try OptionsReader(decoder, declaring: Self.options)
        folders = reader.read(Self.foldersOption)
        include = reader.read(Self.includeOption)
        exclude = reader.read(Self.excludeOption)
        followSymlinks = reader.read(Self.followSymlinksOption)
        try reader.finish()
    }
}
