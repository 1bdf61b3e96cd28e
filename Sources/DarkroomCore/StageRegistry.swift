import Foundation
import DarkroomModel
import DarkroomOptions

/// Everything the runner and the CLI know about a stage type: its name, documentation, data flow,
/// and how to make a configured step from a pipeline file's options.
public struct StageDescriptor: Sendable {
    /// Per-item stages run on each photo; collection stages consume all of them.
    public enum Kind: String, Sendable {
        case perItem = "per-item"
        case collection
    }

    public let name: String
    public let summary: String
    public let kind: Kind
    /// The options it declares, in documentation order.
    public let options: [any OptionDeclaration]
    public let reads: Set<ItemAspect>
    public let writes: Set<ItemAspect>
    /// The kinds of media it works on.
    public let media: Set<MediaKind>
    /// Starts the native libraries it uses (see `Stage.prepare`).
    public let prepare: @Sendable (RunSettings) throws -> Void
    let configure: @Sendable (Decoder) throws -> ConfiguredStep

    /// Describes a per-item stage.
    public init<S: Stage>(_ stage: S.Type) {
        name = S.name
        summary = S.summary
        kind = .perItem
        options = S.Options.options
        reads = S.reads
        writes = S.writes
        media = S.media
        prepare = { try S.prepare($0) }
        configure = { decoder in
            let (options, record) = try OptionRecord.recording { try S.Options(from: decoder) }
            let instance = try S(options: options)
            return ConfiguredStep(name: S.name, kind: .perItem, prepare: { try S.prepare($0) },
                                  reads: instance.needs, writes: S.writes, media: S.media,
                                  takesMotionParts: S.takesMotionParts, prober: S.prober, readsLibrary: false,
                                  sidecars: S.sidecars, readsSidecars: instance.readsSidecars,
                                  optionsDigest: try ConfiguredStep.digest(record, of: S.name), stage: instance,
                                  action: .perItem { item, context in try instance.process(item, context: context) },
                                  plannedOutputs: { item, settings in instance.plannedOutputs(for: item, settings: settings) },
                                  outputTemplates: ConfiguredStep.templates(in: options))
        }
    }

    /// Describes a collection stage.
    public init<S: CollectionStage>(_ stage: S.Type) {
        name = S.name
        summary = S.summary
        kind = .collection
        options = S.Options.options
        reads = S.reads
        writes = []
        media = S.media
        prepare = { try S.prepare($0) }
        configure = { decoder in
            let (options, record) = try OptionRecord.recording { try S.Options(from: decoder) }
            let instance = try S(options: options)
            return ConfiguredStep(name: S.name, kind: .collection, prepare: { try S.prepare($0) },
                                  reads: S.reads, writes: [], media: S.media,
                                  takesMotionParts: false, prober: nil, readsLibrary: S.readsLibrary, sidecars: nil, readsSidecars: false,
                                  optionsDigest: try ConfiguredStep.digest(record, of: S.name), stage: instance,
                                  action: .collection { items, context in try instance.run(items, context: context) },
                                  plannedOutputs: { _, _ in [] })
        }
    }
}

/// The stages a pipeline file may name. Built-in stages come from one explicit list
/// (`DarkroomStages.builtIn`); a third party adds its own by registering a descriptor.
public struct StageRegistry: Sendable {
    public private(set) var descriptors: [StageDescriptor] = []
    /// Stages this build of the program leaves out, by name, each with how to get a build that has it:
    /// a pipeline naming one is refused with that, rather than as an unknown stage.
    public private(set) var leftOut: [String: String] = [:]

    public init(_ descriptors: [StageDescriptor] = [], leftOut: [String: String] = [:]) {
        for descriptor in descriptors { register(descriptor) }
        self.leftOut = leftOut.filter { name, _ in !descriptors.contains { $0.name == name } }
    }

    /// Adds a stage (replacing one of the same name).
    public mutating func register(_ descriptor: StageDescriptor) {
        descriptors.removeAll { $0.name == descriptor.name }
        descriptors.append(descriptor)
        leftOut[descriptor.name] = nil
    }

    /// This registry plus more stages.
    public func adding(_ more: [StageDescriptor]) -> StageRegistry {
        var copy = self
        for descriptor in more { copy.register(descriptor) }
        return copy
    }

    public func descriptor(named name: String) -> StageDescriptor? {
        descriptors.first { $0.name == name }
    }

    public var names: [String] { descriptors.map(\.name) }
}

/// A stage made from its options: ready to run, with a digest of the options for the catalog.
public struct ConfiguredStep: Sendable {
    enum Action: Sendable {
        case perItem(@Sendable (Item, StageContext) throws -> Void)
        case collection(@Sendable ([ItemRecord], CollectionContext) throws -> Void)
    }

    public let name: String
    public let kind: StageDescriptor.Kind
    /// Starts the native libraries the stage uses (see `Stage.prepare`).
    let prepare: @Sendable (RunSettings) throws -> Void
    public let reads: Set<ItemAspect>
    public let writes: Set<ItemAspect>
    /// The kinds of media it works on.
    public let media: Set<MediaKind>
    /// Whether it works on motion parts (a Live Photo's video joined to its still).
    public let takesMotionParts: Bool
    /// What the survey reads in each file's header to pair a still with its video, for a step that
    /// publishes motion parts.
    public let prober: (any SourceProber)?
    /// For a collection step: whether it reads the library's catalog beyond its items, and so runs on
    /// every run (see `CollectionStage.readsLibrary`).
    public let readsLibrary: Bool
    /// How it matches sidecars to photos, for a step that reads them.
    public let sidecars: (any SidecarMatcher)?
    /// Whether its unit key includes the hashes of a photo's sidecars.
    public let readsSidecars: Bool
    /// Whether the step only learns facts about an item (its capture date) for later steps.
    public var learnsOnly: Bool { !writes.isEmpty && !writes.contains(.image) }
    /// SHA-256 of the options as the stage read them (defaults included, see `OptionRecord`), so YAML
    /// formatting does not matter and no option read can be left out.
    public let optionsDigest: String
    /// The stage made from the options (`darkroom explain` asks `exif-date` for its decision).
    public let stage: any Sendable
    let action: Action
    let plannedOutputs: @Sendable (Item, RunSettings) -> [String]

    /// Where the step would publish `item`'s files (library-relative paths); empty for a step
    /// that does not say.
    public func plannedOutputs(for item: Item, settings: RunSettings) -> [String] { plannedOutputs(item, settings) }

    /// The path templates among its options (a per-item step's `output`), where its files go.
    public var outputTemplates: [PathTemplate] = []

    /// The path templates an options value holds, found by reflection, so that no stage has to
    /// declare them twice.
    static func templates(in options: Any) -> [PathTemplate] {
        // An optional template casts too when it holds one.
        Mirror(reflecting: options).children.compactMap { $0.value as? PathTemplate }
    }

    /// The digest of the record the stage's options made as they were read; an error when they were
    /// not read through `OptionsReader(_:declaring:)`, which alone makes one.
    static func digest(_ record: OptionRecord?, of stage: String) throws -> String {
        guard let record else {
            throw StageSetupError("stage '\(stage)' does not read its options through OptionsReader(_:declaring:), so its work has no key")
        }
        return ContentHash.of(try record.json())
    }
}
