import Foundation
import Logging
import Synchronization
import DarkroomLibrary
import DarkroomModel
import DarkroomReport

/// Settings that hold for a whole run, shared by every stage.
public struct RunSettings: Sendable {
    /// The library all outputs go into.
    public var library: URL
    /// Images with more pixels than this are refused from their header, before decoding.
    public var pixelLimit: Int
    /// The zone used where a file gives a time without an offset that must be made local
    /// (GPS UTC times, file modification times) and nothing better is known (its GPS position).
    public var timeZone: TimeZone
    /// Whether `timeZone` was chosen for the run (`--time-zone`), or is only this machine's zone:
    /// dates placed in it are then low confidence.
    public var timeZoneIsChosen: Bool
    /// How many items are processed at once.
    public var jobs: Int
    /// Rebuild outputs even when the catalog says they are current.
    public var force: Bool
    /// Whether the report lists every input with its id, date and files (`RunReport.files`, which
    /// `--json` and `--report` show); a run whose list nobody reads saves a catalog read a photo and
    /// the list's memory (the largest allocation at a 10,000-photo first import's heap peak).
    public var listsFiles = true
    /// How many photos' units, outputs and facts a run reads ahead at once (`Runner.inBlocks`): it holds a
    /// block's of them while it reads the next block's, rather than all of them at once (two blocks
    /// of 10,000 photos' were some 50 MB of a gallery run's peak at 100,000).
    package var photosReadAhead = 5_000

    /// Settings for a run into `library`; without a `timeZone`, this machine's zone is used (and
    /// `timeZoneIsChosen` is false).
    public init(library: URL, pixelLimit: Int = 100_000_000, timeZone: TimeZone? = nil,
                jobs: Int = ProcessInfo.processInfo.activeProcessorCount, force: Bool = false) {
        self.library = library.standardizedFileURL
        self.pixelLimit = pixelLimit
        self.timeZone = timeZone ?? .current
        timeZoneIsChosen = timeZone != nil
        self.jobs = max(1, jobs)
        self.force = force
    }
}

/// What a per-item stage gets besides the item: the run's settings, a logger and the publisher.
public struct StageContext {
    /// The step's name as written in the pipeline (`heic-encode`).
    public let step: String
    /// The step as the catalog knows it (`<pipeline>/<step>`).
    let catalogStep: String
    public let settings: RunSettings
    public let logger: Logger
    /// Where the item's outputs go until all its steps have succeeded.
    let publication: Publication
    /// Where warnings about the item go (its path is added).
    let warnings: (@Sendable (_ step: String, _ message: String) -> Void)?

    /// Adds one output for the current item: `write` fills a temp file, which is fsynced and put at
    /// `relativePath` in the library when all of the photo's steps have succeeded.
    public func publish(_ relativePath: String, write: (URL) throws -> Void) throws {
        try publication.stage(relativePath, step: catalogStep, write: write)
    }

    /// Tells the user something about the item that did not stop it (a motion photo whose video is
    /// missing): listed in the run's summary and report as a warning with the item's path.
    public func warn(_ message: String) {
        warnings?(step, message)
        logger.warning("\(step): \(message)")
    }
}

/// What a collection stage gets: the run's settings, a logger, the publisher, the library's catalog
/// to read, and a way to report a photo it had to leave out.
public struct CollectionContext {
    public let step: String
    let catalogStep: String
    /// The catalog subject the collection's outputs belong to.
    let subject: String
    public let settings: RunSettings
    public let logger: Logger
    /// The library's catalog, to read: each item's details and files, motion parts, what other
    /// pipelines made.
    public let library: LibraryCatalog
    /// Where the collection's outputs go until the step has finished.
    let publication: Publication
    let reporter: FailureSink
    let problems: ProblemCount
    /// In a sharded sweep, the shard running; each output is made by one shard.
    let shard: Shard?
    /// Where progress goes (a terminal's progress line), if anywhere.
    let progress: RunProgress?
    /// The digest of the step's options (part of each group's key).
    let optionsDigest: String
    /// The groups of outputs met so far (see `group(_:items:)`).
    let groups: CollectionGroups

    /// Tells the user how far the step is: `done` of `total` `unit` (`frames`, `collages`). Cheap:
    /// call it as often as you like.
    public func reportProgress(done: Int, total: Int, unit: String) {
        progress?.collectionProgress(step, done: done, total: total, unit: unit)
    }

    /// Whether this run makes the output named `name` (a group's key, an output path). Always true
    /// on one machine; in a sharded sweep, true in exactly one shard. Ask before rendering an output.
    public func makes(_ name: String) -> Bool {
        shard?.owns(name: "\(catalogStep)|\(name)") ?? true
    }

    /// Adds one output of the collection (a video, a collage): `write` fills a temp file, which is
    /// fsynced and put at `relativePath` in the library with the others when the step ends.
    public func publish(_ relativePath: String, write: (URL) throws -> Void) throws {
        try publication.stage(relativePath, step: catalogStep, write: write)
    }

    /// Adds one output like `publish`, unless the library already holds exactly these bytes at
    /// `relativePath` as this step's output: then that file is left as it is (same inode, same
    /// modification time) and stays recorded. For outputs made again on every run (a gallery's pages),
    /// so that a run rewrites only those that changed; a changed one is replaced atomically.
    public func publishIfChanged(_ relativePath: String, write: (URL) throws -> Void) throws {
        try publication.stage(relativePath, step: catalogStep, ifChanged: true, write: write)
    }

    /// Reports an item the stage could not use (it is left out; the stage goes on), with the kind of
    /// failure where it is known.
    public func reportSkipped(_ item: ItemRecord, reason: String, kind: FailureKind? = nil) {
        reporter.record(path: item.source.path, step: step, reason: reason, kind: kind)
    }

    /// Reports an item the stage could not use because of `error` (its words and its kind).
    public func reportSkipped(_ item: ItemRecord, because error: Error) {
        reportSkipped(item, reason: "\(error)", kind: FailureKind.of(error))
    }

    /// Tells the user something about an item the stage still used (a photo shown unaligned): listed in
    /// the run's summary and report as a warning with the item's path.
    public func warn(_ item: ItemRecord, _ message: String) {
        reporter.warn(path: item.source.path, step: step, reason: message)
        logger.warning("\(step): \(item.source.path): \(message)")
    }

    /// Records figures about an item the stage used (or tried to), under `topic`: listed in the run's
    /// JSON report (`itemFacts`) with the item's path and the step, for tools and for checking the
    /// step's work (an aligned photo's `shiftX`, `shiftY`, `angle`, `scale`). `note` says in words what
    /// the figures do not (how they were found, or why there are none). Not shown in the summary.
    public func recordFacts(_ item: ItemRecord, topic: String, figures: [String: Double], note: String? = nil) {
        reporter.recordFacts(RunReport.ItemFacts(path: item.source.path, step: step, topic: topic, figures: figures, note: note))
    }

    /// Reports one output the stage could not make (a group's collage), with the reason, and goes
    /// on with the others. What was published is kept and recorded; the step counts as failed and
    /// is tried again on the next run.
    public func reportFailed(_ output: String, reason: String, kind: FailureKind? = nil) {
        reporter.record(path: output, step: step, reason: reason, kind: kind)
        problems.increment()
    }
}

/// Collects per-file failures and warnings from any thread.
final class FailureSink: Sendable {
    private let collected = Mutex(Collected())

    /// What was reported so far, in the order it came.
    private struct Collected {
        var failures: [RunReport.Failure] = []
        var warned: [RunReport.Failure] = []
        var facts: [RunReport.ItemFacts] = []
    }

    /// Notes a failure of `path` at `step`, of `kind` when it is known (counted as an error of the step otherwise).
    func record(path: String, step: String, reason: String, kind: FailureKind?) {
        collected.withLock { $0.failures.append(RunReport.Failure(path: path, step: step, reason: reason, kind: kind?.label)) }
    }

    /// Notes that `path` failed at `step` because of `error`: its words, and its kind where it says
    /// one (a full disk is always that).
    func record(path: String, step: String, error: Error, library: URL) {
        let kind = DiskSpace.isFull(error, library: library) ? .diskFull : FailureKind.of(error)
        record(path: path, step: step, reason: "\(error)", kind: kind)
    }

    /// Notes a warning about `path` from `step`.
    func warn(path: String, step: String, reason: String) {
        collected.withLock { $0.warned.append(RunReport.Failure(path: path, step: step, reason: reason)) }
    }

    /// Notes figures a step found about a file.
    func recordFacts(_ facts: RunReport.ItemFacts) {
        collected.withLock { $0.facts.append(facts) }
    }

    /// The failures so far.
    var snapshot: [RunReport.Failure] { collected.withLock { $0.failures } }

    /// The warnings so far.
    var warnings: [RunReport.Failure] { collected.withLock { $0.warned } }

    /// The figures recorded so far; nil when there are none.
    var facts: [RunReport.ItemFacts]? { collected.withLock { $0.facts.isEmpty ? nil : $0.facts } }
}

/// The outputs a collection step could not make, counted from any thread.
final class ProblemCount: Sendable {
    private let count = Mutex(0)
    /// Counts an output (a group's collage) the stage could not make.
    func increment() { count.withLock { $0 += 1 } }
    /// How many outputs the stage could not make.
    var value: Int { count.withLock { $0 } }
}
