import DarkroomCore
import Foundation
import PostgresNIO
import DarkroomModel

/// A fleet's work queue in PostgreSQL: jobs go in once (`enqueue`), workers take them under a lease
/// (`claim`, `renew`), and each ends done (`complete`, or the job-scoped catalog's `commit`) or failed
/// after its attempts (`fail`). A worker killed mid-job stops renewing; when its lease expires
/// another worker takes the job over. Every lease time is the database's clock, not the workers'.
///
/// Job states: `pending` (claimable from `not_before`), `running` (leased), `done`, `failed`.
public final class WorkQueue: Sendable {
    let session: PostgresSession

    /// Uses `session`'s database, creating the tables when needed.
    public init(session: PostgresSession) throws {
        self.session = session
        try QueueSchema.migrate(session)
    }

    /// How many jobs one INSERT carries.
    static let insertChunk = 5_000

    // MARK: Pipelines

    /// Stores a pipeline (once) with the text of the `templates` it reads (by the reference the
    /// pipeline writes), and returns its digest: SHA-256 of the fields (the templates' only when
    /// there are some, so a pipeline without any keeps the digest it always had).
    public func registerPipeline(fileName: String, yaml: String, library: String, settingsJSON: String,
                                 templates: [String: String] = [:]) throws -> String {
        let templatesJSON = try WorkQueue.templatesJSON(templates)
        let digest = WorkQueue.digest([fileName, yaml, library, settingsJSON] + (templates.isEmpty ? [] : [templatesJSON]))
        try session.execute("""
            INSERT INTO pipelines (digest, file_name, yaml, library, settings_json, templates_json)
            VALUES (\(digest), \(fileName), \(yaml), \(library), \(settingsJSON), \(templatesJSON))
            ON CONFLICT (digest) DO NOTHING
            """)
        return digest
    }

    /// Template texts as stored: JSON with sorted keys (the same texts give the same digest).
    static func templatesJSON(_ templates: [String: String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(templates), as: UTF8.self)
    }

    /// SHA-256 of the fields, each prefixed with its length so that no two lists hash alike.
    static func digest(_ fields: [String]) -> String {
        ContentHash.of(fields.map { "\($0.utf8.count):\($0)" }.joined())
    }

    // MARK: Enqueueing

    /// Queues the jobs whose unit key the queue has never had, in one transaction; returns how many
    /// were added and how many were there already (a key repeated within `jobs` counts once added).
    @discardableResult
    public func enqueue(_ jobs: [NewJob]) throws -> (added: Int, alreadyQueued: Int) {
        if let bad = jobs.first(where: { $0.maxAttempts < 1 }) {
            throw QueueError("job \(bad.unitKey): maxAttempts must be at least 1, got \(bad.maxAttempts)")
        }
        let added = try session.transaction { () throws -> Int in
            var added = 0
            for start in stride(from: 0, to: jobs.count, by: WorkQueue.insertChunk) {
                let chunk = jobs[start..<min(start + WorkQueue.insertChunk, jobs.count)]
                added += try session.execute("""
                    INSERT INTO jobs (unit_key, kind, batch, pipeline_digest, payload, max_attempts)
                    SELECT unit_key, kind, batch, pipeline_digest, payload, max_attempts
                    FROM unnest(\(chunk.map(\.unitKey)), \(chunk.map(\.kind.rawValue)), \(chunk.map(\.batch)),
                                \(chunk.map(\.pipelineDigest)), \(chunk.map(\.payload)), \(chunk.map(\.maxAttempts)))
                        WITH ORDINALITY AS j(unit_key, kind, batch, pipeline_digest, payload, max_attempts, position)
                    ORDER BY position  -- ids follow the given order, and jobs are claimed in it
                    ON CONFLICT (unit_key) DO NOTHING
                    """)
            }
            return added
        }
        return (added, jobs.count - added)
    }

    /// Gives failed jobs (of one batch, or all) `extraAttempts` more attempts, claimable now;
    /// returns how many. Their attempt history and last error stay.
    @discardableResult
    public func requeueFailed(batch: String? = nil, extraAttempts: Int = 1) throws -> Int {
        guard extraAttempts >= 1 else { throw QueueError("extraAttempts must be at least 1, got \(extraAttempts)") }
        return try session.execute("""
            UPDATE jobs SET state = 'pending', max_attempts = attempts + \(extraAttempts), not_before = now(), finished_at = NULL
            WHERE state = 'failed' AND (\(batch)::text IS NULL OR batch = \(batch)::text)
            """)
    }

    // MARK: Inspection

    /// The job with this unit key, if it was ever queued.
    public func job(unitKey: String) throws -> JobRecord? {
        guard let row = try session.query("""
            SELECT id, unit_key, kind, batch, state, attempts, max_attempts, lease_owner, last_error,
                   extract(epoch FROM not_before - now())::float8
            FROM jobs WHERE unit_key = \(unitKey)
            """).first else { return nil }
        let (id, key, kind, batch, state, attempts, maxAttempts, owner, error, claimableIn) =
            try row.decode((Int64, String, String, String, String, Int, Int, String?, String?, Double).self)
        return JobRecord(id: id, unitKey: key, kind: JobKind(rawValue: kind) ?? .photo, batch: batch, state: state,
                         attempts: attempts, maxAttempts: maxAttempts, leaseOwner: owner, lastError: error,
                         claimableIn: claimableIn)
    }

    /// Every attempt at a job, first first.
    public func attempts(ofJob id: Int64) throws -> [JobAttempt] {
        try session.query("""
            SELECT attempt, worker, outcome, error FROM job_attempts WHERE job_id = \(id) ORDER BY attempt
            """).map {
            let (attempt, worker, outcome, error) = try $0.decode((Int, String, String?, String?).self)
            return JobAttempt(attempt: attempt, worker: worker, outcome: outcome, error: error)
        }
    }
}

/// A queue call the queue itself refuses (bad arguments), as opposed to a database error.
public struct QueueError: Error, CustomStringConvertible {
    /// What was refused, and why.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

extension WorkQueue {
    /// The job types, also spelled as members of the queue (`WorkQueue.NewJob`).
    public typealias NewJob = DarkroomQueue.NewJob
    /// See `DarkroomQueue.ClaimedJob`.
    public typealias ClaimedJob = DarkroomQueue.ClaimedJob
    /// See `DarkroomQueue.JobKind`.
    public typealias JobKind = DarkroomQueue.JobKind
    /// See `DarkroomQueue.FailureDisposition`.
    public typealias FailureDisposition = DarkroomQueue.FailureDisposition
    /// See `DarkroomQueue.QueueStatus`.
    public typealias Status = DarkroomQueue.QueueStatus
}
