import DarkroomCore
import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Logging
import Synchronization
import XCTest
import DarkroomModel
import DarkroomOptions

/// Publishes a copy of each file at `copies/<name>` (a stage for tests that need no image).
struct CopyStage: Stage {
    static let name = "copy"
    static let summary = "Copies the file into the library."
    init(options: NoOptions) {}

    func process(_ item: Item, context: StageContext) throws {
        let data = try Data(contentsOf: item.source)
        try context.publish("copies/\(item.source.lastPathComponent)") { url in try data.write(to: url) }
    }
}

/// `QueueWorker`, the loop behind `darkroom worker`, in-process (with a test stage, no images).
final class QueueWorkerLoopTests: QueueTestCase {
    private let fast = QueueWorkerOptions(lease: 30, backoff: 0, poll: 0.05, exitWhenDone: true)

    private func worker(_ options: QueueWorkerOptions, stop: StopRequest = StopRequest(),
                        prepare: @escaping @Sendable (PipelineRecord) throws -> Runner) throws -> QueueWorker {
        try QueueWorker(session: try openSession(), options: options, logger: Logger(label: "test.worker"), stop: stop, prepare: prepare)
    }

    /// A runner for a pipeline that copies files into `library`.
    private static func copyRunner(library: URL) throws -> Runner {
        let pipeline = try PipelineLoader(registry: StageRegistry([StageDescriptor(CopyStage.self)])).load(yaml: "steps: [copy]\n", file: "copy.yaml")
        return Runner(pipeline: pipeline, settings: RunSettings(library: library, jobs: 1))
    }

    func testAPipelineThatCannotBePreparedFailsItsJobsWithTheReason() throws {
        try queue.enqueue([job("a", maxAttempts: 2), job("b", maxAttempts: 1)])
        let prepared = Recorded<String>()
        let handled = try worker(fast) { record in
            prepared.append(record.fileName)
            throw QueueError("this worker has no stages")
        }.run()

        XCTAssertEqual(handled, 3, "a twice (its retry after no backoff), b once")
        XCTAssertEqual(prepared.values, ["import.yaml", "import.yaml", "import.yaml"], "a pipeline that failed is prepared again")
        for key in ["a", "b"] {
            let record = try XCTUnwrap(try queue.job(unitKey: key))
            XCTAssertEqual(record.state, "failed")
            XCTAssertEqual(record.lastError, "job \(record.id): this worker has no stages")
        }
        XCTAssertEqual(try queue.status().workers.count, 0, "the worker unregistered as it stopped")
    }

    func testAWorkerJoinsTheLibraryRemovesStaleWorkersFoldersAndFinishesItsJobs() throws {
        let folder = try TemporaryFolder("queue-worker-loop")
        let library = folder.path("library")
        let photo = folder.path("a.txt")
        try Data("a photo".utf8).write(to: photo)
        let unit = try QueuedUnits.photo(photo)
        // A worker silent for an hour, with no job, and one as silent but busy with a long job.
        let tmp = library.appendingPathComponent(".darkroom/tmp")
        let (gone, busy) = (tmp.appendingPathComponent("gone-1"), tmp.appendingPathComponent("busy-2"))
        for path in [gone, busy] { try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true) }
        try queue.registerWorker(id: "gone", host: "gone", pid: 1, temporaryFolder: gone.path)
        try queue.registerWorker(id: "busy", host: "busy", pid: 2, temporaryFolder: busy.path)
        try queue.enqueue([job("long")])
        XCTAssertEqual(try queue.claim(worker: "busy", lease: 3600)?.unitKey, "long")
        try sql("UPDATE workers SET heartbeat_at = now() - interval '1 hour'")
        let digest = try queue.registerPipeline(fileName: "copy.yaml", yaml: "steps: [copy]\n", library: library.path, settingsJSON: "{}")
        try queue.enqueue([NewJob(unitKey: "photo-a", kind: .photo, batch: "b", pipelineDigest: digest, payload: unit, maxAttempts: 1)])

        let options = QueueWorkerOptions(lease: 30, backoff: 0, poll: 0.05, exitWhenDone: false)
        let stop = StopRequest()
        let worker = try worker(options, stop: stop) { _ in try QueueWorkerLoopTests.copyRunner(library: library) }
        let finished = expectation(description: "the worker stopped")
        let handled = Counter()
        Thread {
            do { handled.value = try worker.run() } catch { XCTFail("\(error)") }
            finished.fulfill()
        }.start()

        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, try state(of: "photo-a") != "done" { Thread.sleep(forTimeInterval: 0.05) }
        let lastError = try queue.job(unitKey: "photo-a")?.lastError
        XCTAssertEqual(try state(of: "photo-a"), "done", lastError ?? "")
        XCTAssertEqual(try Data(contentsOf: library.appendingPathComponent("copies/a.txt")), Data("a photo".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: gone.path), "the stale worker's temp folder is removed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: busy.path), "the busy worker's is kept")
        XCTAssertEqual(Set(try queue.status().workers.map(\.id)), ["busy", worker.id])
        let own = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: tmp.path).first { !$0.hasPrefix("busy") })

        stop.request()
        wait(for: [finished], timeout: 60)
        XCTAssertEqual(handled.value, 1)
        XCTAssertEqual(try queue.status().workers.map(\.id), ["busy"], "it unregistered")
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent(own).path), "its temp folder is removed")
    }
}

/// A value set on one thread and read on another.
private final class Counter: Sendable {
    private let stored = Mutex(0)
    var value: Int {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
