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
        item.probe = entry.probe
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
    func facts(of entry: SurveyEntry, catalog: CatalogStore, publisher: Publisher) -> ItemRecord? {
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
    func changedSince(_ file: Discovery.Found) -> String? {
        guard let now = FileInfo(path: file.url.path, followLinks: pipeline.inputs.followSymlinks) else {
            return "the file disappeared while it was being imported"
        }
        if now.size != file.size || now.modificationNanoseconds != file.modificationNanoseconds {
            return "the file changed while it was being imported; run again to import the new version"
        }
        return nil
    }
}
