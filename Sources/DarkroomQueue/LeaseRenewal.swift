import Foundation
import Logging

/// Keeps a claimed job's lease, and its worker's registration, alive while the job runs: every
/// third of the lease, on a thread of its own, it renews the lease and heartbeats the worker
/// (registering it again, and creating its temporary folder again, when another worker had found
/// it stale and removed it). It stops when asked to, or when the lease is lost; `isLost` then tells
/// the worker to stop publishing (the job-scoped catalog refuses anyway) and not record the job.
public final class LeaseRenewal: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopped = false
    private var lost = false
    private var renewals = 0
    private var worker: WorkerRegistration

    /// Starts renewing `job`'s lease of `lease` seconds in `queue`, heartbeating `worker`.
    public init(queue: WorkQueue, job: ClaimedJob, lease: TimeInterval, worker: WorkerRegistration, logger: Logger) {
        self.worker = worker
        let thread = Thread { [self] in
            condition.lock()
            defer { condition.unlock() }
            while !stopped {
                _ = condition.wait(until: Date().addingTimeInterval(lease / 3))
                if stopped { break }
                do {
                    guard try queue.renew(job, lease: lease) else {
                        logger.warning("job \(job.id): the lease was lost; another worker may take it")
                        lost = true
                        condition.broadcast()
                        break
                    }
                    renewals += 1
                } catch {
                    logger.warning("job \(job.id): cannot renew the lease: \(error)")
                }
                let worker = self.worker
                do {
                    if try queue.keepAlive(worker) {
                        logger.warning("worker \(worker.id) had been found stale and removed; registered again")
                        if !worker.temporaryFolder.isEmpty {
                            try? FileManager.default.createDirectory(atPath: worker.temporaryFolder, withIntermediateDirectories: true)
                        }
                    }
                } catch {
                    logger.warning("worker \(worker.id): cannot send a heartbeat: \(error)")
                }
                condition.broadcast()
            }
        }
        thread.start()
    }

    /// Whether the lease was lost (the job was taken over, failed or ended elsewhere): the worker
    /// must not publish or record anything more for the job.
    public var isLost: Bool { condition.lock(); defer { condition.unlock() }; return lost }

    /// How many times the lease was renewed so far.
    public var renewalCount: Int { condition.lock(); defer { condition.unlock() }; return renewals }

    /// What to register should the worker have to register again (it joined a library, with a
    /// temporary folder, since the renewal started).
    public func update(worker: WorkerRegistration) {
        condition.lock(); self.worker = worker; condition.unlock()
    }

    /// Stops renewing (the job ended). Safe to call twice.
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
