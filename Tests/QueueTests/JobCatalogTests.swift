import DarkroomCore
import DarkroomQueue
import Foundation
import XCTest
import DarkroomLibrary
import DarkroomModel

final class JobCatalogTests: QueueTestCase {
    private let library = URL(fileURLWithPath: "/srv/library")
    private let subject = ContentHash.of("a photo")

    private func completion(_ path: String) throws -> UnitCompletion {
        UnitCompletion(subject: subject, units: [.init(step: "heic", key: "k1")],
                       outputs: [CatalogFixtures.output(path, step: "heic")],
                       asset: CatalogFixtures.asset(subject, date: CatalogFixtures.date(day: 1), width: 100, camera: nil))
    }

    func testCommitRecordsTheWorkAndEndsTheJobTogether() throws {
        let catalog = try PostgresCatalog(session: session, library: library)
        try queue.enqueue([job("photo")])
        let claimed = try XCTUnwrap(try queue.claim(worker: "w", lease: 30))
        let store = catalog.forJob(claimed)
        let run = try store.beginRun(pipeline: "import.yaml")
        try store.markPending(["Photos/a.heic"], run: run)
        XCTAssertEqual(try store.commit(try completion("Photos/a.heic"), run: run), [])

        XCTAssertEqual(try state(of: "photo"), "done")
        XCTAssertEqual(try queue.attempts(ofJob: claimed.id).map(\.outcome), ["done"])
        XCTAssertEqual(try catalog.output(at: "Photos/a.heic")?.subject, subject)
        XCTAssertEqual(try catalog.state(of: subject).unitKeys, ["heic": "k1"])
        XCTAssertEqual(try store.recoverPending(), [], "the commit cleared the job's pending note")
        XCTAssertFalse(try queue.renew(claimed, lease: 30), "a done job has no lease to renew")
        XCTAssertNoThrow(try queue.complete(claimed), "ending a job twice is harmless")
    }

    func testCommitUnderALostLeaseWritesNothing() throws {
        let catalog = try PostgresCatalog(session: session, library: library)
        try queue.enqueue([job("photo")])
        let slow = try XCTUnwrap(try queue.claim(worker: "slow", lease: 0.2))
        Thread.sleep(forTimeInterval: 0.4)
        let otherSession = try openSession()
        let other = try WorkQueue(session: otherSession)
        let fast = try XCTUnwrap(try other.claim(worker: "fast", lease: 30))
        let run = try catalog.beginRun(pipeline: "import.yaml")

        XCTAssertThrowsError(try catalog.forJob(slow).commit(try completion("Photos/slow.heic"), run: run)) { error in
            XCTAssertTrue(error is LeaseLost, "\(error)")
        }
        XCTAssertNil(try catalog.output(at: "Photos/slow.heic"))
        XCTAssertEqual(try catalog.state(of: subject).unitKeys, [:])
        XCTAssertNil(try catalog.rememberedFacts(contentHash: subject))
        XCTAssertEqual(try queue.job(unitKey: "photo")?.state, "running")
        XCTAssertEqual(try queue.job(unitKey: "photo")?.leaseOwner, "fast")

        let otherCatalog = try PostgresCatalog(session: otherSession, library: library)
        XCTAssertEqual(try otherCatalog.forJob(fast).commit(try completion("Photos/fast.heic"), run: run), [])
        XCTAssertEqual(try catalog.allOutputs().map(\.path), ["Photos/fast.heic"])
        XCTAssertEqual(try queue.attempts(ofJob: fast.id).map(\.outcome), ["lease expired", "done"])
    }

    func testTheNextAttemptFindsWhatAKilledWorkerLeft() throws {
        let catalog = try PostgresCatalog(session: session, library: library)
        try queue.enqueue([job("photo"), job("neighbour")])
        let killed = try XCTUnwrap(try queue.claim(worker: "killed", lease: 0.2))
        let neighbour = try XCTUnwrap(try queue.claim(worker: "alive", lease: 30))
        let run = try catalog.beginRun(pipeline: "import.yaml")
        try catalog.forJob(killed).markPending(["Photos/a.heic", "Thumbnails/a.jpg"], run: run)
        try catalog.forJob(neighbour).markPending(["Photos/b.heic"], run: run)
        Thread.sleep(forTimeInterval: 0.4)

        let retaken = try XCTUnwrap(try otherQueue().claim(worker: "next", lease: 30))
        XCTAssertEqual(retaken.id, killed.id)
        let store = catalog.forJob(retaken)
        XCTAssertEqual(try store.recoverPending(), ["Photos/a.heic", "Thumbnails/a.jpg"])
        XCTAssertEqual(try store.recoverPending(), [])
        XCTAssertEqual(try catalog.forJob(neighbour).recoverPending(), ["Photos/b.heic"], "another job's notes are its own")
    }

    func testAWorkerThatLostItsLeaseCannotMarkPathsToPublish() throws {
        let catalog = try PostgresCatalog(session: session, library: library)
        try queue.enqueue([job("photo")])
        let slow = try XCTUnwrap(try queue.claim(worker: "slow", lease: 0.2))
        let run = try catalog.beginRun(pipeline: "import.yaml")
        XCTAssertNoThrow(try catalog.forJob(slow).markPending(["Photos/early.heic"], run: run), "under its lease it may publish")
        Thread.sleep(forTimeInterval: 0.4)

        // Expired, not yet taken over: refused, before anything is linked.
        XCTAssertThrowsError(try catalog.forJob(slow).markPending(["Photos/slow.heic"], run: run)) { error in
            XCTAssertTrue(error is LeaseLost, "\(error)")
            XCTAssertTrue("\(error)".contains("is no longer leased to slow"), "\(error)")
        }
        XCTAssertThrowsError(try catalog.forJob(slow).markPending([], run: run), "replacing files needs the lease too")
        // Taken over: refused too, and the new owner's notes are untouched.
        let fast = try XCTUnwrap(try otherQueue().claim(worker: "fast", lease: 30))
        XCTAssertThrowsError(try catalog.forJob(slow).markPending(["Photos/slow.heic"], run: run)) { error in
            XCTAssertTrue(error is LeaseLost, "\(error)")
        }
        XCTAssertEqual(try catalog.forJob(fast).recoverPending(), ["Photos/early.heic"], "only what it noted under its lease")
        XCTAssertNoThrow(try catalog.forJob(fast).markPending(["Photos/fast.heic"], run: run))
    }
}
