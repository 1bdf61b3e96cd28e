import Foundation
import DarkroomLibrary
import DarkroomModel
import DarkroomReport

/// A photo as a work queue carries it: where it is, and which photo it is.
public struct QueuedPhoto: Codable, Sendable, Hashable {
    public var source: String
    public var relativePath: String
    public var contentHash: String
    /// Whether the file is one of the library's own renditions of the photo (a HEIC in `Photos/`).
    public var rendition: Bool
    /// For a Live Photo's video: the content hash and path of its still (whose own job must have
    /// recorded its capture date first; until then the job fails and is retried).
    public var motionOf: String?
    public var stillPath: String?
    /// Its sidecars (Takeout JSON, XMP), as the enqueuer matched and hashed them.
    public var sidecars: [AttachedSidecar]?
}

/// One job of a work queue: a photo's pending steps, or a collection step over a set of photos.
public struct QueuedUnit: Codable, Sendable {
    public enum Kind: String, Codable, Sendable { case photo, collection }

    public var kind: Kind
    /// Never the same for two different pieces of work, always the same for the same work: the queue
    /// refuses a second job with a key it has.
    public var key: String
    /// The photo (kind photo).
    public var photo: QueuedPhoto?
    /// The collection step's index in the pipeline, and its photos (kind collection).
    public var step: Int?
    public var photos: [QueuedPhoto]?

    /// Whether the job must wait until its batch's photo jobs have ended: a collection, and a Live
    /// Photo's video (filed under its still's capture date, which the still's own job records).
    public var waitsForPhotos: Bool { kind == .collection || photo?.motionOf != nil }
}

/// What `darkroom enqueue` found: the units to queue, and what needs no job.
public struct QueuePlan: Sendable {
    public var units: [QueuedUnit] = []
    public var upToDate = 0
    public var duplicates: [RunReport.Duplicate] = []
    public var unreadable: [RunReport.Failure] = []
}

/// How a queued unit ended in a worker.
public enum QueuedOutcome: Sendable, Equatable {
    /// Done, and recorded through the store's `commit`.
    case done(published: [String])
    /// Nothing to do or record (already done, or a collection already up to date).
    case nothingToDo
    /// Failed at `step`, for `reason`.
    case failed(step: String, reason: String)
}

extension Runner {
    /// A temp folder of this process's own in `library` (`.darkroom/tmp/<host>-<pid>`), for a queue
    /// worker's `runQueued`; folders of dead processes of this host are removed on the way.
    public static func processTemporaryFolder(library: URL) throws -> URL {
        try Publisher.processTemporaryFolder(library: library)
    }

    /// The work units for a queue: one per photo with pending steps (keyed by the units of those
    /// steps, so options or a changed file make a new key), and one per collection step (keyed by its
    /// options and the photos it covers). Reads files to hash them; writes nothing.
    public func queuePlan(inputs: [URL], catalog: CatalogStore?) throws -> QueuePlan {
        try Runner.checkInputs(inputs)
        try pipeline.prepare(settings)
        let catalog = catalog.map(CatalogReadAhead.init)
        let survey = try self.survey(inputs: inputs, catalog: catalog, remember: false)
        var plan = QueuePlan()
        var photos: [QueuedPhoto] = []
        try inBlocks(Array(survey.entries.indices), of: survey.entries, catalog: catalog) { block in
            for entry in block.lazy.map({ survey.entries[$0] }) {
                switch entry.state {
                case .unreadable(let reason): plan.unreadable.append(.init(path: entry.found.path, step: "read", reason: reason))
                case .duplicate(let original, _): plan.duplicates.append(.init(path: entry.found.path, sameAs: original))
                case .unique(let hash, let rendition):
                    let sidecars = entry.found.sidecars
                    let photo = QueuedPhoto(source: entry.found.path, relativePath: entry.found.relativePath,
                                            contentHash: hash, rendition: rendition, sidecars: sidecars.isEmpty ? nil : sidecars)
                    photos.append(photo)
                    let work = try self.work(for: hash, kind: MediaKind(fileName: entry.found.name), catalog: catalog,
                                             sidecars: sidecars)
                    guard !work.pending.isEmpty else { plan.upToDate += 1; continue }
                    let key = ContentHash.of(work.pending.sorted().map { "\(catalogIDs[$0])=\(work.keys[$0]!)" }.joined(separator: ","))
                    plan.units.append(QueuedUnit(kind: .photo, key: key, photo: photo))
                case .motionPart(let still, let hash, let stillPath):
                    // Keyed by the still too: the same video joined to another still is other work.
                    let photo = QueuedPhoto(source: entry.found.path, relativePath: entry.found.relativePath, contentHash: hash,
                                            rendition: false, motionOf: still, stillPath: stillPath)
                    let date = ((try catalog?.rememberedFacts(contentHash: still)) ?? nil)?.captureDate
                    if let date, try motionWork(for: hash, still: still, date: date, catalog: catalog).0.pending.isEmpty {
                        plan.upToDate += 1
                        continue
                    }
                    let steps = pipeline.motionSteps.map { "\(catalogIDs[$0.index])|\($0.configured.optionsDigest)" }.joined(separator: ",")
                    let key = ContentHash.of("\(steps)|\(hash)|motion part of \(still) at \(date?.local.description ?? "-")")
                    plan.units.append(QueuedUnit(kind: .photo, key: key, photo: photo))
                }
            }
        }
        for step in pipeline.collectionSteps {
            let digest = photos.map(\.contentHash).sorted().joined(separator: ",")
            let key = ContentHash.of("\(catalogIDs[step.index])|\(step.configured.optionsDigest)|\(digest)")
            plan.units.append(QueuedUnit(kind: .collection, key: key, step: step.index, photos: photos))
        }
        return plan
    }

    /// Runs one queued unit against `store` (a job-scoped catalog, whose `commit` also ends the job),
    /// staging files in `temporaryFolder`. Files an earlier, killed attempt left unrecorded are removed first.
    public func runQueued(_ unit: QueuedUnit, store: CatalogStore, run: Int64, temporaryFolder: URL) -> QueuedOutcome {
        do {
            try pipeline.prepare(settings)
            try LibraryRecovery.removeOrphans(store, library: settings.library, logger: logger)
            let publisher = try Publisher(library: settings.library, catalog: store, run: run, temporaryFolder: temporaryFolder)
            switch unit.kind {
            case .photo:
                guard let photo = unit.photo else { return .failed(step: "queue", reason: "a photo job without its photo") }
                return try runQueued(photo, store: store, publisher: publisher)
            case .collection:
                guard let index = unit.step, pipeline.steps.indices.contains(index), let photos = unit.photos else {
                    return .failed(step: "queue", reason: "a collection job without its step or photos")
                }
                return try runQueuedCollection(pipeline.steps[index], photos: photos, store: store, publisher: publisher)
            }
        } catch {
            return .failed(step: "queue", reason: "\(error)")
        }
    }

    private func runQueued(_ photo: QueuedPhoto, store: CatalogStore, publisher: Publisher) throws -> QueuedOutcome {
        let url = URL(fileURLWithPath: photo.source)
        guard let info = FileInfo(path: url.path, followLinks: pipeline.inputs.followSymlinks), info.isRegularFile else {
            return .failed(step: "read", reason: "the file is gone since it was queued")
        }
        let found = Discovery.Found(url: url, relativePath: photo.relativePath, size: info.size, modificationDate: info.modificationDate,
                                    modificationNanoseconds: info.modificationNanoseconds, inode: info.id.inode,
                                    sidecars: photo.sidecars ?? [])
        let fileHash = try store.cachedHash(path: url.path, size: info.size, mtimeNanoseconds: info.modificationNanoseconds,
                                            inode: info.id.inode) ?? ContentHash.ofFile(url)
        guard (photo.rendition ? identity(of: found, hash: fileHash, catalog: store) : fileHash) == photo.contentHash else {
            return .failed(step: "read", reason: "the file changed since it was queued; enqueue it again")
        }
        let failures = FailureSink()
        let state: SurveyEntry.State = photo.motionOf.map {
            .motionPart(of: $0, hash: photo.contentHash, stillPath: photo.stillPath ?? $0)
        } ?? .unique(photo.contentHash, rendition: photo.rendition)
        // A queue worker takes one job at a time: its one photo has a slot of its own.
        let (outcome, _) = process(SurveyEntry(found: found, state: state), catalog: store, publisher: publisher, failures: failures,
                                   computing: ComputeSlots(1))
        switch outcome {
        case .processed(let paths): return .done(published: paths)
        case .skipped, .duplicate, .notAttempted: return .nothingToDo
        case .failed:
            let failure = failures.snapshot.last
            return .failed(step: failure?.step ?? "run", reason: failure?.reason ?? "failed")
        }
    }

    private func runQueuedCollection(_ step: PipelineStep, photos: [QueuedPhoto], store: CatalogStore,
                                     publisher: Publisher) throws -> QueuedOutcome {
        // The photos' facts come from the catalog: their own jobs ran first. A photo whose job failed is left out.
        let records = try photos.compactMap { photo -> ItemRecord? in
            guard let facts = try store.rememberedFacts(contentHash: photo.contentHash) else { return nil }
            return ItemRecord(source: URL(fileURLWithPath: photo.source), relativePath: photo.relativePath, contentHash: photo.contentHash,
                              id: ContentHash.uuid(fromHex: photo.contentHash), captureDate: facts.captureDate,
                              pixelWidth: facts.width, pixelHeight: facts.height)
        }
        let failures = FailureSink()
        var report = RunReport(pipeline: pipeline.file, library: settings.library.path)
        // A job's commit also ends the job, so a partly made collection is not published: the job
        // fails with the reason and its next attempt starts clean.
        let published = runCollection(step, items: Runner.inCaptureOrder(records), catalog: store, publisher: publisher,
                                      failures: failures, shard: nil, keepPartial: false, report: &report)
        if report.failed > 0, let failure = failures.snapshot.last {
            return .failed(step: failure.step, reason: failure.reason)
        }
        return published.isEmpty ? .nothingToDo : .done(published: published)
    }
}
