import DarkroomCore
import Foundation
import DarkroomLibrary
import DarkroomReport

/// The catalog as one claimed job sees it (`PostgresCatalog.forJob`): committing the job's work
/// also ends the job, atomically and only under the job's lease; pending notes belong to the job.
final class JobCatalog: CatalogStore {
    let catalog: PostgresCatalog
    let job: ClaimedJob

    init(catalog: PostgresCatalog, job: ClaimedJob) {
        self.catalog = catalog
        self.job = job
    }

    /// Records the work and marks the job done in one transaction; throws `LeaseLost`, having
    /// written nothing, when another worker holds the job now.
    func commit(_ completion: UnitCompletion, run: Int64) throws -> [String] {
        try catalog.rows.write { rows in
            try JobLedger.markDone(job, in: catalog.session)
            return try PostgresCatalog.record(completion, run: run, in: rows)
        }
    }

    /// Notes the paths under this job, so that whoever attempts the job next can remove them. The
    /// publisher calls it right before it links files into the library, so it is where a worker that
    /// lost its lease is stopped: it throws `LeaseLost`, noting nothing, unless the job is still
    /// running under this worker's unexpired lease (checked in the same transaction).
    func markPending(_ paths: [String], run: Int64) throws {
        try catalog.rows.write { rows in
            try JobLedger.requireLease(job, in: catalog.session)
            try PostgresCatalog.note(paths, run: run, job: job.id, in: rows)
        }
    }

    /// The files an earlier attempt at this job (a killed worker's) linked into the library without
    /// recording them; clears the job's notes.
    func recoverPending() throws -> [String] {
        try catalog.recoverPending(.job(job.id))
    }

    func beginRun(pipeline: String) throws -> Int64 { try catalog.beginRun(pipeline: pipeline) }
    func finishRun(_ id: Int64, report: RunReport) throws { try catalog.finishRun(id, report: report) }
    func cachedHash(path: String, size: Int64, mtimeNanoseconds: Int64, inode: UInt64) throws -> String? {
        try catalog.cachedHash(path: path, size: size, mtimeNanoseconds: mtimeNanoseconds, inode: inode)
    }
    func rememberHashes(_ files: [FileFingerprint]) throws { try catalog.rememberHashes(files) }
    func state(of subject: String) throws -> SubjectState { try catalog.state(of: subject) }
    func fingerprints(paths: [String]) throws -> [FileFingerprint] { try catalog.fingerprints(paths: paths) }
    func states(of subjects: [String], ofSteps steps: [String]?) throws -> [String: SubjectState] {
        try catalog.states(of: subjects, ofSteps: steps)
    }
    func rememberedFacts(contentHashes: [String]) throws -> [String: RememberedFacts] {
        try catalog.rememberedFacts(contentHashes: contentHashes)
    }
    func pairingFacts(contentHashes: [String]) throws -> [String: PairingFacts] { try catalog.pairingFacts(contentHashes: contentHashes) }
    func output(at path: String) throws -> CatalogOutput? { try catalog.output(at: path) }
    func outputs(atPaths paths: [String]) throws -> [CatalogOutput] { try catalog.outputs(atPaths: paths) }
    func pixelSizes(sha256s: [String]) throws -> [RecordedPixelSize] { try catalog.pixelSizes(sha256s: sha256s) }
    func similarity(contentHashes: [String]?) throws -> [SimilarityRow] { try catalog.similarity(contentHashes: contentHashes) }
    func burstFacts(contentHashes: [String]) throws -> [BurstFacts] { try catalog.burstFacts(contentHashes: contentHashes) }
    func rebuiltSubjects() throws -> Set<String> { try catalog.rebuiltSubjects() }
    func rememberPixelSizes(_ sizes: [RecordedPixelSize]) throws { try catalog.rememberPixelSizes(sizes) }
    func revisions(contentHashes: [String]) throws -> [String: Int64]? { try catalog.revisions(contentHashes: contentHashes) }
    func rememberedFacts(contentHash: String) throws -> RememberedFacts? { try catalog.rememberedFacts(contentHash: contentHash) }
    func assets(withContentIdentifier identifier: String) throws -> [PairedAsset] {
        try catalog.assets(withContentIdentifier: identifier)
    }
    func adopt(contentHash: String) throws -> Int { try catalog.adopt(contentHash: contentHash) }
    func assets(contentHashes: [String]) throws -> [AssetFacts] { try catalog.assets(contentHashes: contentHashes) }
    func outputs(ofSubjects subjects: [String]) throws -> [CatalogOutput] { try catalog.outputs(ofSubjects: subjects) }
    func motionParts(ofStills stills: [String]) throws -> [AssetFacts] { try catalog.motionParts(ofStills: stills) }
    func collectionOutputs() throws -> [CatalogOutput] { try catalog.collectionOutputs() }
}
