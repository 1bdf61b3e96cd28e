import Foundation

/// What a job does: one photo's steps, or a collection step over a batch's photos.
public enum JobKind: String, Codable, Sendable, Hashable {
    /// One photo's pending steps.
    case photo
    /// Work that waits for its batch's photo jobs to end: a collection step (time-lapse, collage)
    /// over the batch's photos, or a Live Photo's video, filed with its still's capture date.
    case collection
}

/// A job to put in the queue.
public struct NewJob: Sendable, Hashable {
    /// The work's identity: a second job with the same key is never queued.
    public var unitKey: String
    /// Whether it is a photo job or a collection job.
    public var kind: JobKind
    /// The enqueue that made it; a collection job waits for its batch's photo jobs.
    public var batch: String
    /// The pipeline it runs (`WorkQueue.registerPipeline`).
    public var pipelineDigest: String
    /// What the worker needs to know (JSON, opaque to the queue).
    public var payload: String
    /// How many attempts, counting killed workers' ones, before the job is marked failed.
    public var maxAttempts: Int

    /// A job for the queue.
    public init(unitKey: String, kind: JobKind, batch: String, pipelineDigest: String, payload: String, maxAttempts: Int) {
        self.unitKey = unitKey; self.kind = kind; self.batch = batch
        self.pipelineDigest = pipelineDigest; self.payload = payload; self.maxAttempts = maxAttempts
    }
}

/// A pipeline as the queue stores it, so that a worker runs exactly what was enqueued.
public struct PipelineRecord: Codable, Sendable, Hashable {
    /// SHA-256 of the other fields.
    public var digest: String
    /// The pipeline file's name (for messages and runs' records).
    public var fileName: String
    /// The pipeline file's text.
    public var yaml: String
    /// The library it publishes into.
    public var library: String
    /// The run settings, as JSON (opaque to the queue).
    public var settingsJSON: String
    /// The text of the files the pipeline reads as it loads (collage templates), by the reference
    /// the pipeline writes, so that a worker needs no file (and sees what was enqueued).
    public var templates: [String: String]

    /// A stored pipeline.
    public init(digest: String, fileName: String, yaml: String, library: String, settingsJSON: String,
                templates: [String: String] = [:]) {
        self.digest = digest; self.fileName = fileName; self.yaml = yaml; self.library = library; self.settingsJSON = settingsJSON
        self.templates = templates
    }

    private enum CodingKeys: String, CodingKey { case digest, fileName, yaml, library, settingsJSON, templates }

    /// Decodes a record; one written before templates were stored has none.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(digest: try c.decode(String.self, forKey: .digest), fileName: try c.decode(String.self, forKey: .fileName),
                  yaml: try c.decode(String.self, forKey: .yaml), library: try c.decode(String.self, forKey: .library),
                  settingsJSON: try c.decode(String.self, forKey: .settingsJSON),
                  templates: try c.decodeIfPresent([String: String].self, forKey: .templates) ?? [:])
    }
}

/// A job a worker holds under a lease, until it completes, fails or stops renewing it.
public struct ClaimedJob: Sendable, Hashable {
    /// The job's id in the queue.
    public var id: Int64
    /// The lease's proof of ownership: every change a worker makes to the job carries it, and a
    /// worker that claims the job after the lease expired gets a new one.
    public var token: UUID
    /// Which attempt this is, from 1 (a killed worker's attempt counts).
    public var attempt: Int
    /// Whether it is a photo job or a collection job.
    public var kind: JobKind
    /// The enqueue that made it.
    public var batch: String
    /// The work's identity.
    public var unitKey: String
    /// What the enqueuer gave the worker (JSON).
    public var payload: String
    /// The pipeline to run.
    public var pipeline: PipelineRecord
    /// The worker that holds it.
    public var worker: String

    /// A claimed job (the queue makes these; tests may too).
    public init(id: Int64, token: UUID, attempt: Int, kind: JobKind, batch: String, unitKey: String,
                payload: String, pipeline: PipelineRecord, worker: String) {
        self.id = id; self.token = token; self.attempt = attempt; self.kind = kind; self.batch = batch
        self.unitKey = unitKey; self.payload = payload; self.pipeline = pipeline; self.worker = worker
    }
}

/// What happened to a failed job.
public enum FailureDisposition: Sendable, Equatable {
    /// Back in the queue, claimable after this many seconds.
    case retry(after: TimeInterval)
    /// Out of attempts: marked failed.
    case failed
}

/// The job's lease is no longer this worker's: it expired and another worker claimed the job.
/// Nothing was written; the other worker does the job.
public struct LeaseLost: Error, CustomStringConvertible, Sendable {
    /// The job's id.
    public var jobID: Int64
    /// The job's unit key.
    public var unitKey: String
    /// The worker that lost the lease.
    public var worker: String

    /// The lease `job` held is lost.
    public init(_ job: ClaimedJob) {
        jobID = job.id; unitKey = job.unitKey; worker = job.worker
    }

    /// What happened, for messages.
    public var description: String {
        "job \(jobID) (\(unitKey)) is no longer leased to \(worker): the lease expired and another worker took the job over"
    }
}

/// A job as the queue records it (for status commands and tests).
public struct JobRecord: Codable, Sendable, Hashable {
    /// The job's id.
    public var id: Int64
    /// The work's identity.
    public var unitKey: String
    /// Whether it is a photo job or a collection job.
    public var kind: JobKind
    /// The enqueue that made it.
    public var batch: String
    /// `pending`, `running`, `done` or `failed`.
    public var state: String
    /// Attempts so far (a killed worker's included).
    public var attempts: Int
    /// Attempts allowed.
    public var maxAttempts: Int
    /// The worker that holds or last held its lease.
    public var leaseOwner: String?
    /// The last failure, if any.
    public var lastError: String?
    /// Seconds until it may be claimed (negative or zero when it may be now).
    public var claimableIn: TimeInterval
}

/// One attempt at a job.
public struct JobAttempt: Codable, Sendable, Hashable {
    /// Its number, from 1.
    public var attempt: Int
    /// The worker that made it.
    public var worker: String
    /// `done`, `failed` or `lease expired`; nil while it runs.
    public var outcome: String?
    /// Why it failed, if it did.
    public var error: String?
}
