import DarkroomCore
import DarkroomQueue
import DarkroomTestSupport
import Foundation
import XCTest

/// A test with its own database on the test server, a queue on it, and a registered pipeline.
class QueueTestCase: PostgresTestCase {
    var session: PostgresSession!
    var queue: WorkQueue!
    var pipeline: String!
    private var opened: [PostgresSession] = []

    override func setUpWithError() throws {
        session = try openSession()
        queue = try WorkQueue(session: session)
        pipeline = try queue.registerPipeline(fileName: "import.yaml", yaml: "steps: []\n", library: "/srv/library",
                                              settingsJSON: #"{"jobs":2}"#)
    }

    override func tearDown() {
        for session in opened { session.close() }
        super.tearDown()
    }

    /// Another connection to the test's database (a second worker); closed at the end of the test.
    func openSession() throws -> PostgresSession {
        let session = try PostgresSession(PostgresLocation(database.url))
        opened.append(session)
        return session
    }

    /// Another worker's view of the queue.
    func otherQueue() throws -> WorkQueue { try WorkQueue(session: try openSession()) }

    func job(_ key: String, kind: JobKind = .photo, batch: String = "batch-1", maxAttempts: Int = 3) -> NewJob {
        NewJob(unitKey: key, kind: kind, batch: batch, pipelineDigest: pipeline, payload: #"{"unit":"\#(key)"}"#,
               maxAttempts: maxAttempts)
    }

    /// Runs SQL on the test's database through psql (for what the API does not expose).
    @discardableResult
    func sql(_ statement: String) throws -> String { try PostgresTestDatabase.psql(database.url, statement) }

    func state(of key: String) throws -> String? { try queue.job(unitKey: key)?.state }
}
