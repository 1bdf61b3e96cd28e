import Foundation
import PostgresNIO

/// What a queue holds and who works on it (`darkroom queue status`).
public struct QueueStatus: Codable, Sendable {
    /// A registered worker.
    public struct Worker: Codable, Sendable, Hashable {
        /// The worker's id.
        public var id: String
        /// The machine it runs on.
        public var host: String
        /// Its process id.
        public var pid: Int
        /// Seconds since its last heartbeat.
        public var heartbeatAge: TimeInterval
        /// Jobs it holds a lease on.
        public var runningJobs: Int
    }

    /// A job that ran out of attempts.
    public struct Failure: Codable, Sendable, Hashable {
        /// The job's unit key.
        public var unitKey: String
        /// Whether it was a photo job or a collection job.
        public var kind: JobKind
        /// The job's payload (JSON), which says what it was about.
        public var payload: String
        /// Attempts made.
        public var attempts: Int
        /// The last error.
        public var error: String
    }

    /// Jobs waiting for a worker (retries included).
    public var pending = 0
    /// Jobs a worker holds.
    public var running = 0
    /// Jobs finished.
    public var done = 0
    /// Jobs that ran out of attempts.
    public var failed = 0
    /// Pending jobs that failed before and wait for their retry.
    public var waitingToRetry = 0
    /// Running jobs whose lease expired: their worker died; the next claim takes them over.
    public var expiredLeases = 0
    /// Seconds since the oldest pending job was queued.
    public var oldestPendingAge: TimeInterval?
    /// Registered workers, by id.
    public var workers: [Worker] = []
    /// The latest failed jobs, newest first (at most `WorkQueue.failuresShown`).
    public var recentFailures: [Failure] = []

    /// Lines for a terminal.
    public var text: String {
        var lines = ["jobs: \(pending) pending (\(waitingToRetry) waiting to retry), \(running) running"
            + (expiredLeases > 0 ? " (\(expiredLeases) with an expired lease)" : "")
            + ", \(done) done, \(failed) failed"]
        if let age = oldestPendingAge { lines.append("oldest pending job queued \(QueueStatus.duration(age)) ago") }
        lines.append(workers.isEmpty ? "no workers" : "workers:")
        for worker in workers {
            lines.append("  \(worker.id) (\(worker.host), pid \(worker.pid)): heartbeat \(QueueStatus.duration(worker.heartbeatAge)) ago, \(worker.runningJobs) running")
        }
        if !recentFailures.isEmpty { lines.append("failed jobs (latest first):") }
        for failure in recentFailures {
            lines.append("  \(failure.kind.rawValue) \(failure.unitKey) after \(failure.attempts) attempt\(failure.attempts == 1 ? "" : "s"): \(failure.error)")
        }
        return lines.joined(separator: "\n")
    }

    /// `42s`, `3m 05s`, `2h 07m`.
    static func duration(_ seconds: TimeInterval) -> String {
        let total = max(0, Int(seconds.rounded()))
        if total < 60 { return "\(total)s" }
        if total < 3600 { return String(format: "%dm %02ds", total / 60, total % 60) }
        return String(format: "%dh %02dm", total / 3600, total % 3600 / 60)
    }
}

extension WorkQueue {
    /// How many failed jobs `status` lists.
    public static let failuresShown = 20

    /// Counts jobs by state (of one batch, or all), lists workers and the latest failures.
    public func status(batch: String? = nil) throws -> QueueStatus {
        try session.transaction {
            var status = QueueStatus()
            let counts = try session.query("""
                SELECT count(*) FILTER (WHERE state = 'pending'), count(*) FILTER (WHERE state = 'running'),
                       count(*) FILTER (WHERE state = 'done'), count(*) FILTER (WHERE state = 'failed'),
                       count(*) FILTER (WHERE state = 'pending' AND attempts > 0),
                       count(*) FILTER (WHERE state = 'running' AND lease_expires < now()),
                       extract(epoch FROM now() - min(enqueued_at) FILTER (WHERE state = 'pending'))::float8
                FROM jobs WHERE \(batch)::text IS NULL OR batch = \(batch)::text
                """)[0]
            (status.pending, status.running, status.done, status.failed, status.waitingToRetry, status.expiredLeases,
             status.oldestPendingAge) = try counts.decode((Int, Int, Int, Int, Int, Int, Double?).self)
            status.workers = try session.query("""
                SELECT w.id, w.host, w.pid, extract(epoch FROM now() - w.heartbeat_at)::float8,
                       (SELECT count(*) FROM jobs j WHERE j.lease_owner = w.id AND j.state = 'running')
                FROM workers w ORDER BY w.id
                """).map {
                let (id, host, pid, age, running) = try $0.decode((String, String, Int, Double, Int).self)
                return QueueStatus.Worker(id: id, host: host, pid: pid, heartbeatAge: age, runningJobs: running)
            }
            status.recentFailures = try session.query("""
                SELECT unit_key, kind, payload, attempts, COALESCE(last_error, '')
                FROM jobs WHERE state = 'failed' AND (\(batch)::text IS NULL OR batch = \(batch)::text)
                ORDER BY finished_at DESC NULLS LAST, id DESC LIMIT \(WorkQueue.failuresShown)
                """).map {
                let (key, kind, payload, attempts, error) = try $0.decode((String, String, String, Int, String).self)
                return QueueStatus.Failure(unitKey: key, kind: JobKind(rawValue: kind) ?? .photo, payload: payload,
                                           attempts: attempts, error: error)
            }
            return status
        }
    }
}
