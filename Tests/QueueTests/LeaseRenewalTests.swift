import DarkroomQueue
import Foundation
import Logging
import XCTest

final class LeaseRenewalTests: QueueTestCase {
    private let logger = Logger(label: "test.renewal")

    /// Waits (generously: the machine is loaded) until `condition` holds; false if it never did.
    private func eventually(_ seconds: TimeInterval = 20, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try condition()
    }

    func testALongJobKeepsItsWorkerAliveAndRegistersItAgainWhenRemoved() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("renewal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let worker = WorkerRegistration(id: "slow-worker", host: "h", pid: 1, temporaryFolder: folder.path)
        try queue.register(worker)
        try queue.enqueue([job("long")])
        let claimed = try XCTUnwrap(try queue.claim(worker: worker.id, lease: 0.6))
        // The worker last heartbeated an hour ago, when it claimed its long job.
        try sql("UPDATE workers SET heartbeat_at = now() - interval '1 hour'")
        let renewal = LeaseRenewal(queue: try otherQueue(), job: claimed, lease: 0.6, worker: worker, logger: logger)
        defer { renewal.stop() }

        XCTAssertTrue(try eventually { try sql("SELECT heartbeat_at > now() - interval '10 minutes' FROM workers").contains("t") },
                      "the lease renewal heartbeats the worker")
        // Another worker (wrongly, or after a long network partition) removes it and its folder.
        try queue.unregisterWorker(id: worker.id)
        try FileManager.default.removeItem(at: folder)
        XCTAssertTrue(try eventually { try queue.status().workers.map(\.id) == [worker.id] }, "the worker registered again")
        XCTAssertTrue(try eventually { FileManager.default.fileExists(atPath: folder.path) }, "its temporary folder is back")
        XCTAssertFalse(renewal.isLost)
        XCTAssertEqual(try state(of: "long"), "running")
        renewal.stop()
        XCTAssertFalse(try queue.staleWorkers(olderThan: 600).map(\.id).contains(worker.id))
    }

    func testALostLeaseIsRememberedAndRenewalStops() throws {
        let worker = WorkerRegistration(id: "w", host: "h", pid: 1, temporaryFolder: "")
        try queue.register(worker)
        try queue.enqueue([job("photo")])
        let claimed = try XCTUnwrap(try queue.claim(worker: worker.id, lease: 0.6))
        let renewal = LeaseRenewal(queue: try otherQueue(), job: claimed, lease: 0.6, worker: worker, logger: logger)
        defer { renewal.stop() }
        XCTAssertTrue(eventually { renewal.renewalCount >= 1 })
        XCTAssertFalse(renewal.isLost)

        // The job is taken from this worker (as when its lease ran out and another worker claimed it).
        try sql("UPDATE jobs SET lease_token = md5(random()::text)::uuid, lease_owner = 'other'")
        XCTAssertTrue(eventually { renewal.isLost }, "the renewal noticed the lease is gone")
        let renewals = renewal.renewalCount
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(renewal.renewalCount, renewals, "no renewal after the loss")
        XCTAssertEqual(try queue.job(unitKey: "photo")?.leaseOwner, "other")
    }
}
