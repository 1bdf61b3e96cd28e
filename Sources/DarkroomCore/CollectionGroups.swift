import DarkroomLibrary
import DarkroomModel
import DarkroomReport
import Foundation
import Synchronization

/// One group of a collection step's outputs (a day's collage, a month's grid), made, published and
/// recorded on a work unit of its own (catalog step `<step>#<group>`, keyed by its photos, their
/// dates and the step's options): a group that fails does not make the others be made again, and a
/// group made once is left alone until its photos or the options change.
///
///     let group = context.group(day.key, items: day.photos)
///     if group.isCurrent { return }            // its files are in the library, as they were
///     try group.publish(path) { url in try render(day).write(to: url) }
public struct CollectionGroup: Sendable {
    /// The group's name (its key among the step's groups: `2024-05-01`).
    public let name: String
    /// Whether the library already holds this group's files, made from these photos with these options.
    public let isCurrent: Bool
    /// The group's files as the catalog recorded them (library-relative paths); empty unless current.
    public let outputs: [String]
    let catalogStep: String
    let publication: Publication
    let ledger: CollectionGroups
    let reporter: FailureSink
    let problems: ProblemCount
    let step: String

    /// Adds one of the group's files: `write` fills a temp file, published with the step's others.
    public func publish(_ relativePath: String, write: (URL) throws -> Void) throws {
        try publication.stage(relativePath, step: catalogStep, write: write)
    }

    /// Adds one of the group's files like `publish`, unless the library already holds exactly these
    /// bytes at `relativePath` as this group's file: then it is left as it is (see
    /// `CollectionContext.publishIfChanged`).
    public func publishIfChanged(_ relativePath: String, write: (URL) throws -> Void) throws {
        try publication.stage(relativePath, step: catalogStep, ifChanged: true, write: write)
    }

    /// Reports that (part of) the group could not be made: it is tried again on the next run, and
    /// the files it did make are kept and recorded.
    public func reportFailed(reason: String, kind: FailureKind? = nil) {
        ledger.failed(name)
        reporter.record(path: name, step: step, reason: reason, kind: kind)
        problems.increment()
    }
}

/// The groups one run of a collection step met, what the catalog recorded of them before, and
/// which failed: what the runner records when the step ends.
final class CollectionGroups: Sendable {
    /// The step's catalog id (`monthly-grid/collage`).
    let catalogStep: String
    /// Group unit keys and outputs the catalog held when the step started, by group step.
    private let recordedKeys: [String: String]
    private let recordedOutputs: [String: [CatalogOutput]]
    private let state = Mutex(Met())

    private struct Met {
        /// Every group asked for, with its key, and whether it was current.
        var keys: [String: (key: String, current: Bool)] = [:]
        var failed: Set<String> = []
    }

    init(catalogStep: String, recorded: SubjectState) {
        self.catalogStep = catalogStep
        let prefix = catalogStep + "#"
        recordedKeys = recorded.unitKeys.filter { $0.key.hasPrefix(prefix) }
        recordedOutputs = Dictionary(grouping: recorded.outputs.filter { $0.step.hasPrefix(prefix) }, by: \.step)
    }

    /// The catalog step of a group's unit.
    func unitStep(_ name: String) -> String { "\(catalogStep)#\(name)" }

    /// Notes the group `name` with `key`; returns its recorded files when they are current (its key
    /// unchanged and every file on disk in `library`), else nil.
    func meet(_ name: String, key: String, library: URL, force: Bool) -> [String]? {
        let step = unitStep(name)
        let outputs = (recordedOutputs[step] ?? []).map(\.path)
        let current = !force && recordedKeys[step] == key && !outputs.isEmpty && outputs.allSatisfy {
            LibraryFiles.holdsFile($0, library: library)
        }
        state.withLock { $0.keys[name] = (key, current) }
        return current ? outputs : nil
    }

    func failed(_ name: String) {
        state.withLock { _ = $0.failed.insert(name) }
    }

    /// The units to record: each group made this run without a failure.
    var finishedUnits: [UnitCompletion.Unit] {
        state.withLock { met in
            met.keys.filter { !$0.value.current && !met.failed.contains($0.key) }.sorted { $0.key < $1.key }
                .map { UnitCompletion.Unit(step: unitStep($0.key), key: $0.value.key) }
        }
    }

    /// The group steps the catalog holds that this run did not meet (a group that no longer exists):
    /// their units and files are retired.
    var unmet: [String] {
        let met = state.withLock { Set($0.keys.keys.map(unitStep)) }
        return Set(recordedKeys.keys).union(recordedOutputs.keys).subtracting(met).sorted()
    }
}

extension CollectionContext {
    /// The group `name` of this step's outputs, made from `items`: whether it is current, and where
    /// its files go (see `CollectionGroup`). Ask once per group, before making it.
    public func group(_ name: String, items: [ItemRecord]) -> CollectionGroup {
        group(name, madeFrom: CollectionContext.inputsDigest(items))
    }

    /// The group `name` of this step's outputs, made from what `digest` describes (the stage's own
    /// account of everything its files show: facts it read from the catalog, files it links to),
    /// with the step's options: current while both stay the same and its files are on disk.
    public func group(_ name: String, madeFrom digest: String) -> CollectionGroup {
        let key = ContentHash.of("\(catalogStep)#\(name)|\(optionsDigest)|" + digest)
        let outputs = groups.meet(name, key: key, library: settings.library, force: settings.force)
        return CollectionGroup(name: name, isCurrent: outputs != nil, outputs: outputs ?? [], catalogStep: groups.unitStep(name),
                               publication: publication, ledger: groups, reporter: reporter, problems: problems, step: step)
    }

    /// What a collection's key holds of its photos: each one's content and capture date, and for a
    /// burst's frame the pick it is shown as.
    static func inputsDigest(_ items: [ItemRecord]) -> String {
        inputsDigestPieces(items).joined()
    }

    /// `inputsDigest(items)` a photo at a time, for a digest fed with each (`ContentHash.of(_:then:)`).
    static func inputsDigestPieces(_ items: [ItemRecord]) -> some Sequence<String> {
        items.indices.lazy.map { index in
            let item = items[index]
            return "\(index == items.startIndex ? "" : ",")\(item.contentHash)@\(item.captureDate?.local.description ?? "-")\(item.burst.map { "~\($0.pick)" } ?? "")"
        }
    }
}
