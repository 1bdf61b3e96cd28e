import DarkroomCore
import DarkroomQueue
import DarkroomTestSupport
import Foundation
import PostgresNIO
import Synchronization
import XCTest
import DarkroomModel

/// `PostgresSession`'s pool: threads run on connections of their own, at most the session's limit,
/// and a connection the server drops is replaced. Each test has the database to itself (no other
/// session), so the server's view of it (`pg_stat_activity`) counts this session's connections.
final class PostgresPoolTests: PostgresTestCase {
    private func session(connections: Int) throws -> PostgresSession {
        try PostgresSession(PostgresLocation(database.url), connections: connections)
    }

    @discardableResult
    private func sql(_ statement: String) throws -> String { try PostgresTestDatabase.psql(database.url, statement) }

    /// The backends the server has for this database, the psql asking excepted.
    private func serverConnections() throws -> Int {
        Int(try sql("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")) ?? -1
    }

    /// The server process behind the connection `session` runs a statement on.
    private static func backend(_ session: PostgresSession) throws -> Int32 {
        try session.query("SELECT pg_backend_pid()")[0].decode(Int32.self)
    }

    func testTwoThreadsHoldTransactionsAtOnceOnConnectionsOfTheirOwn() throws {
        let session = try session(connections: 2)
        defer { session.close() }
        try session.execute("CREATE TABLE marks (thread int)")
        // Each thread waits, inside its transaction, for the other to be inside its own: with one
        // shared connection the second would wait for the first to commit, and both would time out.
        let bothInside = Rendezvous(parties: 2), bothLooked = Rendezvous(parties: 2)
        let backends = Recorded<Int32>()
        let errors = Recorded<String>()
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            do {
                try session.transaction {
                    try session.execute("INSERT INTO marks VALUES (\(thread))")
                    backends.append(try PostgresPoolTests.backend(session))
                    guard bothInside.arrive(timeout: 60) else { throw Timeout() }
                    // What the other transaction wrote is not visible before it commits (within one
                    // transaction on a shared connection, both rows would be).
                    let seen = try session.query("SELECT thread FROM marks ORDER BY thread").map { try $0.decode(Int.self) }
                    XCTAssertEqual(seen, [thread], "thread \(thread) sees only its own row")
                    guard bothLooked.arrive(timeout: 60) else { throw Timeout() }
                }
            } catch { errors.append("thread \(thread): \(error)") }
        }
        XCTAssertEqual(errors.values, [])
        XCTAssertEqual(Set(backends.values).count, 2, "two connections: \(backends.values)")
        XCTAssertEqual(try session.query("SELECT count(*) FROM marks")[0].decode(Int.self), 2, "both committed")
    }

    func testThePoolNeverHasMoreConnectionsThanItsLimit() throws {
        let session = try session(connections: 3)
        defer { session.close() }
        // Three threads hold a transaction each, until the gate opens.
        let inside = Rendezvous(parties: 4)
        let gate = Gate()
        let held = Recorded<Int32>()
        let holders = DispatchGroup()
        for _ in 0..<3 {
            holders.enter()
            Thread {
                defer { holders.leave() }
                _ = try? session.transaction {
                    held.append(try PostgresPoolTests.backend(session))
                    _ = inside.arrive(timeout: 60)
                    gate.wait()
                }
            }.start()
        }
        XCTAssertTrue(inside.arrive(timeout: 60), "three transactions open at once")
        // A fourth caller waits for a connection rather than open a fourth.
        let fourth = Recorded<Int32>()
        let fourthDone = DispatchSemaphore(value: 0)
        Thread {
            if let pid = try? PostgresPoolTests.backend(session) { fourth.append(pid) }
            fourthDone.signal()
        }.start()
        XCTAssertEqual(fourthDone.wait(timeout: .now() + 1), .timedOut, "the fourth call waits while three connections are held")
        XCTAssertTrue(try eventually { try self.serverConnections() == 3 }, "the server sees three connections")
        gate.open()
        XCTAssertEqual(fourthDone.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(holders.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(fourth.values.count, 1)
        XCTAssertTrue(Set(held.values).isSuperset(of: fourth.values), "the fourth call ran on a connection the others gave back")

        // Twelve threads, ten transactions each: never more than three backends.
        let seen = Recorded<Int32>()
        DispatchQueue.concurrentPerform(iterations: 12) { _ in
            for _ in 0..<10 {
                try? session.transaction { seen.append(try PostgresPoolTests.backend(session)) }
            }
        }
        XCTAssertEqual(seen.values.count, 120)
        XCTAssertLessThanOrEqual(Set(seen.values).count, 3, "backends used: \(Set(seen.values))")
        XCTAssertLessThanOrEqual(try serverConnections(), 3)
    }

    func testAConnectionTheServerDroppedIsReplaced() throws {
        let session = try session(connections: 2)
        defer { session.close() }
        let first = try PostgresPoolTests.backend(session)
        try sql("SELECT pg_terminate_backend(\(first))")
        XCTAssertTrue(try eventually { try self.sql("SELECT count(*) FROM pg_stat_activity WHERE pid = \(first)") == "0" })
        // At most one call may see the dropped connection; the next one runs on a new connection.
        var failures: [String] = []
        var replacement: Int32?
        for _ in 0..<3 where replacement == nil {
            do { replacement = try PostgresPoolTests.backend(session) } catch { failures.append("\(error)") }
        }
        XCTAssertLessThanOrEqual(failures.count, 1, "\(failures)")
        XCTAssertNotNil(replacement)
        XCTAssertNotEqual(replacement, first)
    }

    func testAConnectionDroppedInATransactionLosesOnlyThatTransaction() throws {
        let session = try session(connections: 2)
        defer { session.close() }
        try session.execute("CREATE TABLE marks (n int)")
        var killed: Int32 = 0
        XCTAssertThrowsError(try session.transaction {
            try session.execute("INSERT INTO marks VALUES (1)")
            killed = try PostgresPoolTests.backend(session)
            try sql("SELECT pg_terminate_backend(\(killed))")
            XCTAssertTrue(try eventually { try self.sql("SELECT count(*) FROM pg_stat_activity WHERE pid = \(killed)") == "0" })
            try session.execute("INSERT INTO marks VALUES (2)")
        }) { error in
            guard let error = error as? PostgresSessionError else { return XCTFail("\(error)") }
            switch error {
            case .connectionLost(let location, let sql):
                XCTAssertEqual(location, try! PostgresLocation(self.database.url).description)
                XCTAssertTrue(sql.contains("INSERT INTO marks"), sql)
                XCTAssertTrue("\(error)".contains("was lost during a transaction"), "\(error)")
            case .failed:
                XCTAssertTrue("\(error)".contains("terminating connection"), "the server's reason: \(error)")
            default: XCTFail("\(error)")
            }
        }
        XCTAssertEqual(try session.query("SELECT count(*) FROM marks")[0].decode(Int.self), 0, "nothing of the lost transaction")
        try session.transaction { try session.execute("INSERT INTO marks VALUES (3)") }
        XCTAssertEqual(try session.query("SELECT n FROM marks")[0].decode(Int.self), 3)
        XCTAssertNotEqual(try PostgresPoolTests.backend(session), killed)
    }

    func testClosingWaitsForOtherThreadsThenRefusesWork() throws {
        let session = try session(connections: 2)
        let inside = Rendezvous(parties: 2)
        let committed = DispatchSemaphore(value: 0)
        Thread {
            try? session.transaction {
                try session.execute("CREATE TABLE late (n int)")
                _ = inside.arrive(timeout: 60)
                Thread.sleep(forTimeInterval: 0.5)
            }
            committed.signal()
        }.start()
        XCTAssertTrue(inside.arrive(timeout: 60))
        session.close()
        XCTAssertEqual(committed.wait(timeout: .now()), .success, "close returned only once the other thread's transaction had ended")
        XCTAssertEqual(try sql("SELECT to_regclass('late') IS NOT NULL"), "t", "and it committed")
        XCTAssertThrowsError(try session.query("SELECT 1")) { XCTAssertTrue("\($0)".contains("is closed"), "\($0)") }
        XCTAssertTrue(try eventually { try self.serverConnections() == 0 }, "its connections are closed")
    }
}

/// Waits (generously: the machine is loaded) until `condition` holds; false if it never did.
func eventually(_ seconds: TimeInterval = 30, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return try condition()
}

/// A test's timeout, as an error.
struct Timeout: Error {}

/// Threads that wait for each other: `arrive` returns true once `parties` threads have arrived.
final class Rendezvous: Sendable {
    private let arrived = Monitor(0)
    private let parties: Int

    init(parties: Int) { self.parties = parties }

    func arrive(timeout: TimeInterval) -> Bool {
        arrived.withLock { $0 += 1 }
        return arrived.wait(until: { [parties] in $0 >= parties }, deadline: Date().addingTimeInterval(timeout)) { [parties] in $0 >= parties }
    }
}

/// Blocks threads until opened.
final class Gate: Sendable {
    private let state = Monitor(State())

    private struct State {
        var isOpen = false
        var entered = 0
    }

    /// Waits until the gate is open.
    func wait() {
        state.withLock { $0.entered += 1 }
        state.wait(until: { $0.isOpen }) { _ in }
    }

    /// Waits until a thread waits at the gate (or has gone through); false after `timeout`.
    func waitUntilEntered(timeout: TimeInterval) -> Bool {
        state.wait(until: { $0.entered > 0 }, deadline: Date().addingTimeInterval(timeout)) { $0.entered > 0 }
    }

    func open() { state.withLock { $0.isOpen = true } }
}

/// Values appended from several threads.
final class Recorded<T: Sendable>: Sendable {
    private let stored = Mutex<[T]>([])
    func append(_ value: T) { stored.withLock { $0.append(value) } }
    var values: [T] { stored.withLock { $0 } }
}
