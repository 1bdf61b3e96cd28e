import Foundation
import Logging
import Synchronization
import DarkroomLibrary
import DarkroomModel
import DarkroomReport

/// Runs a pipeline over input folders into a library.
///
/// 1. Discover: walk the inputs (globs, sorted, links not followed; the library itself is skipped).
/// 2. Hash: SHA-256 of each file (remembered by path, size, mtime and inode, so a re-run reads nothing).
/// 3. Plan: a photo seen twice is a duplicate; each step's work unit is keyed by the step, its
///    options, the content hash and the units it reads from; done units are skipped.
/// 4. Run: per-item steps on `jobs` items at once; then collection steps over all good items in
///    capture-date order.
/// 5. Publish and record: outputs appear atomically, then the catalog records them.
public final class Runner: Sendable {
    public let pipeline: Pipeline
    public let settings: RunSettings
    public let logger: Logger
    public let progress: RunProgress?

    public init(pipeline: Pipeline, settings: RunSettings, logger: Logger = Logger(label: "darkroom"),
                progress: RunProgress? = nil) {
        self.pipeline = pipeline
        self.settings = settings
        self.logger = logger
        self.progress = progress
        stepIDs = Runner.stepIDs(of: pipeline)
        catalogIDs = stepIDs.map { "\(Runner.pipelineName(of: pipeline))/\($0)" }
        dependencies = Runner.dependencies(of: pipeline)
        learningSteps = Runner.learningSteps(of: pipeline, dependencies: dependencies)
        unitSteps = Runner.unitSteps(of: pipeline, catalogIDs: catalogIDs, dependencies: dependencies)
        libraryPath = settings.library.path
    }

    // Computed once here, never lazily: worker threads read them concurrently.

    /// A catalog id for each step: its stage name, with `#2`, `#3` for repeats of the same stage.
    package let stepIDs: [String]

    /// The ids the catalog files units and outputs under: `<pipeline name>/<step id>`, so two
    /// pipelines sharing a library (an import and a collage, say) never take each other's work for stale.
    let catalogIDs: [String]

    /// For each step, the earlier per-item steps whose results it reads.
    let dependencies: [[Int]]

    /// The per-item steps that learn facts about a photo (its capture date) without making pixels,
    /// with the steps they read from, in order.
    let learningSteps: [Int]

    /// What a photo's work (`work(for:)`) is worked out from, for each per-item step in order.
    let unitSteps: [UnitStep]

    /// The library's path, where a photo's outputs are looked for.
    let libraryPath: String

    /// A per-item step as a photo's unit key is made from it.
    struct UnitStep: Sendable {
        let index: Int
        let catalogID: String
        /// How every unit key of the step starts: `<catalog id>|<options digest>|`, in UTF-8.
        let keyPrefix: [UInt8]
        let media: Set<MediaKind>
        let readsSidecars: Bool
        /// The earlier per-item steps whose results it reads.
        let dependencies: [Int]
    }

    static func stepIDs(of pipeline: Pipeline) -> [String] {
        var counts: [String: Int] = [:]
        return pipeline.steps.map { step in
            counts[step.name, default: 0] += 1
            let n = counts[step.name]!
            return n == 1 ? step.name : "\(step.name)#\(n)"
        }
    }

    private static func dependencies(of pipeline: Pipeline) -> [[Int]] {
        pipeline.steps.map { step in
            step.configured.reads.compactMap { aspect in
                pipeline.steps[..<step.index].last { $0.configured.kind == .perItem && $0.configured.writes.contains(aspect) }?.index
            }.sorted()
        }
    }

    private static func unitSteps(of pipeline: Pipeline, catalogIDs: [String], dependencies: [[Int]]) -> [UnitStep] {
        pipeline.itemSteps.map { step in
            UnitStep(index: step.index, catalogID: catalogIDs[step.index],
                     keyPrefix: Array("\(catalogIDs[step.index])|\(step.configured.optionsDigest)|".utf8), media: step.configured.media,
                     readsSidecars: step.configured.readsSidecars, dependencies: dependencies[step.index])
        }
    }

    private static func learningSteps(of pipeline: Pipeline, dependencies: [[Int]]) -> [Int] {
        let learning = pipeline.itemSteps.filter(\.configured.learnsOnly).map(\.index)
        var required = Set(learning)
        var frontier = learning
        while let next = frontier.popLast() {
            for dependency in dependencies[next] where required.insert(dependency).inserted { frontier.append(dependency) }
        }
        return required.sorted()
    }

    // MARK: Entry points

    /// Works out what `run` would do, reading files (to hash them) but writing nothing.
    /// `catalog` is what is already done (nil: nothing is); with `shard`, only that shard's share is
    /// listed. `DarkroomCatalog` adds `plan(inputs:shard:)`, which reads the library's SQLite catalog.
    public func plan(inputs: [URL], catalog: CatalogStore?, shard: Shard? = nil) throws -> RunPlan {
        try Runner.checkInputs(inputs)
        try pipeline.prepare(settings)
        let catalog = catalog.map(CatalogReadAhead.init)
        let survey = try self.survey(inputs: inputs, catalog: catalog, remember: false)
        var plan = RunPlan(pipeline: pipeline.file, library: settings.library.path)
        // What collections would see: every photo's remembered facts, or nil once one has work to do.
        var collected: [ItemRecord]? = []
        try inBlocks(Array(survey.entries.indices), of: survey.entries, catalog: catalog) { block in
            for entry in block.lazy.map({ survey.entries[$0] }) where shard?.owns(contentHash: entry.owner) ?? true {
                switch entry.state {
                case .unreadable(let reason):
                    plan.entries.append(.init(path: entry.found.path, id: nil, action: .unreadable, steps: [], note: reason))
                case .duplicate(let original, _):
                    plan.entries.append(.init(path: entry.found.path, id: nil, action: .duplicate, steps: [],
                                              note: "same photo as \(original)"))
                case .motionPart(let still, let hash, let stillPath):
                    let remembered = try catalog?.rememberedFacts(contentHash: still)
                    let date = collected?.first { $0.contentHash == still }?.captureDate ?? remembered?.captureDate
                    let work = try date.map { try motionWork(for: hash, still: still, date: $0, catalog: catalog).0 }
                    plan.entries.append(.init(path: entry.found.path, id: ContentHash.uuid(fromHex: still).uuidString.lowercased(),
                                              action: work?.required.isEmpty == true ? .skip : .process,
                                              steps: (work?.required ?? pipeline.motionSteps.map(\.index)).map { stepIDs[$0] },
                                              note: (MediaKind.isRawPhoto(entry.found.path) ? "RAW of the RAW+JPEG pair of " : "Live Photo video of ")
                                                + stillPath))
                case .unique(let hash, _):
                    let work = try self.work(for: hash, kind: MediaKind(fileName: entry.found.name), catalog: catalog,
                                             sidecars: entry.found.sidecars)
                    plan.entries.append(.init(path: entry.found.path, id: ContentHash.uuid(fromHex: hash).uuidString.lowercased(),
                                              action: work.required.isEmpty ? .skip : .process,
                                              steps: work.required.map { stepIDs[$0] }, note: nil))
                    if work.required.isEmpty, let facts = try catalog?.rememberedFacts(contentHash: hash) {
                        collected?.append(ItemRecord(sourcePath: entry.found.path, relativePath: entry.found.relativePath, contentHash: hash,
                                                     id: ContentHash.uuid(fromHex: hash), captureDate: facts.captureDate,
                                                     pixelWidth: facts.width, pixelHeight: facts.height))
                    } else {
                        collected = nil
                    }
                }
            }
        }
        plan.sidecars = RunReport.sidecars(of: survey.entries.filter { shard?.owns(contentHash: $0.owner) ?? true }).map {
            RunPlan.Entry(path: $0.path, id: nil, action: .sidecar, steps: [], note: "\($0.kind) of \($0.of): \($0.reason)")
        }
        plan.passedOver = survey.skipped.filter { shard?.owns(name: $0.path) ?? true }.map {
            RunPlan.Entry(path: $0.path, id: nil, action: .passOver, steps: [], note: $0.reason)
        }
        for step in pipeline.collectionSteps {
            // Up to date only when no photo has work and the step's unit matches what it would see;
            // a shard's plan cannot tell (the other shards' photos count too).
            let current = try shard == nil && collected.map {
                try collectionIsCurrent(step, items: markingBursts(Runner.inCaptureOrder($0), for: step, catalog: catalog), catalog: catalog)
            } == true
            plan.collections.append(.init(path: stepIDs[step.index], id: nil, action: current ? .skip : .process,
                                          steps: current ? [] : [stepIDs[step.index]], note: nil))
        }
        return plan
    }

    /// Runs the pipeline on this machine. Per-file failures are in the report; a thrown error means
    /// the run could not start or continue at all (a locked library, an unusable catalog).
    /// `store` opens the catalog to use, once the library is locked (`DarkroomCatalog` adds
    /// `run(inputs:)`, which uses the library's own SQLite catalog).
    public func run(inputs: [URL], store: () throws -> CatalogStore) throws -> RunReport {
        try Runner.checkInputs(inputs)
        try pipeline.prepare(settings)
        try FileManager.default.createDirectory(at: settings.library, withIntermediateDirectories: true)
        let lock = try LibraryLock(library: settings.library, shared: false)
        defer { withExtendedLifetime(lock) {} }
        let catalog = try store()
        try recover(catalog)
        let leftovers = Leftovers()
        let report = try execute(inputs: inputs, catalog: catalog, shard: nil,
                                 temporaryFolder: Publisher.sharedTemporaryFolder(library: settings.library), leaving: leftovers)
        Leftovers.free(consume leftovers)
        return report
    }

    /// Runs one shard of a sharded sweep: only the photos (and collection outputs) `shard` owns.
    /// `store` opens, once the library is locked for shards, where the shard records its results
    /// (`DarkroomShards` adds `run(inputs:shard:snapshot:)`, which records them in the shard's
    /// manifest). Shards share the library with each other but not with a single-machine run.
    public func run(inputs: [URL], shard: Shard, store: () throws -> CatalogStore) throws -> RunReport {
        try Runner.checkInputs(inputs)
        try pipeline.prepare(settings)
        try FileManager.default.createDirectory(at: settings.library, withIntermediateDirectories: true)
        let lock = try LibraryLock(library: settings.library, shared: true)
        defer { withExtendedLifetime(lock) {} }
        let catalog = try store()
        let temporaryFolder = try Publisher.processTemporaryFolder(library: settings.library)
        defer { try? FileManager.default.removeItem(at: temporaryFolder) }
        let leftovers = Leftovers()
        let report = try execute(inputs: inputs, catalog: catalog, shard: shard, temporaryFolder: temporaryFolder, leaving: leftovers)
        Leftovers.free(consume leftovers)
        return report
    }

    /// Refuses, before anything is made, inputs that are missing (a mistyped or unmounted card):
    /// a run over them would "succeed" with nothing found and leave an empty library behind.
    static func checkInputs(_ inputs: [URL]) throws {
        guard !inputs.isEmpty else { throw RunError("no input folders: give --input (or 'inputs: folders:' in the pipeline)") }
        let missing = inputs.filter { FileInfo(path: $0.path, followLinks: true) == nil }
        guard missing.isEmpty else {
            let names = missing.map(\.path).joined(separator: ", ")
            throw RunError("\(missing.count == 1 ? "the input" : "the inputs") \(names) \(missing.count == 1 ? "does" : "do") not exist "
                           + "(mistyped, or a card that is not mounted?); nothing was done")
        }
    }

    /// The pipeline file's name without its extension: the first part of catalog step ids.
    public var pipelineName: String { Runner.pipelineName(of: pipeline) }

    package static func pipelineName(of pipeline: Pipeline) -> String { pipelineName(file: pipeline.file) }

    /// A pipeline file's name without its folder and extension (`import-camera-roll`).
    package static func pipelineName(file: String) -> String {
        ((file as NSString).lastPathComponent as NSString).deletingPathExtension
    }
}
