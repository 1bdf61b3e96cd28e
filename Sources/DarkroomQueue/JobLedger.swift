import Foundation
import PostgresNIO

/// Changes to a job's row that only the holder of its lease may make: each one matches the lease
/// token, so a worker whose lease another worker took over changes nothing.
enum JobLedger {
    /// Marks the job done and its attempt `done`, inside the caller's transaction; throws `LeaseLost`
    /// when the lease is not the job's any more. Marking a job done twice is harmless.
    static func markDone(_ job: ClaimedJob, in session: PostgresSession) throws {
        let changed = try session.execute("""
            UPDATE jobs SET state = 'done', finished_at = COALESCE(finished_at, now()), lease_expires = NULL, last_error = NULL
            WHERE id = \(job.id) AND lease_token = \(job.token)
            """)
        guard changed == 1 else { throw LeaseLost(job) }
        try endAttempt(job, outcome: "done", error: nil, in: session)
    }

    /// Checks, inside the caller's transaction, that the job is still running under this worker's
    /// lease and that the lease has not expired; throws `LeaseLost` otherwise. The job's row stays
    /// locked until the transaction ends, so no other worker can claim it meanwhile.
    static func requireLease(_ job: ClaimedJob, in session: PostgresSession) throws {
        let held = try session.execute("""
            SELECT 1 FROM jobs
            WHERE id = \(job.id) AND lease_token = \(job.token) AND state = 'running' AND lease_expires > now()
            FOR UPDATE
            """)
        guard held == 1 else { throw LeaseLost(job) }
    }

    /// Records how an attempt ended.
    static func endAttempt(_ job: ClaimedJob, outcome: String, error: String?, in session: PostgresSession) throws {
        try session.execute("""
            UPDATE job_attempts SET outcome = \(outcome), error = \(error), ended_at = COALESCE(ended_at, now())
            WHERE job_id = \(job.id) AND attempt = \(job.attempt)
            """)
    }
}
