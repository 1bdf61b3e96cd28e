import DarkroomCore
import Foundation
import Logging
import DarkroomModel

/// Keeps a claimed job's lease, and its worker's registration, alive while the job runs: every
/// third of the lease, on a thread of its own, it renews the lease and heartbeats the worker
/// (registering it again, and creating its temporary folder again, when another worker had found
/// it stale and removed it). It stops when asked to, or when the lease is lost; `isLost` then tells
/// the worker to stop publishing (the job-scoped catalog refuses anyway) and not record the job.
public final class LeaseRenewal: Sendable {
    /// Held while the lease is renewed, so that `stop()` returns only once no renewal is under way.
    private let state: Monitor<State>

    /// What the renewal thread and the worker share.
    private struct State {
        var stopped = false
        var lost = false
        var renewals = 0
        var worker: WorkerRegistration
    }

    /// Starts renewing `job`'s lease of `lease` seconds in `queue`, heartbeating `worker`.
    public init(queue: WorkQueue, job: ClaimedJob, lease: TimeInterval, worker: WorkerRegistration, logger: Logger) {
        let state = Monitor(State(worker: worker))
        self.state = state
        let thread = Thread {
            var running = true
            while running {
                running = state.wait(until: { $0.stopped }, deadline: Date().addingTimeInterval(lease / 3)) { state in
                    guard !state.stopped else { return false }
                    LeaseRenewal.renew(job, lease: lease, in: queue, state: &state, logger: logger)
                    return !state.lost
                }
            }
        }
        thread.start()
    }

    /// Renews the lease once and heartbeats the worker (registering it again when it was found stale).
    private static func renew(_ job: ClaimedJob, lease: TimeInterval, in queue: WorkQueue, state: inout State, logger: Logger) {
        do {
            guard try queue.renew(job, lease: lease) else {
                logger.warning("job \(job.id): the lease was lost; another worker may take it")
                state.lost = true
                return
            }
            state.renewals += 1
        } catch {
            logger.warning("job \(job.id): cannot renew the lease: \(error)")
        }
        let worker = state.worker
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
    }

    /// Whether the lease was lost (the job was taken over, failed or ended elsewhere): the worker
    /// must not publish or record anything more for the job.
    public var isLost: Bool { state.withLock { $0.lost } }

    /// How many times the lease was renewed so far.
    public var renewalCount: Int { state.withLock { $0.renewals } }

    /// What to register should the worker have to register again (it joined a library, with a
    /// temporary folder, since the renewal started).
    public func update(worker: WorkerRegistration) {
        state.withLock { $0.worker = worker }
    }

    /// Stops renewing (the job ended). Safe to call twice.
    public func stop() {
        state.withLock { $0.stopped = true }
    }
}
