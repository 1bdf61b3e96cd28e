import DarkroomQueue
import Foundation
import XCTest

final class FailureTests: QueueTestCase {
    func testAFailingJobIsRetriedWithBackoffThenFails() throws {
        try queue.enqueue([job("flaky", maxAttempts: 3)])
        let first = try XCTUnwrap(try queue.claim(worker: "w", lease: 30))
        XCTAssertEqual(try queue.fail(first, error: "boom 1", backoff: 0.4), .retry(after: 0.4))
        XCTAssertNil(try queue.claim(worker: "w", lease: 30), "not claimable before its retry time")
        let waiting = try XCTUnwrap(try queue.job(unitKey: "flaky"))
        XCTAssertEqual(waiting.state, "pending")
        XCTAssertEqual(waiting.lastError, "boom 1")
        XCTAssertGreaterThan(waiting.claimableIn, 0)
        XCTAssertLessThanOrEqual(waiting.claimableIn, 0.4)
        XCTAssertEqual(try queue.status().waitingToRetry, 1)

        Thread.sleep(forTimeInterval: 0.5)
        let second = try XCTUnwrap(try queue.claim(worker: "w", lease: 30))
        XCTAssertEqual(second.attempt, 2)
        XCTAssertEqual(try queue.fail(second, error: "boom 2", backoff: 0.4), .retry(after: 0.8), "the backoff doubles")
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertNil(try queue.claim(worker: "w", lease: 30))
        Thread.sleep(forTimeInterval: 0.4)
        let third = try XCTUnwrap(try queue.claim(worker: "w", lease: 30))
        XCTAssertEqual(third.attempt, 3)
        XCTAssertEqual(try queue.fail(third, error: "boom 3", backoff: 0.4), .failed)

        XCTAssertNil(try queue.claim(worker: "w", lease: 30))
        let record = try XCTUnwrap(try queue.job(unitKey: "flaky"))
        XCTAssertEqual(record.state, "failed")
        XCTAssertEqual(record.lastError, "boom 3")
        XCTAssertEqual(try queue.attempts(ofJob: record.id).map(\.error), ["boom 1", "boom 2", "boom 3"])
        let status = try queue.status()
        XCTAssertEqual([status.pending, status.running, status.done, status.failed], [0, 0, 0, 1])
        XCTAssertEqual(status.recentFailures.map(\.error), ["boom 3"])
        XCTAssertEqual(status.recentFailures.first?.attempts, 3)
        XCTAssertEqual(status.recentFailures.first?.payload, #"{"unit":"flaky"}"#)
        XCTAssertTrue(status.text.contains("photo flaky after 3 attempts: boom 3"), status.text)
    }

    func testFailedJobsCanBeGivenMoreAttempts() throws {
        try queue.enqueue([job("a", batch: "x", maxAttempts: 1), job("b", batch: "y", maxAttempts: 1)])
        for _ in 0..<2 { _ = try queue.fail(try XCTUnwrap(try queue.claim(worker: "w", lease: 30)), error: "boom", backoff: 0) }
        XCTAssertEqual(try queue.requeueFailed(batch: "x"), 1)
        let again = try XCTUnwrap(try queue.claim(worker: "w", lease: 30))
        XCTAssertEqual(again.unitKey, "a")
        XCTAssertEqual(again.attempt, 2)
        XCTAssertEqual(try queue.fail(again, error: "boom again", backoff: 0), .failed, "one more attempt, as asked")
        XCTAssertEqual(try queue.status().failed, 2)
    }

    func testTheRetryDelayIsCapped() throws {
        try queue.enqueue([job("slow", maxAttempts: 5)])
        let first = try XCTUnwrap(try queue.claim(worker: "w", lease: 30))
        XCTAssertEqual(try queue.fail(first, error: "x", backoff: 10_000), .retry(after: WorkQueue.maximumRetryDelay))
    }

    func testOnlyTheLeaseHolderMayFailOrCompleteAJob() throws {
        try queue.enqueue([job("contested")])
        let lost = try XCTUnwrap(try queue.claim(worker: "slow", lease: 0.2))
        Thread.sleep(forTimeInterval: 0.4)
        let winner = try XCTUnwrap(try otherQueue().claim(worker: "fast", lease: 30))
        XCTAssertThrowsError(try queue.fail(lost, error: "late", backoff: 0)) { error in
            XCTAssertTrue(error is LeaseLost)
            XCTAssertTrue("\(error)".contains("no longer leased to slow"), "\(error)")
        }
        XCTAssertEqual(try queue.job(unitKey: "contested")?.leaseOwner, "fast")
        XCTAssertEqual(try queue.job(unitKey: "contested")?.state, "running")
        try queue.complete(winner)
        XCTAssertEqual(try state(of: "contested"), "done")
    }

    func testStatusCountsByBatchAndListsWorkers() throws {
        try queue.enqueue([job("a1", batch: "a"), job("a2", batch: "a"), job("b1", batch: "b")])
        try queue.registerWorker(id: "host-1:42", host: "host-1", pid: 42, temporaryFolder: "/tmp/w42")
        let running = try XCTUnwrap(try queue.claim(worker: "host-1:42", lease: 30))
        XCTAssertEqual(running.unitKey, "a1")
        let all = try queue.status()
        XCTAssertEqual([all.pending, all.running], [2, 1])
        XCTAssertNotNil(all.oldestPendingAge)
        XCTAssertEqual(all.workers.map(\.id), ["host-1:42"])
        XCTAssertEqual(all.workers.first?.runningJobs, 1)
        let b = try queue.status(batch: "b")
        XCTAssertEqual([b.pending, b.running], [1, 0])
        let decoded = try JSONDecoder().decode(QueueStatus.self, from: JSONEncoder().encode(all))
        XCTAssertEqual(decoded.workers, all.workers)
        XCTAssertTrue(all.text.hasPrefix("jobs: 2 pending (0 waiting to retry), 1 running, 0 done, 0 failed"), all.text)
    }
}
