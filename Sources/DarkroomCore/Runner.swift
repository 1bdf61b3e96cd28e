import Foundation
import Logging
import Synchronization

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
    }

    // Computed once here, never lazily: worker threads read them concurrently.

    /// A catalog id for each step: its stage name, with `#2`, `#3` for repeats of the same stage.
    let stepIDs: [String]

    /// The ids the catalog files units and outputs under: `<pipeline name>/<step id>`, so two
    /// pipelines sharing a library (an import and a collage, say) never take each other's work for stale.
    let catalogIDs: [String]

    /// For each step, the earlier per-item steps whose results it reads.
    let dependencies: [[Int]]

    /// The per-item steps that learn facts about a photo (its capture date) without making pixels,
    /// with the steps they read from, in order.
    let learningSteps: [Int]

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
        let survey = try self.survey(inputs: inputs, catalog: catalog, remember: false)
        var plan = RunPlan(pipeline: pipeline.file, library: settings.library.path)
        // What collections would see: every photo's remembered facts, or nil once one has work to do.
        var collected: [ItemRecord]? = []
        for entry in survey.entries where shard?.owns(contentHash: entry.owner) ?? true {
            switch entry.state {
            case .unreadable(let reason):
                plan.entries.append(.init(path: entry.found.url.path, id: nil, action: .unreadable, steps: [], note: reason))
            case .duplicate(let original, _):
                plan.entries.append(.init(path: entry.found.url.path, id: nil, action: .duplicate, steps: [],
                                          note: "same photo as \(original)"))
            case .motionPart(let still, let hash, let stillPath):
                let remembered = try catalog?.rememberedFacts(contentHash: still)
                let date = collected?.first { $0.contentHash == still }?.captureDate ?? remembered?.captureDate
                let work = try date.map { try motionWork(for: hash, still: still, date: $0, catalog: catalog).0 }
                plan.entries.append(.init(path: entry.found.url.path, id: ContentHash.uuid(fromHex: still).uuidString.lowercased(),
                                          action: work?.required.isEmpty == true ? .skip : .process,
                                          steps: (work?.required ?? pipeline.motionSteps.map(\.index)).map { stepIDs[$0] },
                                          note: "Live Photo video of \(stillPath)"))
            case .unique(let hash, _):
                let work = try self.work(for: hash, kind: MediaKind(fileName: entry.found.url.lastPathComponent), catalog: catalog,
                                         sidecars: entry.found.sidecars)
                plan.entries.append(.init(path: entry.found.url.path, id: ContentHash.uuid(fromHex: hash).uuidString.lowercased(),
                                          action: work.required.isEmpty ? .skip : .process,
                                          steps: work.required.map { stepIDs[$0] }, note: nil))
                if work.required.isEmpty, let facts = try catalog?.rememberedFacts(contentHash: hash) {
                    collected?.append(ItemRecord(source: entry.found.url, relativePath: entry.found.relativePath, contentHash: hash,
                                                 id: ContentHash.uuid(fromHex: hash), captureDate: facts.captureDate,
                                                 pixelWidth: facts.width, pixelHeight: facts.height))
                } else {
                    collected = nil
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
            let current = try shard == nil && collected.map { try collectionIsCurrent(step, items: Runner.inCaptureOrder($0), catalog: catalog) } == true
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
        try FileManager.default.createDirectory(at: settings.library, withIntermediateDirectories: true)
        let lock = try LibraryLock(library: settings.library, shared: false)
        defer { withExtendedLifetime(lock) {} }
        let catalog = try store()
        try recover(catalog)
        return try execute(inputs: inputs, catalog: catalog, shard: nil, temporaryFolder: Publisher.sharedTemporaryFolder(library: settings.library))
    }

    /// Runs one shard of a sharded sweep: only the photos (and collection outputs) `shard` owns.
    /// `store` opens, once the library is locked for shards, where the shard records its results
    /// (`DarkroomShards` adds `run(inputs:shard:snapshot:)`, which records them in the shard's
    /// manifest). Shards share the library with each other but not with a single-machine run.
    public func run(inputs: [URL], shard: Shard, store: () throws -> CatalogStore) throws -> RunReport {
        try FileManager.default.createDirectory(at: settings.library, withIntermediateDirectories: true)
        let lock = try LibraryLock(library: settings.library, shared: true)
        defer { withExtendedLifetime(lock) {} }
        let catalog = try store()
        let temporaryFolder = try Publisher.processTemporaryFolder(library: settings.library)
        defer { try? FileManager.default.removeItem(at: temporaryFolder) }
        return try execute(inputs: inputs, catalog: catalog, shard: shard, temporaryFolder: temporaryFolder)
    }

    /// The pipeline file's name without its extension: the first part of catalog step ids.
    public var pipelineName: String { Runner.pipelineName(of: pipeline) }

    static func pipelineName(of pipeline: Pipeline) -> String { pipelineName(file: pipeline.file) }

    /// A pipeline file's name without its folder and extension (`import-camera-roll`).
    static func pipelineName(file: String) -> String {
        ((file as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    private func execute(inputs: [URL], catalog: CatalogStore, shard: Shard?, temporaryFolder: URL) throws -> RunReport {
        let started = Date()
        // The file's absolute path, so that `catalog set-date` can read its output templates again from anywhere.
        let runID = try catalog.beginRun(pipeline: URL(fileURLWithPath: pipeline.file).standardizedFileURL.path)
        let publisher = try Publisher(library: settings.library, catalog: catalog, run: runID, temporaryFolder: temporaryFolder)
        let failures = FailureSink()
        var report = RunReport(pipeline: pipeline.file, library: settings.library.path)
        report.shard = shard?.description

        var survey = try self.survey(inputs: inputs, catalog: catalog, remember: true)
        // A shard works on its own photos; it reads the others' capture dates only when a collection needs them.
        var others: [SurveyEntry] = []
        if let shard {
            let all = survey.entries
            survey.entries = all.filter { shard.owns(contentHash: $0.owner) }
            survey.skipped = survey.skipped.filter { shard.owns(name: $0.path) }
            if !pipeline.collectionSteps.isEmpty { others = all.filter { !shard.owns(contentHash: $0.owner) } }
        }
        report.passedOver = survey.skipped.map { RunReport.Failure(path: $0.path, step: "discover", reason: $0.reason, kind: $0.kind) }
        let foundEntries = survey.entries.count
        report.sidecars = RunReport.sidecars(of: survey.entries)
        report.withoutSidecar = withoutSidecar(survey.entries)
        report.found = foundEntries + Set(report.sidecars.map(\.path)).count + survey.skipped.filter(\.isFile).count

        // What the workers of a phase learn, shared between them.
        let phase = Mutex(PhaseResults(count: survey.entries.count))
        let finished = Counter()
        func runPhase(_ indices: [Int]) {
            let entries = survey.entries, total = entries.count
            DarkroomThreads.forEach(count: indices.count, jobs: min(settings.jobs, max(1, indices.count))) { position in
                let index = indices[position]
                let entry = entries[index]
                let (stopped, still) = phase.withLock { results in (results.stopReason != nil, entry.stillHash.flatMap { results.stills[$0] }) }
                let (outcome, record) = stopped ? (.notAttempted, nil)
                    : self.process(entry, still: still, catalog: catalog, publisher: publisher, failures: failures)
                let diskFullReason: String?
                if case .failed(_, diskFull: true) = outcome {
                    diskFullReason = failures.snapshot.last(where: { $0.path == entry.found.url.path })?.reason
                } else {
                    diskFullReason = nil
                }
                phase.withLock { results in
                    results.outcomes[index] = outcome
                    results.records[index] = record
                    if let record { results.stills[record.contentHash] = record }
                    if results.stopReason == nil, let reason = diskFullReason {
                        results.stopReason = "the disk is full: stopped; free some space and run again to finish (\(reason))"
                    }
                }
                self.progress?.inputFinished(entry.found.relativePath, finished: finished.increment(), total: total, bytes: entry.found.size)
            }
        }
        runPhase(survey.entries.indices.filter { survey.entries[$0].stillHash == nil })
        // Videos imported earlier on their own whose still came only now join it as its motion part.
        let joined = earlierMotionParts(of: phase.withLock { $0.records.compactMap { $0 } }, besides: survey.entries,
                                        catalog: catalog, failures: failures)
        survey.entries += joined
        phase.withLock { $0.extend(by: joined.count) }
        runPhase(survey.entries.indices.filter { survey.entries[$0].stillHash != nil })
        var records = phase.withLock { $0.records }
        let (outcomes, stopReason) = phase.withLock { ($0.outcomes, $0.stopReason) }
        // Motion parts have no place of their own in collections.
        for index in survey.entries.indices where survey.entries[index].stillHash != nil { records[index] = nil }

        for (index, outcome) in outcomes.enumerated() {
            if index >= foundEntries {
                // A video imported on its own earlier, joined to its still now: not one of this run's files.
                if case .processed(let paths) = outcome, let still = survey.entries[index].stillPath {
                    report.published += paths
                    report.joinedMotionParts.append(.init(path: survey.entries[index].found.url.path, sameAs: still))
                } else if case .failed(let paths, _) = outcome {
                    report.failed += 1; report.published += paths
                }
                continue
            }
            if case .processed = outcome, let still = survey.entries[index].stillPath {
                report.livePhotoVideos.append(.init(path: survey.entries[index].found.url.path, sameAs: still))
            }
            switch outcome {
            case .processed(let paths):
                report.processed += 1; report.published += paths
                if let why = records[index]?.captureDate?.lowConfidenceReason {
                    report.lowConfidenceDates.append(.init(path: survey.entries[index].found.url.path, why: why))
                }
            case .skipped: report.skipped += 1
            case .duplicate(let original):
                report.duplicates += 1
                report.duplicateFiles.append(.init(path: survey.entries[index].found.url.path, sameAs: original))
            case .failed(let paths, _): report.failed += 1; report.published += paths
            case .notAttempted: report.notAttempted += 1
            }
        }
        report.files = try runFiles(entries: survey.entries.prefix(foundEntries), outcomes: outcomes, records: records, catalog: catalog)
        report.stopped = stopReason
        if stopReason != nil {
            report.failures = failures.snapshot
            report.seconds = Date().timeIntervalSince(started)
            try? catalog.finishRun(runID, report: report)
            return report
        }

        let othersRecords = DarkroomThreads.map(count: others.count, jobs: settings.jobs) { [others] index in
            self.facts(of: others[index], catalog: catalog, publisher: publisher)
        }.compactMap { $0 }
        let good = Runner.inCaptureOrder(records.compactMap { $0 } + othersRecords)
        for step in pipeline.collectionSteps {
            report.published += runCollection(step, items: good, catalog: catalog, publisher: publisher, failures: failures,
                                              shard: shard, report: &report)
        }

        report.failures = failures.snapshot
        report.warnings = failures.warnings
        report.seconds = Date().timeIntervalSince(started)
        try catalog.finishRun(runID, report: report)
        return report
    }

    /// The inputs that were processed or already done, each with its id, capture date and every file
    /// the catalog holds for it now (what the HTML report shows).
    private func runFiles(entries: ArraySlice<SurveyEntry>, outcomes: [Outcome], records: [ItemRecord?],
                          catalog: CatalogStore) throws -> [RunReport.File] {
        var files: [RunReport.File] = []
        for (index, entry) in zip(entries.indices, entries) {
            guard let record = records[index] else { continue }
            let outcome: RunReport.File.Outcome
            switch outcomes[index] {
            case .processed: outcome = .processed
            case .skipped: outcome = .done
            default: continue
            }
            let outputs = try catalog.state(of: record.contentHash).outputs.map(\.path).sorted()
            files.append(RunReport.File(path: entry.found.url.path, id: record.id.uuidString.lowercased(), outcome: outcome,
                                        captureDate: record.captureDate, outputs: outputs))
        }
        return files
    }

    /// Photos in capture-date order (undated last, then by file name): the order collections see them in.
    /// Dates are compared as instants where their UTC offset is known (a camera without offsets and
    /// a phone with them, on one trip, sort in true time order once the camera's zone is known); a
    /// date whose offset is unknown is taken as UTC, its wall-clock time.
    static func inCaptureOrder(_ records: [ItemRecord]) -> [ItemRecord] {
        records.sorted { a, b in
            switch (a.captureDate?.sortingInstant, b.captureDate?.sortingInstant) {
            case let (x?, y?) where x != y: return x < y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return a.fileName == b.fileName ? a.source.path < b.source.path : a.fileName < b.fileName
            }
        }
    }

    /// Of the photos a run found, those without a sidecar of a kind the matcher expects of every
    /// file of an export, by kind; only kinds some photo of the run has.
    private func withoutSidecar(_ entries: [SurveyEntry]) -> [String: [String]] {
        guard let expected = pipeline.sidecars?.expectedKinds else { return [:] }
        let present = Set(entries.flatMap { $0.found.sidecars.map(\.kind) }).intersection(expected)
        var missing: [String: [String]] = [:]
        for kind in present.sorted() {
            missing[kind] = entries.filter { entry in
                guard case .unique(_, rendition: false) = entry.state else { return false }
                return !entry.found.sidecars.contains { $0.kind == kind }
            }.map(\.found.url.path).sorted()
            if missing[kind]?.isEmpty == true { missing[kind] = nil }
        }
        return missing
    }

    // MARK: Recovery

    /// Cleans what a crashed run may have left: temp files, and published files never recorded.
    private func recover(_ catalog: CatalogStore) throws {
        try Runner.recover(catalog, library: settings.library, logger: logger)
    }

    /// Cleans what a crashed run (or date correction) left in `library`: temp files, and published
    /// files never recorded. Only for a process holding the library's exclusive lock.
    static func recover(_ catalog: CatalogStore, library: URL, logger: Logger) throws {
        Publisher.removeLeftovers(library: library)
        try removeOrphans(catalog, library: library, logger: logger)
    }

    /// Removes files an interrupted run published but never recorded (the catalog's pending notes).
    func removeOrphans(_ catalog: CatalogStore) throws {
        try Runner.removeOrphans(catalog, library: settings.library, logger: logger)
    }

    static func removeOrphans(_ catalog: CatalogStore, library: URL, logger: Logger) throws {
        for path in try catalog.recoverPending() {
            let url = library.appendingPathComponent(path)
            if FileInfo(path: url.path)?.isRegularFile == true {
                logger.info("removing \(path): left by an interrupted run before it was recorded")
                unlink(url.path)
            }
        }
    }

    // MARK: Planning one photo

    struct Work {
        /// Unit key of every per-item step, by step index.
        var keys: [Int: String]
        /// Steps that must run, in order (pending ones and those they read from).
        var required: [Int]
        /// Steps whose unit is not done.
        var pending: Set<Int>
    }

    /// The work for the file with content `hash`, of media `kind`: steps that do not take the kind
    /// pass it by (no key, never pending). The key of a step that reads sidecars includes theirs
    /// (and so do the keys of the steps after it that read from it): a sidecar edited since makes
    /// them run again. A photo without sidecars keeps the keys it had before sidecars were read.
    func work(for hash: String, kind: MediaKind, catalog: CatalogStore?, sidecars: [AttachedSidecar] = []) throws -> Work {
        let state = try catalog?.state(of: hash) ?? SubjectState()
        let sidecarDigest = AttachedSidecar.digest(sidecars)
        var keys: [Int: String] = [:]
        var pending = Set<Int>()
        for step in pipeline.itemSteps where step.configured.media.contains(kind) {
            let id = catalogIDs[step.index]
            let upstream = dependencies[step.index].map { keys[$0] ?? "" }.joined(separator: ",")
            var key = ContentHash.of("\(id)|\(step.configured.optionsDigest)|\(hash)|\(upstream)")
            if step.configured.readsSidecars && !sidecarDigest.isEmpty { key = ContentHash.of("\(key)|sidecars:\(sidecarDigest)") }
            keys[step.index] = key
            let outputsPresent = state.outputs.filter { $0.step == id }.allSatisfy {
                FileInfo(path: settings.library.appendingPathComponent($0.path).path)?.isRegularFile == true
            }
            if settings.force || state.unitKeys[id] != key || !outputsPresent { pending.insert(step.index) }
        }
        var required = pending
        var frontier = Array(pending)
        while let next = frontier.popLast() {
            for dependency in dependencies[next] where required.insert(dependency).inserted { frontier.append(dependency) }
        }
        return Work(keys: keys, required: required.sorted(), pending: pending)
    }

    /// The work for a photo whose outputs a catalog rebuild found: only the steps that learn facts
    /// about it (its capture date) run again; everything it produced is already in the library.
    private func adopting(_ work: Work) -> Work {
        Work(keys: work.keys, required: learningSteps.filter { work.keys[$0] != nil }, pending: work.pending)
    }

    /// The work for a Live Photo's video published as the motion part of the still `still`: only
    /// the steps that take motion parts, keyed by the still and its capture date too (a new date
    /// moves the file). Also the steps of this pipeline whose units or outputs the video has from
    /// when it was imported on its own (its own copy and thumbnail), which it no longer has.
    func motionWork(for hash: String, still: String, date: CaptureDate, catalog: CatalogStore?) throws -> (Work, retired: [String]) {
        let state = try catalog?.state(of: hash) ?? SubjectState()
        var keys: [Int: String] = [:]
        var pending = Set<Int>()
        for step in pipeline.motionSteps {
            let id = catalogIDs[step.index]
            let key = ContentHash.of("\(id)|\(step.configured.optionsDigest)|\(hash)|motion part of \(still) at \(date.local)")
            keys[step.index] = key
            let outputsPresent = state.outputs.filter { $0.step == id }.allSatisfy {
                FileInfo(path: settings.library.appendingPathComponent($0.path).path)?.isRegularFile == true
            }
            if settings.force || state.unitKeys[id] != key || !outputsPresent { pending.insert(step.index) }
        }
        let motionIDs = Set(pipeline.motionSteps.map { catalogIDs[$0.index] })
        let ownSteps = Set(catalogIDs).subtracting(motionIDs)
        let retired = Set(state.unitKeys.keys).union(state.outputs.map(\.step)).intersection(ownSteps).sorted()
        if !retired.isEmpty { pending.formUnion(keys.keys) }
        return (Work(keys: keys, required: pending.sorted(), pending: pending), retired)
    }

    /// Videos imported on their own by an earlier run that carry the Live Photo identifier of a still
    /// processed now: each becomes the still's motion part, read again from where it was imported
    /// (when it is still there, unchanged). One that is gone stays a separate video, with a warning.
    func earlierMotionParts(of records: [ItemRecord], besides entries: [SurveyEntry], catalog: CatalogStore,
                            failures: FailureSink) -> [SurveyEntry] {
        guard pipeline.pairing != nil else { return [] }
        let present = Set(entries.compactMap { entry -> String? in
            switch entry.state {
            case .unique(let hash, _), .duplicate(_, let hash), .motionPart(_, let hash, _): return hash
            case .unreadable: return nil
            }
        })
        var joined: [SurveyEntry] = []
        for record in records {
            guard let key = record.contentIdentifier,
                  let videos = try? catalog.assets(withContentIdentifier: key) else { continue }
            for video in videos where video.mediaKind == .video && video.motionOf == nil && !present.contains(video.contentHash) {
                let url = URL(fileURLWithPath: video.originalPath)
                guard let info = FileInfo(path: url.path), info.isRegularFile,
                      (try? catalog.cachedHash(path: url.path, size: info.size, mtimeNanoseconds: info.modificationNanoseconds,
                                               inode: info.id.inode)) ?? (try? ContentHash.ofFile(url)) == video.contentHash else {
                    failures.warn(path: record.source.path, step: "pair", reason: "its Live Photo video was imported earlier from "
                                  + "\(video.originalPath), which is gone or has changed: it stays a separate video")
                    continue
                }
                let found = Discovery.Found(url: url, relativePath: url.lastPathComponent, size: info.size,
                                            modificationDate: info.modificationDate,
                                            modificationNanoseconds: info.modificationNanoseconds, inode: info.id.inode)
                joined.append(SurveyEntry(found: found, state: .motionPart(of: record.contentHash, hash: video.contentHash,
                                                                           stillPath: record.source.path)))
            }
        }
        return joined
    }

    // MARK: Running one photo

    enum Outcome {
        case processed([String])
        case skipped
        case duplicate(String)
        /// Failed, with what it had published; `diskFull` when the library's disk is full (every later
        /// photo would fail too).
        case failed([String], diskFull: Bool)
        /// The run stopped (a full disk) before this input's turn.
        case notAttempted
    }

    /// Works on one input: its pending steps run, its outputs are published together and recorded
    /// with its units. A Live Photo's video (`.motionPart`) runs only the steps that take motion parts,
    /// under its still's id and capture date (`still`: this run's record of it, else the catalog's).
    func process(_ entry: SurveyEntry, still: ItemRecord? = nil, catalog: CatalogStore, publisher: Publisher,
                 failures: FailureSink) -> (Outcome, ItemRecord?) {
        let file = entry.found
        let hash: String, rendition: Bool
        var motion: (still: String, path: String)?
        switch entry.state {
        case .duplicate(let original, _): return (.duplicate(original), nil)
        case .unreadable(let reason):
            failures.record(path: file.url.path, step: "read", reason: reason)
            return (.failed([], diskFull: false), nil)
        case .unique(let h, let r): (hash, rendition) = (h, r)
        case .motionPart(let stillHash, let h, let stillPath): (hash, rendition, motion) = (h, false, (stillHash, stillPath))
        }
        let item = Item(source: file.url, relativePath: file.relativePath, contentHash: hash,
                        fileSize: file.size, modificationDate: file.modificationDate,
                        id: motion.map { ContentHash.uuid(fromHex: $0.still) })
        item.contentIdentifier = entry.pairingKey
        item.sidecars = file.sidecars
        let publication = publisher.publication(subject: hash, source: file.url.path, pathID: item.id)
        defer { item.attachments.removeAll(); publication.discard() }

        var work: Work
        var adopted = false
        var retired: [String] = []
        do {
            if let motion {
                // The still's capture date, from this run or the catalog: the motion part is filed with it.
                let remembered = try catalog.rememberedFacts(contentHash: motion.still)
                guard let date = still?.captureDate ?? remembered?.captureDate else {
                    failures.record(path: file.url.path, step: "pair",
                                    reason: "the Live Photo's still \(motion.path) has no capture date (it failed, or is not imported yet)")
                    return (.failed([], diskFull: false), nil)
                }
                item.captureDate = date
                item.motionOf = motion.still
                (work, retired) = try motionWork(for: hash, still: motion.still, date: date, catalog: catalog)
            } else {
                // Outputs recorded by `catalog rebuild` under this photo's id: take them, and its work, as done.
                adopted = try catalog.adopt(contentHash: hash) > 0
                work = try self.work(for: hash, kind: MediaKind(fileName: file.url.lastPathComponent), catalog: catalog,
                                     sidecars: file.sidecars)
                if adopted { work = adopting(work) }
                // A library file read as its photo (a HEIC in Photos/) starts with what the catalog knows of
                // the photo: its capture date files its renditions as the photo is filed, whatever the file says.
                if rendition, !work.required.isEmpty, let facts = try catalog.rememberedFacts(contentHash: hash) {
                    item.captureDate = facts.captureDate
                }
            }
        } catch {
            failures.record(path: file.url.path, step: "plan", reason: "\(error)")
            return (.failed([], diskFull: DiskSpace.isFull(error, library: settings.library)), nil)
        }
        if work.required.isEmpty {
            let facts = (try? catalog.rememberedFacts(contentHash: hash)) ?? nil
            return (.skipped, ItemRecord(source: file.url, relativePath: file.relativePath, contentHash: hash, id: item.id,
                                         captureDate: facts?.captureDate, pixelWidth: facts?.width, pixelHeight: facts?.height,
                                         contentIdentifier: facts?.contentIdentifier))
        }

        // A date the user set (`catalog set-date`) outranks the file's evidence: `exif-date` keeps it.
        if motion == nil, let kept = ((try? catalog.rememberedFacts(contentHash: hash)) ?? nil)?.captureDate, kept.source == .user {
            item.captureDate = kept
        }

        var completedUnits: [UnitCompletion.Unit] = []
        var failedStep: (String, String)?
        var diskFull = false
        for index in work.required {
            let step = pipeline.steps[index]
            guard case .perItem(let perform) = step.configured.action else { continue }
            let path = file.url.path
            progress?.stepStarted(stepIDs[index], on: file.relativePath)
            let context = StageContext(step: stepIDs[index], catalogStep: catalogIDs[index], settings: settings,
                                       logger: logger, publication: publication,
                                       warnings: { step, message in failures.warn(path: path, step: step, reason: message) })
            do {
                try perform(item, context)
                if work.pending.contains(index) && !adopted { completedUnits.append(.init(step: catalogIDs[index], key: work.keys[index]!)) }
            } catch {
                failedStep = (stepIDs[index], "\(error)")
                diskFull = DiskSpace.isFull(error, library: settings.library)
                break
            }
        }
        if adopted && failedStep == nil {
            completedUnits = work.keys.sorted { $0.key < $1.key }.map { .init(step: catalogIDs[$0.key], key: $0.value) }
        }
        if failedStep == nil, let changed = changedSince(file) {
            failedStep = ("read", changed)
        }
        if failedStep == nil {
            do { try publication.publish() } catch {
                failedStep = ("publish", "\(error)")
                diskFull = DiskSpace.isFull(error, library: settings.library)
            }
            item.outputs = publication.published
        }
        if failedStep != nil { completedUnits = [] }

        let published = item.outputs.map(\.path)
        if !completedUnits.isEmpty {
            // Only the outputs of finished units: a step that ran only to feed another records nothing.
            do {
                try publication.commit(units: completedUnits, asset: rendition ? nil : AssetFacts(item), retiring: retired,
                                       to: catalog) { output in
                    completedUnits.contains { $0.step == output.step }
                }
            } catch {
                failedStep = failedStep ?? ("catalog", "cannot record results: \(error)")
                diskFull = diskFull || DiskSpace.isFull(error, library: settings.library)
            }
        }

        if let (step, reason) = failedStep {
            failures.record(path: file.url.path, step: step, reason: reason)
            logger.debug("failed \(file.url.path) [\(step)]: \(reason)")
            return (.failed(published, diskFull: diskFull), nil)
        }
        logger.debug("processed \(file.relativePath) -> \(published.joined(separator: ", "))")
        return (.processed(published), ItemRecord(source: file.url, relativePath: file.relativePath, contentHash: hash,
                                                  id: item.id, captureDate: item.captureDate,
                                                  pixelWidth: item.pixelWidth, pixelHeight: item.pixelHeight,
                                                  contentIdentifier: item.contentIdentifier))
    }

    /// What a collection needs to know of a photo another shard works on: its capture date and size,
    /// remembered by the catalog or learnt again by the steps that learn them (nothing is published
    /// or recorded). Nil when they fail: the photo's own shard reports the failure.
    private func facts(of entry: SurveyEntry, catalog: CatalogStore, publisher: Publisher) -> ItemRecord? {
        guard case .unique(let hash, _) = entry.state else { return nil }
        let file = entry.found
        let item = Item(source: file.url, relativePath: file.relativePath, contentHash: hash,
                        fileSize: file.size, modificationDate: file.modificationDate)
        item.sidecars = file.sidecars
        let publication = publisher.publication(subject: hash, source: file.url.path)
        defer { item.attachments.removeAll(); publication.discard() }
        if let facts = (try? catalog.rememberedFacts(contentHash: hash)) ?? nil {
            return ItemRecord(source: file.url, relativePath: file.relativePath, contentHash: hash, id: item.id,
                              captureDate: facts.captureDate, pixelWidth: facts.width, pixelHeight: facts.height)
        }
        for index in learningSteps {
            guard case .perItem(let perform) = pipeline.steps[index].configured.action else { continue }
            let context = StageContext(step: stepIDs[index], catalogStep: catalogIDs[index], settings: settings,
                                       logger: logger, publication: publication, warnings: nil)
            do { try perform(item, context) } catch { return nil }
        }
        return ItemRecord(source: file.url, relativePath: file.relativePath, contentHash: hash, id: item.id,
                          captureDate: item.captureDate, pixelWidth: item.pixelWidth, pixelHeight: item.pixelHeight)
    }

    /// A reason when the file changed on disk while it was being processed.
    private func changedSince(_ file: Discovery.Found) -> String? {
        guard let now = FileInfo(path: file.url.path, followLinks: pipeline.inputs.followSymlinks) else {
            return "the file disappeared while it was being imported"
        }
        if now.size != file.size || now.modificationNanoseconds != file.modificationNanoseconds {
            return "the file changed while it was being imported; run again to import the new version"
        }
        return nil
    }

    // MARK: Collection steps

    /// A collection step's unit key: its options and every photo it sees, with its capture date.
    private func collectionKey(_ step: PipelineStep, items: [ItemRecord]) -> String {
        let catalogID = catalogIDs[step.index]
        let inputsDigest = items.map { "\($0.contentHash)@\($0.captureDate?.local.description ?? "-")" }.joined(separator: ",")
        return ContentHash.of("\(catalogID)|\(step.configured.optionsDigest)|\(inputsDigest)")
    }

    /// Whether a collection step's outputs are current for these photos (and all still present).
    private func collectionIsCurrent(_ step: PipelineStep, items: [ItemRecord], catalog: CatalogStore?) throws -> Bool {
        // A step that reads the library beyond its items cannot tell from them: it runs every time.
        guard !settings.force, !step.configured.readsLibrary, let catalog else { return false }
        let catalogID = catalogIDs[step.index]
        let state = try catalog.state(of: "collection:\(catalogID)")
        let outputsPresent = !state.outputs.isEmpty && state.outputs.allSatisfy {
            FileInfo(path: settings.library.appendingPathComponent($0.path).path)?.isRegularFile == true
        }
        return state.unitKeys[catalogID] == collectionKey(step, items: items) && outputsPresent
    }

    /// Runs one collection step. Its outputs are published together when it ends, and recorded
    /// even when some of them could not be made (with `keepPartial`): the step's unit is recorded only
    /// when every output was made, so the next run tries again, and the made ones are never lost.
    func runCollection(_ step: PipelineStep, items all: [ItemRecord], catalog: CatalogStore, publisher: Publisher,
                       failures: FailureSink, shard: Shard?, keepPartial: Bool = true, report: inout RunReport) -> [String] {
        guard case .collection(let perform) = step.configured.action else { return [] }
        let id = stepIDs[step.index]
        let items = all.filter { step.configured.media.contains($0.mediaKind) }
        for kind in MediaKind.allCases where !step.configured.media.contains(kind) {
            let count = all.count { $0.mediaKind == kind }
            if count > 0 { logger.notice("\(id): \(count) \(count == 1 ? kind.description : kind.plural) passed over: it takes \(step.configured.media.map(\.plural).sorted().joined(separator: " and "))") }
        }
        let catalogID = catalogIDs[step.index]
        let subject = "collection:\(catalogID)"
        let publication = publisher.publication(subject: subject, source: nil)
        defer { publication.discard() }
        let problems = ProblemCount()
        var failed = false
        do {
            if try collectionIsCurrent(step, items: items, catalog: catalog) {
                logger.info("\(id): up to date")
                return []
            }
            progress?.collectionStarted(id, items: items.count)
            let context = CollectionContext(step: id, catalogStep: catalogID, subject: subject, settings: settings, logger: logger,
                                            library: LibraryCatalog(catalog), publication: publication, reporter: failures, problems: problems, shard: shard,
                                            progress: progress)
            try perform(items, context)
        } catch {
            failures.record(path: id, step: id, reason: "\(error)")
            failed = true
        }
        let complete = !failed && problems.value == 0
        if !complete { report.failed += max(1, problems.value) }
        guard complete || keepPartial else { return [] }
        do {
            try publication.publish()
            let units: [UnitCompletion.Unit] = complete ? [.init(step: catalogID, key: collectionKey(step, items: items))] : []
            if complete || !publication.published.isEmpty { try publication.commit(units: units, asset: nil, to: catalog) }
            return publication.written.map(\.path)
        } catch {
            failures.record(path: id, step: id, reason: "cannot publish or record results: \(error)")
            if complete { report.failed += 1 }
            return []
        }
    }
}
