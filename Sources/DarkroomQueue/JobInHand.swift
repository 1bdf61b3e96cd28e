import Foundation
import Synchronization

/// The job a worker is working on, with its lease renewal, as another thread sees it.
final class JobInHand: Sendable {
    private let held = Mutex<(job: ClaimedJob, renewal: LeaseRenewal)?>(nil)

    /// Notes the job the worker starts on.
    func hold(_ job: ClaimedJob, _ renewal: LeaseRenewal) {
        held.withLock { $0 = (job, renewal) }
    }

    /// The job (and its renewal), which is no longer in hand; nil when there was none.
    @discardableResult
    func take() -> (job: ClaimedJob, renewal: LeaseRenewal)? {
        held.withLock { held in
            defer { held = nil }
            return held
        }
    }
}
