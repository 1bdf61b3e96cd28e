import DarkroomQueue
import Foundation
import XCTest

final class WorkerRegistryTests: QueueTestCase {
    func testSilentWorkersAreFoundStale() throws {
        try queue.registerWorker(id: "a:1", host: "a", pid: 1, temporaryFolder: "/tmp/a1")
        try queue.registerWorker(id: "b:2", host: "b", pid: 2, temporaryFolder: "/tmp/b2")
        XCTAssertTrue(try queue.staleWorkers(olderThan: 30).isEmpty)
        Thread.sleep(forTimeInterval: 0.4)
        XCTAssertTrue(try queue.heartbeat(worker: "b:2"))
        let stale = try queue.staleWorkers(olderThan: 0.3)
        XCTAssertEqual(stale.map(\.id), ["a:1"])
        XCTAssertEqual(stale.map(\.temporaryFolder), ["/tmp/a1"])

        try queue.unregisterWorker(id: "a:1")
        XCTAssertFalse(try queue.heartbeat(worker: "a:1"), "an unregistered worker learns it from its heartbeat")
        XCTAssertEqual(try queue.status().workers.map(\.id), ["b:2"])
        try queue.registerWorker(id: "b:2", host: "b", pid: 3, temporaryFolder: "/tmp/b3")
        XCTAssertEqual(try queue.status().workers.map(\.pid), [3], "registering again starts afresh")
    }

    func testAWorkerHoldingALiveLeaseIsNeverStaleHoweverOldItsHeartbeat() throws {
        try queue.registerWorker(id: "busy", host: "a", pid: 1, temporaryFolder: "/tmp/busy")
        try queue.registerWorker(id: "idle", host: "b", pid: 2, temporaryFolder: "/tmp/idle")
        try queue.registerWorker(id: "expired", host: "c", pid: 3, temporaryFolder: "/tmp/expired")
        try queue.enqueue([job("long"), job("abandoned")])
        XCTAssertNotNil(try queue.claim(worker: "busy", lease: 3600))
        XCTAssertNotNil(try queue.claim(worker: "expired", lease: 0.1))
        // All three went silent an hour ago: only the one busy with a job it still renews is kept.
        try sql("UPDATE workers SET heartbeat_at = now() - interval '1 hour'")
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(try queue.staleWorkers(olderThan: 600).map(\.id), ["expired", "idle"])
    }

    func testKeepAliveRegistersAgainAWorkerFoundStale() throws {
        let worker = WorkerRegistration(id: "w", host: "h", pid: 7, temporaryFolder: "/tmp/w")
        try queue.register(worker)
        XCTAssertFalse(try queue.keepAlive(worker), "a registered worker only heartbeats")
        try queue.unregisterWorker(id: "w")
        XCTAssertTrue(try queue.keepAlive(worker), "a removed worker registers again")
        XCTAssertEqual(try queue.status().workers.map(\.id), ["w"])
    }
}
