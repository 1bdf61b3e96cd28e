import Foundation
import Logging
import Synchronization
import DarkroomLibrary
import DarkroomModel
import DarkroomReport

extension Runner {
    /// Runs the pipeline over `inputs`, and leaves what it held in memory to `leftovers` (for the
    /// caller to free once it is done with the catalog).
    func execute(inputs: [URL], catalog store: CatalogStore, shard: Shard?, temporaryFolder: URL,
                 leaving leftovers: Leftovers) throws -> RunReport {
        let started = Date()
        // Every read and write of the run goes through it, so that its writes make it read again what they change.
        let catalog = CatalogReadAhead(store)
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
        if !survey.unpairedRaws.isEmpty {
            report.unpairedRaws = survey.unpairedRaws.map { RunReport.Failure(path: $0.path, step: "pair", reason: $0.reason, kind: "not a pair") }
        }
        let foundEntries = survey.entries.count
        report.sidecars = RunReport.sidecars(of: survey.entries)
        report.withoutSidecar = withoutSidecar(survey.entries)
        report.found = foundEntries + Set(report.sidecars.map(\.path)).count + survey.skipped.filter(\.isFile).count

        // What the workers of a phase learn, shared between them.
        let phase = Mutex(PhaseResults(count: survey.entries.count))
        let recordsKept = RecordsKept(everyPhoto: settings.listsFiles || !pipeline.collectionSteps.isEmpty,
                                      stillHashes: Set(survey.entries.compactMap(\.stillHash)))
        let finished = Counter()
        let heapTrim = HeapTrim()
        let computing = ComputeSlots(settings.jobs)
        // `stills`: the records of the stills whose motion parts the phase works on, by content hash.
        func runPhase(_ indices: [Int], stills: [String: ItemRecord] = [:]) throws {
            let entries = survey.entries, total = entries.count
            try inBlocks(indices, of: entries, catalog: catalog) { block in
                DarkroomThreads.forEach(count: block.count, jobs: min(computing.threads, max(1, block.count))) { position in
                    let index = block[block.startIndex + position]
                    let entry = entries[index]
                    let stopped = phase.withLock { $0.stopReason != nil }
                    let still = entry.stillHash.flatMap { stills[$0] }
                    let (outcome, record) = stopped ? (.notAttempted, nil)
                        : self.process(entry, still: still, catalog: catalog, publisher: publisher, failures: failures, computing: computing)
                    switch outcome {
                    case .processed, .failed: heapTrim.photoWorked()
                    case .skipped, .duplicate, .notAttempted: break
                    }
                    let diskFullReason: String?
                    if case .failed(_, diskFull: true) = outcome {
                        diskFullReason = failures.snapshot.last(where: { $0.path == entry.found.path })?.reason
                    } else {
                        diskFullReason = nil
                    }
                    let lowConfidence: String?
                    if case .processed = outcome, entry.stillHash == nil {
                        lowConfidence = record?.captureDate?.lowConfidenceReason
                    } else {
                        lowConfidence = nil
                    }
                    phase.withLock { results in
                        results.outcomes[index] = outcome
                        if let record, recordsKept.keeps(record) { results.records[index] = KeptRecord(record) }
                        if let lowConfidence { results.lowConfidence[index] = lowConfidence }
                        if results.stopReason == nil, let reason = diskFullReason {
                            results.stopReason = "the disk is full: stopped; free some space and run again to finish (\(reason))"
                        }
                    }
                    self.progress?.inputFinished(entry.found.relativePath, finished: finished.increment(), total: total, bytes: entry.found.size)
                }
            }
        }
        try runPhase(survey.entries.indices.filter { survey.entries[$0].stillHash == nil })
        // Videos imported earlier on their own whose still came only now join it as its motion part
        // (only a still with a Live Photo identifier can have one, so only those records are copied out).
        let joined = earlierMotionParts(of: phase.withLock { $0.records.compactMap { $0?.record.contentIdentifier == nil ? nil : $0?.record } },
                                        besides: survey.entries, catalog: catalog, failures: failures)
        survey.entries += joined
        phase.withLock { $0.extend(by: joined.count) }
        let motionParts = survey.entries.indices.filter { survey.entries[$0].stillHash != nil }
        let stillHashes = recordsKept.stillHashes.union(joined.compactMap(\.stillHash))
        let stills = phase.withLock { $0.records }.reduce(into: [String: ItemRecord]()) { stills, kept in
            if let record = kept?.record, stillHashes.contains(record.contentHash) { stills[record.contentHash] = record }
        }
        try runPhase(motionParts, stills: stills)
        // Taken out of the phase's results, not copied: marking motion parts below then changes the
        // only copy of 100,000 records rather than copying them all first.
        var records: [KeptRecord?] = [], outcomes: [Outcome] = [], lowConfidence: [Int: String] = [:]
        let stopReason = phase.withLock { results in
            swap(&records, &results.records)
            swap(&outcomes, &results.outcomes)
            swap(&lowConfidence, &results.lowConfidence)
            return results.stopReason
        }
        defer { leftovers.hold(survey, others, records, outcomes, catalog.handOverReadAhead()) }
        // Motion parts have no place of their own in collections.
        for index in survey.entries.indices where survey.entries[index].stillHash != nil { records[index] = nil }

        for (index, outcome) in outcomes.enumerated() {
            if index >= foundEntries {
                // A video imported on its own earlier, joined to its still now: not one of this run's files.
                if case .processed(let paths) = outcome, let still = survey.entries[index].stillPath {
                    report.published += paths
                    report.joinedMotionParts.append(.init(path: survey.entries[index].found.path, sameAs: still))
                } else if case .failed(let paths, _) = outcome {
                    report.failed += 1; report.published += paths
                }
                continue
            }
            if case .processed(let paths) = outcome, let still = survey.entries[index].stillPath {
                let path = survey.entries[index].found.path
                if MediaKind.isRawPhoto(path) {
                    report.rawOriginals = (report.rawOriginals ?? []) + [.init(path: path, sameAs: still, kept: !paths.isEmpty)]
                } else {
                    report.livePhotoVideos.append(.init(path: path, sameAs: still))
                }
            }
            switch outcome {
            case .processed(let paths):
                report.processed += 1; report.published += paths
                if let why = lowConfidence[index] {
                    report.lowConfidenceDates.append(.init(path: survey.entries[index].found.path, why: why))
                }
            case .skipped: report.skipped += 1
            case .duplicate(let original):
                report.duplicates += 1
                report.duplicateFiles.append(.init(path: survey.entries[index].found.path, sameAs: original))
            case .failed(let paths, _): report.failed += 1; report.published += paths
            case .notAttempted: report.notAttempted += 1
            }
        }
        report.files = settings.listsFiles
            ? try runFiles(entries: survey.entries.prefix(foundEntries), outcomes: outcomes, records: records, catalog: catalog) : nil
        report.stopped = stopReason
        if stopReason != nil {
            report.failures = failures.snapshot
            report.seconds = Date().timeIntervalSince(started)
            try? catalog.finishRun(runID, report: report)
            return report
        }

        // A shard's collections see the other shards' photos too, their facts read for them in one lookup
        // (the work read only its own blocks').
        if !pipeline.collectionSteps.isEmpty, !others.isEmpty { catalog.hold(try catalog.readFacts(of: others.flatMap(\.subjects))) }
        let othersRecords = pipeline.collectionSteps.isEmpty ? [] : DarkroomThreads.map(count: others.count, jobs: settings.jobs) { [others] index in
            self.facts(of: others[index], catalog: catalog, publisher: publisher)
        }.compactMap { $0 }
        // The records the collections' photos are copied from below (none for a run without
        // collections, an import).
        var kept = pipeline.collectionSteps.isEmpty ? [] : records.compactMap { $0 }
        // What only the per-item work needed is freed on a thread of its own before the collections'
        // photos are gathered, the collections run and the report is saved, not held to the end: the
        // only references left to it are the ones handed over here.
        let perItem = Leftovers()
        perItem.hold(survey, others, records, outcomes, catalog.handOverReadAhead())
        (survey.entries, others, records, outcomes) = ([], [], [], [])
        Leftovers.free(consume perItem, givingBack: true)
        // The collections' photos in capture order, copied once out of the records kept, which are then let go of.
        let good = Runner.inCaptureOrder(count: kept.count + othersRecords.count) { index in
            index < kept.count ? kept[index].record : othersRecords[index - kept.count]
        }
        kept = []
        for step in pipeline.collectionSteps {
            report.published += runCollection(step, items: good, catalog: catalog, publisher: publisher, failures: failures,
                                              shard: shard, report: &report)
        }

        report.failures = failures.snapshot
        report.warnings = failures.warnings
        report.itemFacts = failures.facts
        report.seconds = Date().timeIntervalSince(started)
        try catalog.finishRun(runID, report: report)
        return report
    }

    /// The inputs that were processed or already done, each with its id, capture date and every file
    /// the catalog holds for it now (what the HTML report shows), read a block of photos at a time.
    func runFiles(entries: ArraySlice<SurveyEntry>, outcomes: [Outcome], records: [KeptRecord?],
                          catalog: CatalogStore) throws -> [RunReport.File] {
        var files: [RunReport.File] = []
        for offsets in readAheadBlocks(count: entries.count) {
            let block = offsets.lowerBound + entries.startIndex..<offsets.upperBound + entries.startIndex
            let outputs = try catalog.outputsBySubject(block.compactMap { records[$0]?.record.contentHash })
            // Each input's entry is made on the run's worker threads (100,000 of them on one thread
            // were half a second of a re-run with nothing new), and they are kept in input order.
            files += DarkroomThreads.map(count: block.count, jobs: settings.jobs) { position -> RunReport.File? in
                let index = block.lowerBound + position
                guard let record = records[index]?.record else { return nil }
                let outcome: RunReport.File.Outcome
                switch outcomes[index] {
                case .processed: outcome = .processed
                case .skipped: outcome = .done
                default: return nil
                }
                return RunReport.File(path: entries[index].found.path, id: record.id.uuidString.lowercased(), outcome: outcome,
                                      captureDate: record.captureDate, outputs: (outputs[record.contentHash] ?? []).map(\.path).sorted())
            }.compactMap { $0 }
        }
        return files
    }

    /// Photos in capture-date order (undated last, then by file name): the order collections see them in.
    /// Dates are compared as instants where their UTC offset is known (a camera without offsets and
    /// a phone with them, on one trip, sort in true time order once the camera's zone is known); a
    /// date whose offset is unknown is taken as UTC, its wall-clock time.
    static func inCaptureOrder(_ records: [ItemRecord]) -> [ItemRecord] {
        inCaptureOrder(count: records.count) { records[$0] }
    }

    /// The `count` records `record(index)` gives, in capture-date order (`inCaptureOrder(_:)`), copied once.
    static func inCaptureOrder(count: Int, _ record: (Int) -> ItemRecord) -> [ItemRecord] {
        // Each instant worked out once (a calendar computation), not at every comparison.
        let instants = (0..<count).map { record($0).captureDate?.sortingInstant }
        return (0..<count).sorted { i, j in
            switch (instants[i], instants[j]) {
            case let (x?, y?) where x != y: return x < y
            case (nil, _?): return false
            case (_?, nil): return true
            default:
                let (a, b) = (record(i), record(j))
                return a.fileName == b.fileName ? a.sourcePath < b.sourcePath : a.fileName < b.fileName
            }
        }.map { record($0) }
    }

    /// Of the photos a run found, those without a sidecar of a kind the matcher expects of every
    /// file of an export, by kind; only kinds some photo of the run has.
    func withoutSidecar(_ entries: [SurveyEntry]) -> [String: [String]] {
        guard let expected = pipeline.sidecars?.expectedKinds else { return [:] }
        let present = Set(entries.flatMap { $0.found.sidecars.map(\.kind) }).intersection(expected)
        var missing: [String: [String]] = [:]
        for kind in present.sorted() {
            missing[kind] = entries.filter { entry in
                guard case .unique(_, rendition: false) = entry.state else { return false }
                return !entry.found.sidecars.contains { $0.kind == kind }
            }.map(\.found.path).sorted()
            if missing[kind]?.isEmpty == true { missing[kind] = nil }
        }
        return missing
    }

    // MARK: Recovery

    /// Cleans what a crashed run may have left: temp files, and published files never recorded.
    func recover(_ catalog: CatalogStore) throws {
        try LibraryRecovery.recover(catalog, library: settings.library, logger: logger)
    }
}
