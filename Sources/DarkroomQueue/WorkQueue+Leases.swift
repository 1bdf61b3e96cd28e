import Foundation
import PostgresNIO

extension WorkQueue {
    /// The longest a failed job waits before its next attempt, whatever the backoff.
    public static let maximumRetryDelay: TimeInterval = 3600

    /// Takes the oldest claimable job under a lease of `lease` seconds, or returns nil when there is
    /// none. Claimable: pending jobs whose retry time has come, and running jobs whose lease expired
    /// (their worker was killed or lost). An expired attempt is recorded as `lease expired` and
    /// counts; a job with no attempt left is then marked failed instead of claimed. A collection job
    /// is claimable only when no photo job of its batch is pending or running. Concurrent claims
    /// never take the same job (`FOR UPDATE SKIP LOCKED`).
    public func claim(worker: String, lease: TimeInterval) throws -> ClaimedJob? {
        try session.transaction {
            while let candidate = try nextClaimable() {
                var lastError: String?
                if candidate.leaseExpired {
                    let error = "worker \(candidate.owner ?? "unknown") stopped renewing its lease (killed or lost)"
                    try session.execute("""
                        UPDATE job_attempts SET outcome = 'lease expired', error = \(error), ended_at = now()
                        WHERE job_id = \(candidate.id) AND attempt = \(candidate.attempts)
                        """)
                    if candidate.attempts >= candidate.maxAttempts {
                        try session.execute("""
                            UPDATE jobs SET state = 'failed', last_error = \(error), finished_at = now(),
                                lease_token = NULL, lease_expires = NULL
                            WHERE id = \(candidate.id)
                            """)
                        continue
                    }
                    lastError = error
                }
                return try take(candidate.id, worker: worker, lease: lease, lastError: lastError)
            }
            return nil
        }
    }

    private struct Candidate {
        var id: Int64
        var leaseExpired: Bool
        var attempts: Int
        var maxAttempts: Int
        var owner: String?
    }

    /// Locks the oldest claimable job that no other transaction has locked.
    private func nextClaimable() throws -> Candidate? {
        guard let row = try session.query("""
            SELECT j.id, j.state = 'running', j.attempts, j.max_attempts, j.lease_owner
            FROM jobs j
            WHERE j.state IN ('pending', 'running')
              AND ((j.state = 'pending' AND j.not_before <= now()) OR (j.state = 'running' AND j.lease_expires < now()))
              AND (j.kind = 'photo' OR NOT EXISTS (
                    SELECT 1 FROM jobs p
                    WHERE p.batch = j.batch AND p.kind = 'photo' AND p.state IN ('pending', 'running')))
            ORDER BY j.id
            LIMIT 1
            FOR UPDATE OF j SKIP LOCKED
            """).first else { return nil }
        let (id, expired, attempts, maxAttempts, owner) = try row.decode((Int64, Bool, Int, Int, String?).self)
        return Candidate(id: id, leaseExpired: expired, attempts: attempts, maxAttempts: maxAttempts, owner: owner)
    }

    /// Leases a locked job to `worker` and opens its attempt.
    private func take(_ id: Int64, worker: String, lease: TimeInterval, lastError: String?) throws -> ClaimedJob {
        let token = UUID()
        guard let row = try session.query("""
            UPDATE jobs j SET state = 'running', attempts = j.attempts + 1, lease_token = \(token), lease_owner = \(worker),
                lease_expires = now() + make_interval(secs => \(lease)), last_error = COALESCE(\(lastError)::text, j.last_error)
            FROM pipelines p
            WHERE j.id = \(id) AND p.digest = j.pipeline_digest
            RETURNING j.attempts, j.kind, j.batch, j.unit_key, j.payload, p.digest, p.file_name, p.yaml, p.library, p.settings_json,
                      p.templates_json
            """).first else { throw QueueError("job \(id) has no pipeline") }
        let (attempt, kind, batch, unitKey, payload, digest, fileName, yaml, library, settings, templatesJSON) =
            try row.decode((Int, String, String, String, String, String, String, String, String, String, String).self)
        let templates = try JSONDecoder().decode([String: String].self, from: Data(templatesJSON.utf8))
        try session.execute("INSERT INTO job_attempts (job_id, attempt, worker) VALUES (\(id), \(attempt), \(worker))")
        return ClaimedJob(id: id, token: token, attempt: attempt, kind: JobKind(rawValue: kind) ?? .photo, batch: batch,
                          unitKey: unitKey, payload: payload,
                          pipeline: PipelineRecord(digest: digest, fileName: fileName, yaml: yaml, library: library,
                                                   settingsJSON: settings, templates: templates),
                          worker: worker)
    }

    /// Extends the job's lease to `lease` seconds from now; false when the lease is no longer this
    /// worker's (the job was taken over, failed or ended), when the worker should stop working on it.
    public func renew(_ job: ClaimedJob, lease: TimeInterval) throws -> Bool {
        try session.execute("""
            UPDATE jobs SET lease_expires = now() + make_interval(secs => \(lease))
            WHERE id = \(job.id) AND lease_token = \(job.token) AND state = 'running'
            """) == 1
    }

    /// Gives the lease up at once, the job unfinished (its worker was told to stop without finishing
    /// it): the job is claimable now, as a killed worker's is once its lease has run out, and the
    /// attempt counts. False when the lease was no longer this worker's.
    @discardableResult
    public func abandon(_ job: ClaimedJob) throws -> Bool {
        try session.execute("""
            UPDATE jobs SET lease_expires = now()
            WHERE id = \(job.id) AND lease_token = \(job.token) AND state = 'running'
            """) == 1
    }

    /// Marks the job done when there was nothing to record (else the job-scoped catalog's `commit`
    /// does it); throws `LeaseLost` when the lease is no longer this worker's.
    public func complete(_ job: ClaimedJob) throws {
        try session.transaction { try JobLedger.markDone(job, in: session) }
    }

    /// Records a failed attempt. With attempts left, the job goes back to the queue, claimable after
    /// `backoff * 2^(attempt - 1)` seconds (at most `maximumRetryDelay`); else it is marked failed.
    /// Throws `LeaseLost` when the lease is no longer this worker's.
    public func fail(_ job: ClaimedJob, error: String, backoff: TimeInterval) throws -> FailureDisposition {
        let delay = min(max(backoff, 0) * pow(2, Double(max(job.attempt - 1, 0))), WorkQueue.maximumRetryDelay)
        return try session.transaction {
            guard let row = try session.query("""
                UPDATE jobs SET
                    state = CASE WHEN attempts < max_attempts THEN 'pending' ELSE 'failed' END,
                    not_before = CASE WHEN attempts < max_attempts THEN now() + make_interval(secs => \(delay)) ELSE not_before END,
                    finished_at = CASE WHEN attempts < max_attempts THEN NULL ELSE now() END,
                    last_error = \(error), lease_token = NULL, lease_expires = NULL
                WHERE id = \(job.id) AND lease_token = \(job.token) AND state = 'running'
                RETURNING state
                """).first else { throw LeaseLost(job) }
            try JobLedger.endAttempt(job, outcome: "failed", error: error, in: session)
            return try row.decode(String.self) == "failed" ? .failed : .retry(after: delay)
        }
    }
}
