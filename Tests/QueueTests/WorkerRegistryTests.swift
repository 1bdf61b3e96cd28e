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
}
