import DarkroomCore
import DarkroomImaging
import DarkroomQueue
import DarkroomStages
import DarkroomTestSupport
import Foundation
import XCTest

/// A worker whose lease ran out mid-job (a long pause, a partition) while another worker took the
/// job over: it must not publish over the new owner's files.
final class LostLeaseTests: PostgresTestCase {
    func testAWorkerThatLostItsLeasePublishesNothing() throws {
        let fixture = try FleetFixture("lost-lease", extra: 0)
        let library = fixture.folder.path("library")
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(path: fixture.pipeline("regenerate-thumbnails"))
        let settings = RunSettings(library: library, jobs: 1)
        try ImagingSetup.configure(for: settings)
        let runner = Runner(pipeline: pipeline, settings: settings)

        let slowSession = try PostgresSession(PostgresLocation(database.url)), fastSession = try PostgresSession(PostgresLocation(database.url))
        defer { slowSession.close(); fastSession.close() }
        let slowCatalog = try PostgresCatalog(session: slowSession, library: library)
        let fastCatalog = try PostgresCatalog(session: fastSession, library: library)
        let slowQueue = try WorkQueue(session: slowSession), fastQueue = try WorkQueue(session: fastSession)
        let plan = try runner.queuePlan(inputs: [fixture.roll], catalog: slowCatalog)
        let digest = try slowQueue.registerPipeline(fileName: "regenerate-thumbnails.yaml", yaml: "", library: library.path, settingsJSON: "{}")
        let units = Dictionary(plan.units.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        try slowQueue.enqueue(plan.units.map {
            NewJob(unitKey: $0.key, kind: .photo, batch: "b", pipelineDigest: digest, payload: "{}", maxAttempts: 3)
        })

        // The slow worker's lease runs out before it publishes; the fast worker takes the job over.
        let slow = try XCTUnwrap(try slowQueue.claim(worker: "slow", lease: 0.2))
        Thread.sleep(forTimeInterval: 0.6)
        let fast = try XCTUnwrap(try fastQueue.claim(worker: "fast", lease: 600))
        XCTAssertEqual(fast.id, slow.id)
        let unit = try XCTUnwrap(units[slow.unitKey])
        let temporaryFolder = try Runner.processTemporaryFolder(library: library)

        let late = runner.runQueued(unit, store: slowCatalog.forJob(slow), run: try slowCatalog.beginRun(pipeline: "slow"),
                                    temporaryFolder: temporaryFolder)
        guard case .failed(_, let reason) = late else { return XCTFail("the slow worker went on: \(late)") }
        XCTAssertTrue(reason.contains("is no longer leased to slow"), reason)
        XCTAssertEqual(try FleetFixture.files(of: library), [:], "nothing was linked into the library")

        let done = runner.runQueued(unit, store: fastCatalog.forJob(fast), run: try fastCatalog.beginRun(pipeline: "fast"),
                                    temporaryFolder: temporaryFolder)
        guard case .done(let published) = done else { return XCTFail("the new owner failed: \(done)") }
        XCTAssertEqual(published.count, 2)
        XCTAssertEqual(try FleetFixture.files(of: library).keys.sorted(), published.sorted())
        XCTAssertEqual(try fastQueue.job(unitKey: fast.unitKey)?.state, "done")
    }
}
