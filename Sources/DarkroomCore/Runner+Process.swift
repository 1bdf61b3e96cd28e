import Foundation
import Logging
import Synchronization
import DarkroomLibrary
import DarkroomModel
import DarkroomReport

extension Runner {
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

    /// Works on one input: its pending steps run (in one of the `computing` slots), its outputs are
    /// published together and recorded with its units (out of the slot: that waits on the disk). A Live
    /// Photo's video (`.motionPart`) runs only the steps that take motion parts, under its still's id and
    /// capture date (`still`: this run's record of it, else the catalog's).
    func process(_ entry: SurveyEntry, still: ItemRecord? = nil, catalog: CatalogStore, publisher: Publisher,
                 failures: FailureSink, computing: ComputeSlots) -> (Outcome, ItemRecord?) {
        let file = entry.found
        let subject: Subject
        switch entry.state {
        case .duplicate(let original, _): return (.duplicate(original), nil)
        case .unreadable(let reason):
            failures.record(path: file.path, step: "read", reason: reason, kind: .unreadable)
            return (.failed([], diskFull: false), nil)
        case .unique(let hash, let rendition): subject = Subject(hash: hash, rendition: rendition, motion: nil)
        case .motionPart(let still, let hash, let stillPath): subject = Subject(hash: hash, rendition: false, motion: (still, stillPath))
        }
        let item = Item(source: file.url, relativePath: file.relativePath, contentHash: subject.hash,
                        fileSize: file.size, modificationDate: file.modificationDate,
                        id: subject.motion.map { ContentHash.uuid(fromHex: $0.still) })
        item.contentIdentifier = entry.pairingKey
        item.probe = entry.probe
        item.sidecars = file.sidecars
        // A photo with nothing to do (all of a re-run's) publishes nothing: no publication is made for it.
        var publication: Publication?
        defer { item.attachments.removeAll(); publication?.discard() }
        do {
            let worked = try computing.withSlot { () throws -> (ItemPlan, Publication, [UnitCompletion.Unit])? in
                let plan = try plan(item, subject, still: still, catalog: catalog)
                if plan.work.required.isEmpty && !plan.adopted { return nil }
                let made = publisher.publication(subject: subject.hash, source: file.path, pathID: item.id)
                publication = made
                return (plan, made, try runSteps(plan, on: item, publication: made, failures: failures))
            }
            guard let (plan, made, units) = worked else { return (.skipped, rememberedRecord(of: item, foundAt: file.path, catalog: catalog)) }
            if let changed = changedSince(file) { throw ItemFailure(step: "read", reason: changed, kind: .changedWhileImporting) }
            try publish(made, of: item)
            if !units.isEmpty { try record(units, plan, of: item, subject, publication: made, catalog: catalog) }
            logger.debug("processed \(file.relativePath) -> \(item.outputs.map(\.path).joined(separator: ", "))")
            return (.processed(item.outputs.map(\.path)), ItemRecord(item, foundAt: file.path))
        } catch let failure as ItemFailure {
            failures.record(path: file.path, step: failure.step, reason: failure.reason, kind: failure.kind)
            logger.debug("failed \(file.path) [\(failure.step)]: \(failure.reason)")
            return (.failed(item.outputs.map(\.path), diskFull: failure.kind == .diskFull), nil)
        } catch {
            preconditionFailure("every failure of a photo is an ItemFailure: \(error)")
        }
    }

    /// What an input is to the catalog: its content hash, whether the file is a library rendition of
    /// it, and for a Live Photo's video, its still (content hash and path).
    struct Subject {
        var hash: String
        var rendition: Bool
        var motion: (still: String, path: String)?
    }

    /// Why one input failed: at which step, in words, and of what kind.
    struct ItemFailure: Error {
        var step: String
        var reason: String
        var kind: FailureKind?

        init(step: String, reason: String, kind: FailureKind?) {
            self.step = step
            self.reason = reason
            self.kind = kind
        }

        /// `error` at `step`: its words, and its kind (a full disk of `library` is always that).
        init(step: String, _ error: Error, library: URL, saying prefix: String = "") {
            self.init(step: step, reason: prefix + "\(error)",
                      kind: DiskSpace.isFull(error, library: library) ? .diskFull : FailureKind.of(error))
        }
    }

    /// The work one input has to do, and what becomes of it when done.
    struct ItemPlan {
        var work: Work
        /// Its outputs were recorded by `catalog rebuild`: they are taken as they are, with its work.
        var adopted: Bool
        /// Steps whose units and outputs it no longer has (a video that became a motion part).
        var retired: [String] = []
        /// Library files it takes as they are (a Live Photo video's copy found by a rebuild).
        var kept: [PublishedOutput] = []
    }

    /// Plans `item`'s work and gives it what it starts with: a motion part its still's date, a
    /// library rendition the date the catalog knows, any photo the date a user set.
    func plan(_ item: Item, _ subject: Subject, still: ItemRecord?, catalog: CatalogStore) throws -> ItemPlan {
        do {
            if let motion = subject.motion {
                // The still's capture date, from this run or the catalog: the motion part is filed with it.
                let remembered = try catalog.rememberedFacts(contentHash: motion.still)
                guard let date = still?.captureDate ?? remembered?.captureDate else {
                    let still = MediaKind.isRawPhoto(item.source.lastPathComponent) ? "the RAW+JPEG pair's JPEG" : "the Live Photo's still"
                    throw ItemFailure(step: "pair", reason: "\(still) \(motion.path) has no capture date (it failed, or is not imported yet)",
                                      kind: .noCaptureDate)
                }
                item.captureDate = date
                item.motionOf = motion.still
                let (work, retired) = try motionWork(for: subject.hash, still: motion.still, date: date, catalog: catalog)
                // Its copy recorded by `catalog rebuild` (under the still's id) is taken as it is.
                if !work.pending.isEmpty, let copy = try rebuiltCopy(of: subject.hash, still: motion.still, catalog: catalog) {
                    return ItemPlan(work: Work(keys: work.keys, required: [], pending: work.pending), adopted: true, retired: retired,
                                    kept: [copy])
                }
                return ItemPlan(work: work, adopted: false, retired: retired)
            }
            // Outputs recorded by `catalog rebuild` under this photo's id: take them, and its work, as done.
            let adopted = try catalog.adopt(contentHash: subject.hash) > 0
            var work = try self.work(for: subject.hash, kind: item.mediaKind, catalog: catalog, sidecars: item.sidecars)
            if adopted { work = adopting(work) }
            if !work.required.isEmpty, let facts = try catalog.rememberedFacts(contentHash: subject.hash), let date = facts.captureDate {
                // A library file read as its photo (a HEIC in Photos/) is filed as the photo is, whatever
                // the file says; a date the user set (`catalog set-date`) outranks the file's evidence.
                if subject.rendition || date.source == .user { item.captureDate = date }
            }
            return ItemPlan(work: work, adopted: adopted)
        } catch let failure as ItemFailure {
            throw failure
        } catch {
            throw ItemFailure(step: "plan", error, library: settings.library)
        }
    }

    /// Runs the steps `plan` requires, in order, and returns the units they finished (all of them
    /// for an adopted photo); throws at the first step that fails.
    func runSteps(_ plan: ItemPlan, on item: Item, publication: Publication, failures: FailureSink) throws -> [UnitCompletion.Unit] {
        var finished: [UnitCompletion.Unit] = []
        let path = item.source.path
        for index in plan.work.required {
            guard case .perItem(let perform) = pipeline.steps[index].configured.action else { continue }
            progress?.stepStarted(stepIDs[index], on: item.relativePath)
            let context = StageContext(step: stepIDs[index], catalogStep: catalogIDs[index], settings: settings,
                                       logger: logger, publication: publication,
                                       warnings: { step, message in failures.warn(path: path, step: step, reason: message) })
            do {
                try perform(item, context)
            } catch {
                throw ItemFailure(step: stepIDs[index], error, library: settings.library)
            }
            if plan.work.pending.contains(index) { finished.append(.init(step: catalogIDs[index], key: plan.work.keys[index]!)) }
        }
        guard plan.adopted else { return finished }
        return plan.work.keys.sorted { $0.key < $1.key }.map { .init(step: catalogIDs[$0.key], key: $0.value) }
    }

    /// Links the item's staged outputs into the library, all of them or none.
    func publish(_ publication: Publication, of item: Item) throws {
        defer { item.outputs = publication.published }
        do { try publication.publish() } catch { throw ItemFailure(step: "publish", error, library: settings.library) }
    }

    /// Records the finished units with the outputs they made (a step that ran only to feed another
    /// records nothing) and the files the plan keeps, and for an original what was learnt of it.
    func record(_ units: [UnitCompletion.Unit], _ plan: ItemPlan, of item: Item, _ subject: Subject,
                publication: Publication, catalog: CatalogStore) throws {
        do {
            try publication.commit(units: units, asset: subject.rendition ? nil : AssetFacts(item), retiring: plan.retired,
                                   unchanged: plan.kept, to: catalog) { output in
                units.contains { $0.step == output.step }
            }
        } catch {
            // What is still published: a commit that met a full disk took its files back.
            item.outputs = publication.published
            throw ItemFailure(step: "catalog", error, library: settings.library, saying: "cannot record results: ")
        }
    }

    /// The record of an input found at `path` whose work is all done, from what the catalog remembers of it.
    func rememberedRecord(of item: Item, foundAt path: String, catalog: CatalogStore) -> ItemRecord {
        let facts = (try? catalog.rememberedFacts(contentHash: item.contentHash)) ?? nil
        return ItemRecord(sourcePath: path, relativePath: item.relativePath, contentHash: item.contentHash, id: item.id,
                          captureDate: facts?.captureDate, pixelWidth: facts?.width, pixelHeight: facts?.height,
                          contentIdentifier: facts?.contentIdentifier)
    }

    /// What a collection needs to know of a photo another shard works on: its capture date and size,
    /// remembered by the catalog or learnt again by the steps that learn them (nothing is published
    /// or recorded). Nil when they fail: the photo's own shard reports the failure.
    func facts(of entry: SurveyEntry, catalog: CatalogStore, publisher: Publisher) -> ItemRecord? {
        guard case .unique(let hash, _) = entry.state else { return nil }
        let file = entry.found
        let item = Item(source: file.url, relativePath: file.relativePath, contentHash: hash,
                        fileSize: file.size, modificationDate: file.modificationDate)
        item.sidecars = file.sidecars
        let publication = publisher.publication(subject: hash, source: file.path)
        defer { item.attachments.removeAll(); publication.discard() }
        if let facts = (try? catalog.rememberedFacts(contentHash: hash)) ?? nil {
            return ItemRecord(sourcePath: file.path, relativePath: file.relativePath, contentHash: hash, id: item.id,
                              captureDate: facts.captureDate, pixelWidth: facts.width, pixelHeight: facts.height)
        }
        for index in learningSteps {
            guard case .perItem(let perform) = pipeline.steps[index].configured.action else { continue }
            let context = StageContext(step: stepIDs[index], catalogStep: catalogIDs[index], settings: settings,
                                       logger: logger, publication: publication, warnings: nil)
            do { try perform(item, context) } catch { return nil }
        }
        return ItemRecord(sourcePath: file.path, relativePath: file.relativePath, contentHash: hash, id: item.id,
                          captureDate: item.captureDate, pixelWidth: item.pixelWidth, pixelHeight: item.pixelHeight)
    }

    /// A reason when the file changed on disk while it was being processed.
    func changedSince(_ file: Discovery.Found) -> String? {
        guard let now = FileInfo(path: file.path, followLinks: pipeline.inputs.followSymlinks) else {
            return "the file disappeared while it was being imported"
        }
        if now.size != file.size || now.modificationNanoseconds != file.modificationNanoseconds {
            return "the file changed while it was being imported; run again to import the new version"
        }
        return nil
    }
}
