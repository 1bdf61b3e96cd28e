import DarkroomQueue
import DarkroomTestSupport
import Foundation
import XCTest

final class PostgresSessionTests: QueueTestCase {
    private struct Abort: Error {}

    func testATransactionRollsBackWhenItsBodyThrows() throws {
        XCTAssertThrowsError(try session.transaction {
            try queue.enqueue([job("a")])
            throw Abort()
        }) { XCTAssertTrue($0 is Abort) }
        XCTAssertNil(try queue.job(unitKey: "a"))

        try session.transaction {
            try queue.enqueue([job("b")])
            XCTAssertThrowsError(try session.transaction {
                try queue.enqueue([job("c")])
                throw Abort()
            }, "an inner transaction is a savepoint")
            try queue.enqueue([job("d")])
        }
        XCTAssertEqual(try queue.status().pending, 2)
        XCTAssertNil(try queue.job(unitKey: "c"))
    }

    func testEnqueueIsAllOrNothing() throws {
        let jobs = (0..<6_000).map { job("unit-\($0)") }
        var bad = job("bad")
        bad.pipelineDigest = "no such pipeline"
        XCTAssertThrowsError(try queue.enqueue(jobs + [bad])) { error in
            XCTAssertTrue("\(error)".contains("jobs_pipeline_digest_fkey"), "the server's reason is kept: \(error)")
        }
        XCTAssertEqual(try queue.status().pending, 0)
    }

    func testThreadsSharingOneSessionClaimEachJobOnce() throws {
        try queue.enqueue((0..<100).map { job("photo-\($0)") })
        let claimed = ClaimLog()
        let errors = ErrorList()
        let queue: WorkQueue = self.queue
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            do {
                while let job = try queue.claim(worker: "thread-\(index)", lease: 30) {
                    claimed.append(job.unitKey, by: index)
                    XCTAssertTrue(try queue.renew(job, lease: 30))
                    try queue.complete(job)
                }
            } catch { errors.append(error) }
        }
        XCTAssertEqual(errors.all.map { "\($0)" }, [])
        XCTAssertEqual(Set(claimed.keys).count, 100)
        XCTAssertEqual(claimed.keys.count, 100)
    }

    func testASessionReconnectsAfterTheServerDropsIt() throws {
        try queue.enqueue([job("a")])
        try sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
        Thread.sleep(forTimeInterval: 0.3)
        _ = try? queue.status()  // at most this call sees the dropped connection
        XCTAssertEqual(try queue.status().pending, 1)
    }

    func testAClosedSessionRefusesWork() throws {
        session.close()
        session.close()
        XCTAssertThrowsError(try queue.status()) { XCTAssertTrue("\($0)".contains("is closed"), "\($0)") }
    }

    func testServerErrorsAreReadable() throws {
        let missing = try PostgresLocation(database.url.replacingOccurrences(of: database.name, with: "no_such_database"))
        XCTAssertThrowsError(try PostgresSession(missing)) { error in
            XCTAssertTrue("\(error)".contains(#"database "no_such_database" does not exist"#), "\(error)")
        }
    }
}
