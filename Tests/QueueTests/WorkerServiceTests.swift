import DarkroomCore
import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import XCTest
import DarkroomModel
import DarkroomOptions

/// Copies the file into the library as `CopyStage` does, once the test opens `GatedCopyStage.gate`:
/// a job stays in hand for as long as a test wants.
struct GatedCopyStage: Stage {
    static let name = "gated-copy"
    static let summary = "Waits at the test's gate, then copies the file into the library."
    /// The gate of the test running now (each test sets up a new one).
    static let currentGate = Mutex(Gate())
    static var gate: Gate { currentGate.withLock { $0 } }
    init(options: NoOptions) {}

    func process(_ item: Item, context: StageContext) throws {
        GatedCopyStage.gate.wait()
        try CopyStage(options: NoOptions()).process(item, context: context)
    }
}

/// `darkroom worker`'s service group in-process: the worker and its session's pool, a graceful
/// shutdown that lets the job in hand finish, and an interruption that gives it up.
final class WorkerServiceTests: QueueTestCase {
    private var library: URL!
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        try super.setUpWithError()
        GatedCopyStage.currentGate.withLock { $0 = Gate() }
        folder = try TemporaryFolder("worker-service")
        library = folder.path("library")
        let digest = try queue.registerPipeline(fileName: "gated.yaml", yaml: "steps: [gated-copy]\n", library: library.path, settingsJSON: "{}")
        let jobs = try ["a", "b"].map { name -> NewJob in
            let photo = folder.path("\(name).txt")
            try Data("photo \(name)".utf8).write(to: photo)
            return NewJob(unitKey: "photo-\(name)", kind: .photo, batch: "b", pipelineDigest: digest,
                          payload: try QueuedUnits.photo(photo), maxAttempts: 3)
        }
        try queue.enqueue(jobs)
    }

    override func tearDown() {
        GatedCopyStage.gate.open()  // an abandoned job's thread runs to its end
        super.tearDown()
    }

    /// The group of a worker (gated copies into the library) and its pool, started on a task.
    private func startGroup(interruption: QueueWorkerService.Interruption)
        throws -> (group: ServiceGroup, worker: QueueWorkerService, session: PostgresSession, ended: Ended) {
        let session = try PostgresSession(PostgresLocation(database.url), connections: 2, runner: .serviceGroup)
        let library = self.library!
        let worker = QueueWorkerService(session: session, options: QueueWorkerOptions(lease: 30, backoff: 0, poll: 0.05),
                                        logger: Logger(label: "test.worker"), interruption: interruption) { _ in
            let pipeline = try PipelineLoader(registry: StageRegistry([StageDescriptor(GatedCopyStage.self)]))
                .load(yaml: "steps: [gated-copy]\n", file: "gated.yaml")
            return Runner(pipeline: pipeline, settings: RunSettings(library: library, jobs: 1))
        }
        let group = WorkerGroup.make(session: session, worker: worker, signals: [], logger: Logger(label: "test.group"))
        let ended = Ended(expectation(description: "the group ended"))
        Task {
            do { try await group.run() } catch { ended.error = error }
            ended.expectation.fulfill()
        }
        return (group, worker, session, ended)
    }

    func testAGracefulShutdownFinishesTheJobInHandThenClosesThePool() throws {
        let (group, worker, session, ended) = try startGroup(interruption: .init { _ in
            while !Task.isCancelled { try? await Task.sleep(nanoseconds: 10_000_000) }
        })
        XCTAssertTrue(GatedCopyStage.gate.waitUntilEntered(timeout: 60), "the worker holds job a")
        Task { await group.triggerGracefulShutdown() }
        XCTAssertTrue(eventually { worker.isStopping }, "the shutdown reached the worker")
        XCTAssertEqual(try state(of: "photo-a"), "running", "the worker did not drop its job")
        GatedCopyStage.gate.open()

        wait(for: [ended.expectation], timeout: 120)
        XCTAssertNil(ended.error)
        XCTAssertEqual(worker.handled, 1)
        XCTAssertEqual(try state(of: "photo-a"), "done")
        XCTAssertEqual(try Data(contentsOf: library.appendingPathComponent("copies/a.txt")), Data("photo a".utf8))
        XCTAssertEqual(try queue.job(unitKey: "photo-b")?.attempts, 0, "no job was claimed after the shutdown began")
        XCTAssertEqual(try queue.status().workers.count, 0, "the worker unregistered")
        XCTAssertThrowsError(try session.query("SELECT 1"), "the pool stopped with the group") {
            XCTAssertTrue("\($0)".contains("is closed"), "\($0)")
        }
    }

    func testAnInterruptionDuringTheShutdownGivesTheJobUpAtOnce() throws {
        let (interruptions, interruption) = AsyncStream<Void>.makeStream()
        let (group, worker, _, ended) = try startGroup(interruption: .init { _ in
            for await _ in interruptions { return }
        })
        XCTAssertTrue(GatedCopyStage.gate.waitUntilEntered(timeout: 60), "the worker holds job a")
        Task { await group.triggerGracefulShutdown() }
        XCTAssertTrue(eventually { worker.isStopping })
        interruption.yield()

        // The group ends while the job's stage is still at the gate.
        wait(for: [ended.expectation], timeout: 120)
        let error = try XCTUnwrap(ended.error as? QueueWorkerInterrupted, "\(String(describing: ended.error))")
        let job = try XCTUnwrap(error.job)
        XCTAssertEqual(job.unitKey, "photo-a")
        XCTAssertTrue("\(error)".contains("job \(job.id) (photo-a) was given up unfinished"), "\(error)")
        XCTAssertNil(worker.handled)
        // Its lease is expired: the next claim takes it over, counting the attempt.
        XCTAssertEqual(try sql("SELECT state || ' ' || (lease_expires <= now()) FROM jobs WHERE unit_key = 'photo-a'"), "running true")
        let next = try XCTUnwrap(try otherQueue().claim(worker: "next", lease: 30))
        XCTAssertEqual(next.unitKey, "photo-a")
        XCTAssertEqual(next.attempt, 2)
        XCTAssertEqual(try queue.attempts(ofJob: next.id).map(\.outcome), ["lease expired", nil])
        GatedCopyStage.gate.open()
    }
}

/// How a service group's run ended (set on its task, read after the expectation).
final class Ended: Sendable {
    let expectation: XCTestExpectation
    private let failure = Mutex<(any Error)?>(nil)
    init(_ expectation: XCTestExpectation) { self.expectation = expectation }
    /// What ended the group, if it failed.
    var error: (any Error)? {
        get { failure.withLock { $0 } }
        set { failure.withLock { $0 = newValue } }
    }
}

/// Queued units as `darkroom enqueue` writes them.
enum QueuedUnits {
    /// A photo job's payload for `file` (its own relative path, its hash).
    static func photo(_ file: URL) throws -> String {
        #"{"kind":"photo","key":"k","photo":{"source":"\#(file.path)","relativePath":"\#(file.lastPathComponent)","contentHash":"\#(try ContentHash.ofFile(file))","rendition":false}}"#
    }
}
