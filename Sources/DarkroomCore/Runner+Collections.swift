import Foundation
import Logging
import Synchronization
import DarkroomLibrary
import DarkroomModel
import DarkroomReport

extension Runner {
    // MARK: Collection steps

    /// A collection step's unit key: its options and every photo it sees, with its capture date
    /// (hashed a photo at a time, not as one text of them all). A step that reads the library runs
    /// every time whatever its key (`collectionIsCurrent`): its photos are not hashed (over 100,000
    /// photos, a gallery's run with nothing new spent 0.13 s of CPU on it, on its one thread).
    func collectionKey(_ step: PipelineStep, items: [ItemRecord]) -> String {
        let options = "\(catalogIDs[step.index])|\(step.configured.optionsDigest)|"
        return step.configured.readsLibrary ? ContentHash.of(options + "reads the library")
            : ContentHash.of(options, then: CollectionContext.inputsDigestPieces(items))
    }

    /// Whether a collection step's outputs are current for these photos (and all still present).
    func collectionIsCurrent(_ step: PipelineStep, items: [ItemRecord], catalog: CatalogStore?) throws -> Bool {
        // A step that reads the library beyond its items cannot tell from them: it runs every time.
        guard !settings.force, !step.configured.readsLibrary, let catalog else { return false }
        let catalogID = catalogIDs[step.index]
        let state = try catalog.state(of: "collection:\(catalogID)")
        let outputsPresent = !state.outputs.isEmpty && state.outputs.allSatisfy {
            LibraryFiles.holdsFile($0.path, library: settings.library)
        }
        return state.unitKeys[catalogID] == collectionKey(step, items: items) && outputsPresent
    }

    /// Runs one collection step. Its outputs are published together when it ends, and recorded
    /// even when some of them could not be made (with `keepPartial`): the step's unit is recorded only
    /// when every output was made, so the next run tries again, and the made ones are never lost. A
    /// step that makes its outputs by groups (`CollectionContext.group`) records each group that
    /// was made whole on its own unit, and retires the groups that no longer exist.
    func runCollection(_ step: PipelineStep, items all: [ItemRecord], catalog: CatalogStore, publisher: Publisher,
                       failures: FailureSink, shard: Shard?, keepPartial: Bool = true, report: inout RunReport) -> [String] {
        guard case .collection(let perform) = step.configured.action else { return [] }
        let id = stepIDs[step.index]
        let media = step.configured.media
        let kinds = all.map(\.mediaKind)
        // The run's own list when the step takes every photo of it (100,000 of them are not copied).
        var items = kinds.allSatisfy(media.contains) ? all : all.indices.filter { media.contains(kinds[$0]) }.map { all[$0] }
        for kind in MediaKind.allCases where !media.contains(kind) {
            let count = kinds.count { $0 == kind }
            if count > 0 { logger.notice("\(id): \(count) \(count == 1 ? kind.description : kind.plural) passed over: it takes \(media.map(\.plural).sorted().joined(separator: " and "))") }
        }
        let catalogID = catalogIDs[step.index]
        let subject = "collection:\(catalogID)"
        let publication = publisher.publication(subject: subject, source: nil)
        defer { publication.discard() }
        let problems = ProblemCount()
        var failed = false
        var groups = CollectionGroups(catalogStep: catalogID, recorded: SubjectState())
        do {
            items = try markingBursts(items, for: step, catalog: catalog)
            if try collectionIsCurrent(step, items: items, catalog: catalog) {
                logger.info("\(id): up to date")
                return []
            }
            progress?.collectionStarted(id, items: items.count)
            groups = CollectionGroups(catalogStep: catalogID, recorded: try catalog.state(of: subject))
            let context = CollectionContext(step: id, catalogStep: catalogID, subject: subject, settings: settings, logger: logger,
                                            library: LibraryCatalog(catalog), publication: publication, reporter: failures, problems: problems,
                                            shard: shard, progress: progress, optionsDigest: step.configured.optionsDigest, groups: groups)
            try perform(items, context)
        } catch {
            failures.record(path: id, step: id, error: error, library: settings.library)
            failed = true
        }
        let complete = !failed && problems.value == 0
        if !complete { report.failed += max(1, problems.value) }
        guard complete || keepPartial else { return [] }
        do {
            try publication.publish()
            var units = groups.finishedUnits
            if complete { units.append(.init(step: catalogID, key: collectionKey(step, items: items))) }
            // A group the catalog holds that this run did not meet no longer exists: its files go
            // (known only when the stage went through all its groups, on one machine).
            let retired = failed || shard != nil ? [] : groups.unmet
            if !units.isEmpty || !retired.isEmpty || !publication.published.isEmpty {
                try publication.commit(units: units, asset: nil, retiring: retired, to: catalog)
            }
            return publication.written.map(\.path)
        } catch {
            let failure = ItemFailure(step: id, error, library: settings.library, saying: "cannot publish or record results: ")
            failures.record(path: id, step: id, reason: failure.reason, kind: failure.kind)
            if complete { report.failed += 1 }
            return []
        }
    }
}
