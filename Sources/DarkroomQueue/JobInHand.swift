import Foundation

/// The job a worker is working on, with its lease renewal, as another thread sees it.
final class JobInHand: @unchecked Sendable {
    private let lock = NSLock()
    private var held: (job: ClaimedJob, renewal: LeaseRenewal)?

    /// Notes the job the worker starts on.
    func hold(_ job: ClaimedJob, _ renewal: LeaseRenewal) {
        lock.lock(); held = (job, renewal); lock.unlock()
    }

    /// The job (and its renewal), which is no longer in hand; nil when there was none.
    @discardableResult
    func take() -> (job: ClaimedJob, renewal: LeaseRenewal)? {
        lock.lock(); defer { lock.unlock() }
        let taken = held
        held = nil
        return taken
    }
}
