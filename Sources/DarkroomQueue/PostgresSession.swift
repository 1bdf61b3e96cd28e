import DarkroomCore
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization
import DarkroomModel

/// PostgreSQL for code that runs on plain threads (Darkroom's runner and queue worker are not
/// async): a pool of connections (postgres-nio's `PostgresClient`) behind a blocking API.
///
/// Every call blocks the calling thread until the server answers. Calls from several threads run at
/// once, each on a connection of its own, up to `connectionLimit` connections (made when needed,
/// closed after a minute idle); further calls wait for a free one. A `transaction` holds one
/// connection for its whole body: what the body runs on the same thread goes to that connection (a
/// transaction inside it becomes a savepoint), while other threads' calls go to other connections.
/// A connection the server dropped is replaced by a new one; a transaction it carried is lost
/// (`PostgresSessionError.connectionLost`).
///
/// The thread that waits is the caller's: connections are leased by a task that only awaits, and
/// statements run on the connection's event loop, so neither a NIO event loop nor Swift's
/// cooperative pool is ever blocked. Do not call it from an `async` context (that would block a
/// cooperative thread), nor from inside a postgres-nio callback.
public final class PostgresSession: Sendable {
    /// Who runs the session's pool, which makes no connection until its `run()` is running.
    public enum PoolRunner: Sendable {
        /// The session, on a task of its own, from `init` until `close()`.
        case session
        /// A `ServiceGroup`: add `poolService` to the group ahead of the services that use the session.
        case serviceGroup
    }

    /// The database this session connects to.
    public let location: PostgresLocation
    /// The most connections the session has open at once.
    public let connectionLimit: Int
    let logger: Logger
    private let client: PostgresClient
    private let poolTask: PoolTask?
    private let state = Monitor(State())

    /// What the threads using the session share.
    private struct State {
        var closed = false
        var poolStopped = false
        /// Calls running (or waiting for a connection) now.
        var callsInFlight = 0
        /// The transaction each thread has open, by thread.
        var transactions: [pthread_t: OpenTransaction] = [:]
    }

    /// Connects to `location` (throws `PostgresSessionError.cannotConnect` with the server's or the
    /// network's reason when it cannot) and starts a pool of at most `connections` connections,
    /// run by the session itself or, with `runner: .serviceGroup`, by the caller's `ServiceGroup`.
    public init(_ location: PostgresLocation, connections: Int = PostgresSession.connections(threads: ProcessInfo.processInfo.activeProcessorCount),
                runner: PoolRunner = .session, logger: Logger = PostgresSession.quietLogger) throws {
        precondition(connections >= 1, "a PostgreSQL session needs at least one connection, got \(connections)")
        self.location = location
        self.connectionLimit = connections
        self.logger = logger
        try PostgresSession.probe(location, logger: logger)
        client = PostgresClient(configuration: location.clientConfiguration(connections: connections), backgroundLogger: logger)
        poolTask = runner == .session ? PoolTask(PoolService(client: client, stopped: nil)) : nil
    }

    deinit { close() }

    /// How many connections a process needs when `threads` threads use one session at once: one
    /// each (a thread holds at most one, for a statement or a transaction), plus one for a worker's
    /// lease renewal and heartbeat, at most 64.
    public static func connections(threads: Int) -> Int {
        min(max(threads, 1), 63) + 1
    }

    /// A logger that reports only errors (postgres-nio logs every query at debug and trace levels).
    public static var quietLogger: Logger {
        var logger = Logger(label: "darkroom.postgres")
        logger.logLevel = .error
        return logger
    }

    /// Makes one connection and closes it: the pool gives up on an unreachable server only after a
    /// minute, and without the reason.
    private static func probe(_ location: PostgresLocation, logger: Logger) throws {
        do {
            let connection = try PostgresConnection.connect(on: PostgresClient.defaultEventLoopGroup.next(),
                                                            configuration: try location.connectionConfiguration(),
                                                            id: 0, logger: logger).wait()
            try? connection.close().wait()
        } catch {
            throw PostgresSessionError.cannotConnect(location: location.description, reason: PostgresSessionError.reason(error))
        }
    }

    // MARK: The pool as a service

    /// The session's connection pool as a `Service`, for a `ServiceGroup` when the session was made
    /// with `runner: .serviceGroup`: statements wait until it runs, and fail (`closed`) once it has
    /// stopped. Put it in the group ahead of the services that use the session, so that it is shut
    /// down after them. Run it once.
    public var poolService: PoolService {
        precondition(poolTask == nil, "this session runs its pool itself; make it with runner: .serviceGroup")
        return PoolService(client: client, stopped: { [weak self] in self?.noteThePoolStopped() })
    }

    private func noteThePoolStopped() {
        state.withLock { $0.poolStopped = true }
    }

    // MARK: Queries

    /// Runs one statement with bound parameters (`"SELECT ... WHERE id = \(id)"` binds `id`) and
    /// returns its rows.
    @discardableResult
    public func query(_ query: PostgresQuery) throws -> [PostgresRow] {
        try run(query).rows
    }

    /// Runs one statement and returns how many rows it inserted, updated, deleted or selected.
    @discardableResult
    public func execute(_ query: PostgresQuery) throws -> Int {
        try run(query).metadata.rows ?? 0
    }

    private func run(_ query: PostgresQuery) throws -> PostgresQueryResult {
        if let open = openTransaction() { return try open.run(query) }
        return try call {
            let lease = try leaseLiveConnection()
            defer { lease.release() }
            return try perform(query, on: lease.connection)
        }
    }

    /// Runs `query` on `connection`, waiting on this thread for the answer.
    func perform(_ query: PostgresQuery, on connection: PostgresConnection) throws -> PostgresQueryResult {
        do {
            return try connection.query(query, logger: logger).wait()
        } catch {
            throw PostgresSessionError.failed(sql: query.sql, error: error)
        }
    }

    // MARK: Transactions

    /// Runs `body` in a transaction on a connection of its own: committed when it returns, rolled
    /// back when it throws. What `body` runs through this session on this thread is part of it; a
    /// transaction inside it becomes a savepoint. Other threads are not held up.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        if let open = openTransaction() { return try open.enclosing(body) }
        return try call {
            let lease = try leaseLiveConnection()
            defer { lease.release() }
            let open = OpenTransaction(connection: lease.connection, session: self)
            setOpenTransaction(open)
            defer { setOpenTransaction(nil) }
            do {
                return try open.enclosing(body)
            } catch {
                // A connection whose transaction did not end cleanly must not go back to the pool.
                if open.isUnfinished, !lease.connection.isClosed { try? lease.connection.close().wait() }
                throw error
            }
        }
    }

    private func openTransaction() -> OpenTransaction? {
        state.withLock { $0.transactions[pthread_self()] }
    }

    private func setOpenTransaction(_ open: OpenTransaction?) {
        state.withLock { $0.transactions[pthread_self()] = open }
    }

    // MARK: Connections

    /// Counts a call in flight (for `close`), refusing it once the session is closed.
    private func call<T>(_ body: () throws -> T) throws -> T {
        let refused = state.withLock { state in
            guard !state.closed, !state.poolStopped else { return true }
            state.callsInFlight += 1
            return false
        }
        if refused { throw PostgresSessionError.closed(location: location.description) }
        defer { state.withLock { $0.callsInFlight -= 1 } }
        return try body()
    }

    /// A leased connection that is still open. A connection the server dropped while idle is handed
    /// back (the pool forgets it as soon as its event loop has seen it close) and another one taken.
    private func leaseLiveConnection() throws -> PooledLease {
        for _ in 0..<100 {
            let lease = try lease()
            if !lease.connection.isClosed { return lease }
            lease.release()
            usleep(5_000)
        }
        throw PostgresSessionError.cannotConnect(location: location.description, reason: "every pooled connection is closed")
    }

    private func lease() throws -> PooledLease {
        do {
            return try PooledLease.lease(from: client)
        } catch {
            if state.withLock({ $0.closed || $0.poolStopped }) { throw PostgresSessionError.closed(location: location.description) }
            // The pool gave up making connections: ask the server (or the network) why.
            try Self.probe(location, logger: logger)
            throw PostgresSessionError.cannotConnect(location: location.description, reason: PostgresSessionError.reason(error))
        }
    }

    // MARK: Closing

    /// Refuses new calls, waits for those of other threads to end, then closes the connections
    /// (with `runner: .serviceGroup` the group does, when it shuts down). Later calls throw
    /// `PostgresSessionError.closed`. Safe to call twice.
    public func close() {
        let own = state.withLock { state -> Int? in
            guard !state.closed else { return nil }
            state.closed = true
            return state.transactions[pthread_self()] == nil ? 0 : 1
        }
        guard let own else { return }
        state.wait(until: { $0.callsInFlight <= own }) { _ in }
        poolTask?.stop()
    }
}

/// A transaction a thread holds open on one connection, with its savepoints.
private final class OpenTransaction: Sendable {
    let connection: PostgresConnection
    unowned let session: PostgresSession
    /// How far in the transaction is; only its own thread changes it.
    private let progress = Mutex(Progress())

    /// Transactions and savepoints open now, and whether the end of one failed.
    private struct Progress {
        var depth = 0
        /// Whether the server may still see the transaction open (its COMMIT or ROLLBACK failed).
        var isUnfinished = false
    }

    /// Whether the server may still see the transaction open (its COMMIT or ROLLBACK failed).
    var isUnfinished: Bool { progress.withLock { $0.isUnfinished } }

    init(connection: PostgresConnection, session: PostgresSession) {
        self.connection = connection
        self.session = session
    }

    /// Runs a statement on the transaction's connection; a dropped connection loses the transaction.
    func run(_ query: PostgresQuery) throws -> PostgresQueryResult {
        guard !connection.isClosed else { throw lost(query) }
        do {
            return try session.perform(query, on: connection)
        } catch let error where connection.isClosed {
            session.logger.debug("\(error)")
            throw lost(query)
        }
    }

    private func lost(_ query: PostgresQuery) -> PostgresSessionError {
        .connectionLost(location: session.location.description, sql: query.sql)
    }

    /// Runs `body` in the transaction (`BEGIN`) or, inside it, in a savepoint.
    func enclosing<T>(_ body: () throws -> T) throws -> T {
        let depth = progress.withLock { $0.depth }
        let savepoint = depth == 0 ? nil : "darkroom_\(depth)"
        _ = try run(PostgresQuery(unsafeSQL: savepoint.map { "SAVEPOINT \($0)" } ?? "BEGIN"))
        progress.withLock { $0.depth += 1 }
        defer { progress.withLock { $0.depth -= 1 } }
        let value: T
        do {
            value = try body()
        } catch {
            try? end(savepoint.map { "ROLLBACK TO SAVEPOINT \($0)" } ?? "ROLLBACK")
            throw error
        }
        try end(savepoint.map { "RELEASE SAVEPOINT \($0)" } ?? "COMMIT")
        return value
    }

    /// Ends the transaction or a savepoint with `sql`; when that fails, what the server has open is unknown.
    private func end(_ sql: String) throws {
        do {
            _ = try run(PostgresQuery(unsafeSQL: sql))
        } catch {
            progress.withLock { $0.isUnfinished = true }
            throw error
        }
    }
}
