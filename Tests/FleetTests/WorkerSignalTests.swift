import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// `darkroom worker` and its signals: SIGTERM lets the job in hand finish, a second one gives it up.
final class WorkerSignalTests: PostgresTestCase {
    private func sql(_ query: String) throws -> String {
        try PostgresTestDatabase.psql(database.url, query).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits (generously: the machine is loaded) until `condition` holds; false if it never did.
    private func eventually(_ seconds: TimeInterval, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(20_000)
        }
        return try condition()
    }

    /// Starts a worker and waits until it holds a job; returns the process and the job's id.
    private func workerHoldingAJob(_ fixture: FleetFixture, log: URL) throws -> (Process, String) {
        let worker = try fixture.command.start(["worker", "--queue", database.url, "--poll", "0.2", "--jobs", "1", "-v"], log: log)
        let held = "SELECT id FROM jobs WHERE state = 'running' AND lease_owner LIKE '%-\(worker.processIdentifier)-%'"
        XCTAssertTrue(try eventually(120) { try !sql(held).isEmpty }, "the worker claimed a job")
        return (worker, try sql(held))
    }

    private func exited(_ process: Process, within seconds: TimeInterval) -> Bool {
        eventually(seconds) { !process.isRunning }
    }

    func testSIGTERMLetsTheJobInHandFinishThenTheWorkerLeaves() throws {
        let fixture = try FleetFixture("worker-sigterm", extra: 9)
        let library = fixture.folder.path("library")
        try fixture.darkroom(["enqueue", fixture.pipeline("import-camera-roll"), "--input", fixture.roll.path,
                              "--library", library.path, "--queue", database.url])
        let log = fixture.folder.path("worker.log")
        let (worker, job) = try workerHoldingAJob(fixture, log: log)
        kill(worker.processIdentifier, SIGTERM)
        XCTAssertTrue(exited(worker, within: 300), "the worker stopped")
        worker.waitUntilExit()
        let output = try String(contentsOf: log, encoding: .utf8)
        XCTAssertEqual(worker.terminationReason, .exit, output)
        XCTAssertEqual(worker.terminationStatus, 0, output)

        // The job it held when asked was finished, every attempt it made ended done, it took no more.
        XCTAssertEqual(try sql("SELECT state FROM jobs WHERE id = \(job)"), "done", output)
        let attempts = try sql("SELECT outcome FROM job_attempts WHERE worker LIKE '%-\(worker.processIdentifier)-%'")
        XCTAssertEqual(Set(attempts.split(separator: "\n")), ["done"], output)
        XCTAssertEqual(try sql("SELECT count(*) FROM jobs WHERE state = 'running'"), "0")
        XCTAssertGreaterThan(Int(try sql("SELECT count(*) FROM jobs WHERE state = 'pending'")) ?? 0, 0, "the rest waits for another worker")
        XCTAssertEqual(try sql("SELECT count(*) FROM workers"), "0", "it unregistered")
        XCTAssertTrue(output.contains("(asked to stop)"), output)
    }

    func testASecondSIGTERMGivesTheJobUpToTheNextWorker() throws {
        // One large photo: its import takes seconds, so the second signal comes while it runs.
        let fixture = try FleetFixture("worker-second-signal", extra: 0)
        let roll = fixture.folder.path("large"), library = fixture.folder.path("library")
        try FileManager.default.createDirectory(at: roll, withIntermediateDirectories: true)
        try Fixtures.photo(roll.appendingPathComponent("large.jpg"), width: 4800, height: 3600, exif: ["-DateTimeOriginal=2022:05:06 07:08:09"])
        try fixture.darkroom(["enqueue", fixture.pipeline("import-camera-roll"), "--input", roll.path,
                              "--library", library.path, "--queue", database.url])
        let log = fixture.folder.path("worker.log")
        let (worker, job) = try workerHoldingAJob(fixture, log: log)

        kill(worker.processIdentifier, SIGTERM)
        let listening = "SIGTERM or SIGINT again gives it up now"
        XCTAssertTrue(eventually(60) { (try? String(contentsOf: log, encoding: .utf8))?.contains(listening) == true },
                      "the worker says a second signal gives the job up")
        kill(worker.processIdentifier, SIGTERM)
        XCTAssertTrue(exited(worker, within: 60), "the worker stopped without finishing the job")
        worker.waitUntilExit()
        let output = try String(contentsOf: log, encoding: .utf8)
        XCTAssertEqual(worker.terminationStatus, 3, "an interrupted worker could not complete: \(output)")
        XCTAssertTrue(output.contains("error: the worker was interrupted: job \(job) ("), output)
        XCTAssertEqual(try sql("SELECT state || ' ' || (lease_expires <= now()) FROM jobs WHERE id = \(job)"), "running true",
                       "the job's lease is given up")
        XCTAssertEqual(try FleetFixture.files(of: library), [:], "nothing of the unfinished job was published")

        // The next worker takes it over at once (no wait for the 60 s lease), and the photo is imported.
        try fixture.darkroom(["worker", "--queue", database.url, "--poll", "0.1", "--jobs", "1", "--exit-when-done"])
        XCTAssertEqual(try sql("SELECT outcome FROM job_attempts WHERE job_id = \(job) ORDER BY attempt"), "lease expired\ndone")
        XCTAssertEqual(try FleetFixture.files(of: library).keys.map { $0.components(separatedBy: "/")[0] }.sorted(), ["Photos", "Thumbnails"])
    }
}
