import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// The PostgreSQL work queue end to end: `darkroom enqueue`, several `darkroom worker` processes, a
/// worker killed mid-job, failing units, `darkroom queue status`.
final class QueueWorkerTests: PostgresTestCase {
    /// One value (or rows joined by newlines) from the queue's database.
    func sql(_ query: String) throws -> String {
        try PostgresTestDatabase.psql(database.url, query).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testThreeWorkersDoEveryUnitExactlyOnceEvenWhenOneIsKilled() throws {
        let fixture = try FleetFixture("queue", extra: 9)
        let library = fixture.folder.path("library"), single = fixture.folder.path("single")
        let pipeline = fixture.pipeline("import-camera-roll")
        let enqueue = ["enqueue", pipeline, "--input", fixture.roll.path, "--library", library.path, "--queue", database.url]
        let first = try fixture.darkroom(enqueue)
        XCTAssertTrue(first.out.hasPrefix("queued 18 jobs (0 already queued); 0 photos up to date, 1 duplicate"), first.out)
        let second = try fixture.darkroom(enqueue)
        XCTAssertTrue(second.out.hasPrefix("queued 0 jobs (18 already queued)"), second.out)

        let worker = ["worker", "--queue", database.url, "--lease", "3", "--poll", "0.2", "--jobs", "1", "--exit-when-done", "-v"]
        var workers = try (0..<3).map { try fixture.command.start(worker, log: fixture.folder.path("worker-\($0).log")) }
        // Kill the first worker once it holds a job, mid-way through it.
        let victim = workers.removeFirst()
        let heldByVictim = "SELECT id FROM jobs WHERE state = 'running' AND lease_owner LIKE '%-\(victim.processIdentifier)-%'"
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, try sql(heldByVictim).isEmpty { usleep(20_000) }
        usleep(100_000)
        while Date() < deadline, try sql(heldByVictim).isEmpty { usleep(5_000) }
        kill(victim.processIdentifier, SIGKILL)
        victim.waitUntilExit()
        // What it held when it died stays leased to it until the lease (3 s) runs out.
        let held = try sql(heldByVictim)
        XCTAssertFalse(held.isEmpty, "the first worker was killed while it held a job")
        for process in workers { process.waitUntilExit(); XCTAssertEqual(process.terminationStatus, 0) }

        // Every unit done, exactly one attempt of each ended done; the killed job was taken over.
        XCTAssertEqual(try sql("SELECT state || ' ' || count(*) FROM jobs GROUP BY state"), "done 18")
        XCTAssertEqual(try sql("SELECT count(*) FROM job_attempts WHERE outcome = 'done'"), "18")
        XCTAssertEqual(try sql("SELECT count(DISTINCT job_id) FROM job_attempts WHERE outcome = 'done'"), "18")
        XCTAssertEqual(try sql("SELECT outcome FROM job_attempts WHERE job_id = \(held) ORDER BY attempt"), "lease expired\ndone")
        XCTAssertFalse(try sql("SELECT worker FROM job_attempts WHERE job_id = \(held) AND outcome = 'done'")
            .contains("-\(victim.processIdentifier)-"), "another worker finished the killed worker's job")

        // The library holds what one machine makes, and the catalog in PostgreSQL matches it.
        try fixture.darkroom(["run", pipeline, "--input", fixture.roll.path, "--library", single.path])
        let made = try FleetFixture.files(of: library), expected = try FleetFixture.files(of: single)
        XCTAssertEqual(made.keys.sorted(), expected.keys.sorted(), "no file missing, none left over")
        XCTAssertEqual(made.filter { $0.key.hasSuffix(".jpg") }, expected.filter { $0.key.hasSuffix(".jpg") })
        XCTAssertEqual(try sql("SELECT count(*) FROM outputs"), "35")
        let recorded = try sql("SELECT path || ' ' || sha256 FROM outputs ORDER BY path").split(separator: "\n").map(String.init)
        XCTAssertEqual(recorded, made.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" })

        let status = try fixture.darkroom(["queue", "status", "--queue", database.url])
        XCTAssertTrue(status.out.contains("18 done"), status.out)
        XCTAssertTrue(status.out.contains("0 failed"), status.out)
    }

    func testAFailingUnitEndsFailedAfterItsRetriesWithItsError() throws {
        let fixture = try FleetFixture("queue-failing", extra: 1)
        let library = fixture.folder.path("library")
        // A JPEG cut off after its header: it hashes fine, and fails to decode.
        let good = try Data(contentsOf: fixture.roll.appendingPathComponent("more/photo-0.jpg"))
        let broken = fixture.roll.appendingPathComponent("more/broken.jpg")
        try good.prefix(2000).write(to: broken)

        try fixture.darkroom(["enqueue", fixture.pipeline("import-camera-roll"), "--input", fixture.roll.path,
                              "--library", library.path, "--queue", database.url, "--max-attempts", "3"])
        let worker = try fixture.darkroom(["worker", "--queue", database.url, "--lease", "5", "--backoff", "0.3", "--poll", "0.1",
                                           "--jobs", "1", "--exit-when-done"])
        XCTAssertTrue(worker.err.contains("failed for good after 3 attempts: \(broken.path) ["), worker.err)

        XCTAssertEqual(try sql("SELECT state || ' ' || count(*) FROM jobs GROUP BY state ORDER BY state"), "done 10\nfailed 1")
        XCTAssertEqual(try sql("SELECT attempts FROM jobs WHERE state = 'failed'"), "3")
        XCTAssertEqual(try sql("SELECT count(*) FROM job_attempts a JOIN jobs j ON j.id = a.job_id WHERE j.state = 'failed' AND a.outcome = 'failed'"), "3")
        let error = try sql("SELECT last_error FROM jobs WHERE state = 'failed'")
        XCTAssertTrue(error.hasPrefix("\(broken.path) ["), error)
        // The retries waited: each one after its backoff (0.3 s, then 0.6 s).
        let gaps = try sql("""
            SELECT round(extract(epoch FROM started_at - lag(ended_at) OVER (ORDER BY attempt))::numeric, 1)
            FROM job_attempts a JOIN jobs j ON j.id = a.job_id WHERE j.state = 'failed' ORDER BY attempt
            """).split(separator: "\n").compactMap { Double($0) }
        XCTAssertEqual(gaps.count, 2)
        XCTAssertGreaterThanOrEqual(gaps.first ?? 0, 0.3)
        XCTAssertGreaterThanOrEqual(gaps.last ?? 0, 0.6)
        // Nothing of the broken photo reached the library; the original is untouched.
        XCTAssertEqual(try FleetFixture.files(of: library).count, 19)
        XCTAssertEqual(try Data(contentsOf: broken), good.prefix(2000))

        let status = try fixture.darkroom(["queue", "status", "--queue", database.url])
        XCTAssertTrue(status.out.contains("1 failed"), status.out)
        XCTAssertTrue(status.out.contains(broken.path), status.out)

        // `queue retry` gives it one more attempt (here it fails again), its history kept.
        let retry = try fixture.darkroom(["queue", "retry", "--queue", database.url])
        XCTAssertEqual(retry.out, "1 failed jobs queued again\n")
        XCTAssertEqual(try sql("SELECT state FROM jobs WHERE attempts = 3"), "pending")
        try fixture.darkroom(["worker", "--queue", database.url, "--poll", "0.1", "--jobs", "1", "--exit-when-done"])
        XCTAssertEqual(try sql("SELECT state || ' ' || attempts FROM jobs WHERE state <> 'done'"), "failed 4")
        XCTAssertEqual(try sql("SELECT count(*) FROM job_attempts WHERE outcome = 'failed'"), "4")
    }

    func testACollectionJobWaitsForItsPhotosAndMakesWhatOneMachineMakes() throws {
        let fixture = try FleetFixture("queue-collage", extra: 4)
        let library = fixture.folder.path("library"), single = fixture.folder.path("single")
        let pipeline = fixture.pipeline("monthly-grid")
        let queued = try fixture.darkroom(["enqueue", pipeline, "--input", fixture.roll.path, "--library", library.path, "--queue", database.url])
        XCTAssertTrue(queued.out.hasPrefix("queued 12 jobs"), queued.out)
        let workers = try (0..<2).map { _ in
            try fixture.command.start(["worker", "--queue", database.url, "--poll", "0.1", "--jobs", "1", "--exit-when-done"])
        }
        for process in workers { process.waitUntilExit(); XCTAssertEqual(process.terminationStatus, 0) }
        // The collection job started after the last photo job ended.
        XCTAssertEqual(try sql("""
            SELECT bool_and(c.started_at >= p.ended_at) FROM job_attempts c JOIN jobs cj ON cj.id = c.job_id AND cj.kind = 'collection',
                   job_attempts p JOIN jobs pj ON pj.id = p.job_id AND pj.kind = 'photo'
            """), "t")
        try fixture.darkroom(["run", pipeline, "--input", fixture.roll.path, "--library", single.path])
        let made = try FleetFixture.files(of: library)
        XCTAssertEqual(made.count, 10, "one collage per month: \(made.keys.sorted())")
        XCTAssertEqual(made, try FleetFixture.files(of: single), "the same collages, byte for byte")
    }

    func testPostgreSQLCanBeTheCatalogOfASingleMachineRun() throws {
        let fixture = try FleetFixture("postgres-catalog", extra: 0)
        let library = fixture.folder.path("library")
        let run = ["run", fixture.pipeline("import-camera-roll"), "--input", fixture.roll.path, "--library", library.path,
                   "--catalog", database.url]
        let first = try fixture.darkroom(run)
        XCTAssertTrue(first.out.hasPrefix("10 found: 9 processed"), first.out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.appendingPathComponent(".darkroom/catalog.sqlite").path))
        let again = try fixture.darkroom(run)
        XCTAssertTrue(again.out.hasPrefix("10 found: 0 processed, 9 already done"), again.out)
        let other = try fixture.darkroom(["run", fixture.pipeline("import-camera-roll"), "--input", fixture.roll.path,
                                          "--library", fixture.folder.path("other").path, "--catalog", database.url], expecting: 2)
        XCTAssertTrue(other.err.contains("this database is the catalog of \(library.path)"), other.err)
    }
}
