import DarkroomQueue
import Foundation
import XCTest

final class ClaimTests: QueueTestCase {
    func testConcurrentWorkersNeverClaimTheSameJob() throws {
        try queue.enqueue((0..<200).map { job("photo-\($0)") })
        let workers = try (0..<4).map { _ in try otherQueue() }
        let claimed = ClaimLog()
        let errors = ErrorList()
        DispatchQueue.concurrentPerform(iterations: workers.count) { index in
            do {
                while let job = try workers[index].claim(worker: "worker-\(index)", lease: 30) {
                    claimed.append(job.unitKey, by: index)
                    try workers[index].complete(job)
                }
            } catch { errors.append(error) }
        }
        XCTAssertEqual(errors.all.map { "\($0)" }, [])
        XCTAssertEqual(claimed.keys.count, 200)
        XCTAssertEqual(Set(claimed.keys).count, 200, "a job was claimed twice")
        XCTAssertEqual(try queue.status().done, 200)
        XCTAssertGreaterThan(claimed.workers.count, 1, "the work was spread over the workers")
    }

    func testAnExpiredLeaseIsTakenOverAsTheNextAttempt() throws {
        try queue.enqueue([job("photo")])
        let killed = try XCTUnwrap(try queue.claim(worker: "killed", lease: 0.3))
        let other = try otherQueue()
        XCTAssertNil(try other.claim(worker: "survivor", lease: 30), "the lease still holds")
        Thread.sleep(forTimeInterval: 0.5)

        let retaken = try XCTUnwrap(try other.claim(worker: "survivor", lease: 30))
        XCTAssertEqual(retaken.id, killed.id)
        XCTAssertEqual(retaken.attempt, 2)
        XCTAssertNotEqual(retaken.token, killed.token)
        let history = try queue.attempts(ofJob: killed.id)
        XCTAssertEqual(history.map(\.attempt), [1, 2])
        XCTAssertEqual(history.map(\.worker), ["killed", "survivor"])
        XCTAssertEqual(history[0].outcome, "lease expired")
        XCTAssertEqual(history[0].error, "worker killed stopped renewing its lease (killed or lost)")
        XCTAssertNil(history[1].outcome)

        XCTAssertFalse(try queue.renew(killed, lease: 30), "the killed worker's lease is gone")
        XCTAssertThrowsError(try queue.complete(killed)) { XCTAssertTrue($0 is LeaseLost, "\($0)") }
        try other.complete(retaken)
        XCTAssertEqual(try queue.attempts(ofJob: killed.id).map(\.outcome), ["lease expired", "done"])
        XCTAssertEqual(try state(of: "photo"), "done")
    }

    func testAJobThatKillsEveryWorkerEndsFailed() throws {
        try queue.enqueue([job("poison", maxAttempts: 2), job("fine")])
        _ = try XCTUnwrap(try queue.claim(worker: "w1", lease: 0.2))
        _ = try XCTUnwrap(try queue.claim(worker: "w1", lease: 30))
        Thread.sleep(forTimeInterval: 0.4)
        let second = try XCTUnwrap(try queue.claim(worker: "w2", lease: 0.2))
        XCTAssertEqual(second.unitKey, "poison")
        XCTAssertEqual(second.attempt, 2)
        Thread.sleep(forTimeInterval: 0.4)

        XCTAssertNil(try queue.claim(worker: "w3", lease: 30), "out of attempts: failed, not claimed")
        let record = try XCTUnwrap(try queue.job(unitKey: "poison"))
        XCTAssertEqual(record.state, "failed")
        XCTAssertEqual(record.attempts, 2)
        XCTAssertEqual(record.lastError, "worker w2 stopped renewing its lease (killed or lost)")
        XCTAssertEqual(try queue.attempts(ofJob: record.id).map(\.outcome), ["lease expired", "lease expired"])
        let status = try queue.status()
        XCTAssertEqual(status.failed, 1)
        XCTAssertEqual(status.recentFailures.first?.unitKey, "poison")
    }

    func testRenewingKeepsTheJob() throws {
        try queue.enqueue([job("long")])
        let held = try XCTUnwrap(try queue.claim(worker: "busy", lease: 1))
        let other = try otherQueue()
        let until = Date().addingTimeInterval(1.6)
        while Date() < until {
            XCTAssertTrue(try queue.renew(held, lease: 1))
            XCTAssertNil(try other.claim(worker: "idle", lease: 30), "a renewed lease must not be taken over")
            Thread.sleep(forTimeInterval: 0.2)
        }
        Thread.sleep(forTimeInterval: 1.2)
        XCTAssertEqual(try other.claim(worker: "idle", lease: 30)?.attempt, 2, "once renewals stop, the job is taken over")
    }

    func testCollectionJobsWaitForTheirBatchsPhotos() throws {
        try queue.enqueue([
            job("timelapse", kind: .collection, batch: "b1"),
            job("p1", batch: "b1"), job("p2", batch: "b1", maxAttempts: 1),
            job("collage", kind: .collection, batch: "b2"),
        ])
        let p1 = try XCTUnwrap(try queue.claim(worker: "w", lease: 30))
        let p2 = try XCTUnwrap(try queue.claim(worker: "w", lease: 30))
        XCTAssertEqual([p1.unitKey, p2.unitKey], ["p1", "p2"], "the older collection job waits for the photos")
        XCTAssertEqual(try queue.claim(worker: "w", lease: 30)?.unitKey, "collage", "another batch's collection does not wait")
        XCTAssertNil(try queue.claim(worker: "w", lease: 30), "photos of b1 are still running")
        try queue.complete(p1)
        XCTAssertNil(try queue.claim(worker: "w", lease: 30), "p2 is still running")
        XCTAssertEqual(try queue.fail(p2, error: "unreadable", backoff: 0), .failed)
        let collection = try XCTUnwrap(try queue.claim(worker: "w", lease: 30), "every photo of b1 has ended")
        XCTAssertEqual(collection.unitKey, "timelapse")
        XCTAssertEqual(collection.kind, .collection)
    }
}

/// Which worker claimed which unit, from several threads.
final class ClaimLog: Sendable {
    private let entries = Recorded<(key: String, worker: Int)>()
    func append(_ key: String, by worker: Int) { entries.append((key, worker)) }
    var keys: [String] { entries.values.map(\.key) }
    var workers: Set<Int> { Set(entries.values.map(\.worker)) }
}
