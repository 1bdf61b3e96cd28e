import DarkroomQueue
import XCTest

final class EnqueueTests: QueueTestCase {
    func testEnqueueIsIdempotent() throws {
        let jobs = (1...50).map { job("unit-\($0)") }
        let first = try queue.enqueue(jobs)
        XCTAssertEqual(first.added, 50)
        XCTAssertEqual(first.alreadyQueued, 0)
        let again = try queue.enqueue(jobs + [job("unit-51")])
        XCTAssertEqual(again.added, 1)
        XCTAssertEqual(again.alreadyQueued, 50)
        XCTAssertEqual(try queue.status().pending, 51)
    }

    func testAUnitRepeatedInOneEnqueueIsQueuedOnce() throws {
        let result = try queue.enqueue([job("same"), job("other"), job("same")])
        XCTAssertEqual(result.added, 2)
        XCTAssertEqual(result.alreadyQueued, 1)
    }

    func testADoneUnitIsNotQueuedAgain() throws {
        try queue.enqueue([job("once")])
        let claimed = try XCTUnwrap(try queue.claim(worker: "w1", lease: 30))
        try queue.complete(claimed)
        XCTAssertEqual(try queue.enqueue([job("once")]).added, 0)
        XCTAssertEqual(try state(of: "once"), "done")
    }

    func testThousandsOfJobsGoInOneCallInOrder() throws {
        let jobs = (0..<12_000).map { job(String(format: "bulk-%05d", $0)) }
        XCTAssertEqual(try queue.enqueue(jobs).added, 12_000)
        XCTAssertEqual(try queue.status().pending, 12_000)
        XCTAssertEqual(try queue.claim(worker: "w1", lease: 30)?.unitKey, "bulk-00000", "jobs are claimed in the order given")
        XCTAssertEqual(try queue.claim(worker: "w1", lease: 30)?.unitKey, "bulk-00001")
    }

    func testPipelinesAreStoredOnceAndTravelWithTheJob() throws {
        let again = try queue.registerPipeline(fileName: "import.yaml", yaml: "steps: []\n", library: "/srv/library",
                                               settingsJSON: #"{"jobs":2}"#)
        XCTAssertEqual(again, pipeline)
        XCTAssertEqual(pipeline.count, 64)
        let other = try queue.registerPipeline(fileName: "import.yaml", yaml: "steps: []\n", library: "/srv/other",
                                               settingsJSON: #"{"jobs":2}"#)
        XCTAssertNotEqual(other, pipeline)
        XCTAssertEqual(try sql("SELECT count(*) FROM pipelines"), "2")

        try queue.enqueue([job("p1")])
        let claimed = try XCTUnwrap(try queue.claim(worker: "w1", lease: 30))
        XCTAssertEqual(claimed.pipeline, PipelineRecord(digest: pipeline, fileName: "import.yaml", yaml: "steps: []\n",
                                                        library: "/srv/library", settingsJSON: #"{"jobs":2}"#))
        XCTAssertEqual(claimed.payload, #"{"unit":"p1"}"#)
        XCTAssertEqual(claimed.kind, .photo)
        XCTAssertEqual(claimed.batch, "batch-1")
        XCTAssertEqual(claimed.attempt, 1)
    }

    func testTemplateTextsAreStoredWithThePipeline() throws {
        let templates = ["tiles.yaml": "name: tiles\ngrid: { rows: auto, columns: auto }\n"]
        let withTemplates = try queue.registerPipeline(fileName: "import.yaml", yaml: "steps: []\n", library: "/srv/library",
                                                       settingsJSON: #"{"jobs":2}"#, templates: templates)
        XCTAssertNotEqual(withTemplates, pipeline, "the templates are part of what a worker runs")
        let edited = try queue.registerPipeline(fileName: "import.yaml", yaml: "steps: []\n", library: "/srv/library",
                                                settingsJSON: #"{"jobs":2}"#, templates: ["tiles.yaml": "name: tiles\n"])
        XCTAssertNotEqual(edited, withTemplates, "an edited template is another pipeline")

        try queue.enqueue([NewJob(unitKey: "c1", kind: .collection, batch: "b", pipelineDigest: withTemplates, payload: "{}", maxAttempts: 1),
                           job("p1")])
        XCTAssertEqual(try XCTUnwrap(try queue.claim(worker: "w1", lease: 30)).pipeline.templates, templates)
        XCTAssertEqual(try XCTUnwrap(try queue.claim(worker: "w1", lease: 30)).pipeline.templates, [:])
    }

    func testADatabaseOfTheFirstSchemaGainsTheTemplatesColumnAndTheVideoFacts() throws {
        try sql("""
            ALTER TABLE pipelines DROP COLUMN templates_json; ALTER TABLE assets DROP COLUMN media_kind, DROP COLUMN motion_of;
            UPDATE meta SET value = '1' WHERE key = 'schema_version'
            """)
        try QueueSchema.migrate(session)
        XCTAssertEqual(try sql("SELECT value FROM meta WHERE key = 'schema_version'"), "\(QueueSchema.version)")
        XCTAssertEqual(try sql("SELECT count(*)::text FROM information_schema.columns WHERE table_name = 'assets' AND column_name IN ('media_kind', 'motion_of')"), "2")
        try queue.enqueue([job("old")])
        XCTAssertEqual(try XCTUnwrap(try queue.claim(worker: "w1", lease: 30)).pipeline.templates, [:],
                       "a pipeline queued before templates were stored has none")
    }

    func testBadAttemptLimitIsRefused() {
        XCTAssertThrowsError(try queue.enqueue([job("x", maxAttempts: 0)])) { error in
            XCTAssertTrue("\(error)".contains("maxAttempts must be at least 1"), "\(error)")
        }
    }

    func testMigrationsFromSeveralWorkersAtOnce() throws {
        let sessions = try (0..<4).map { _ in try openSession() }
        try sql("DROP TABLE job_attempts, jobs, workers, pipelines, pending_outputs, outputs, units, failures, file_stats, assets, runs, meta")
        let errors = ErrorList()
        DispatchQueue.concurrentPerform(iterations: sessions.count) { index in
            do { try QueueSchema.migrate(sessions[index]) } catch { errors.append(error) }
        }
        XCTAssertEqual(errors.all.map { "\($0)" }, [])
        XCTAssertEqual(try sql("SELECT value FROM meta WHERE key = 'schema_version'"), "\(QueueSchema.version)")
    }
}

/// Errors collected from several threads.
final class ErrorList: Sendable {
    private let errors = Recorded<any Error>()
    func append(_ error: Error) { errors.append(error) }
    var all: [Error] { errors.values }
}
