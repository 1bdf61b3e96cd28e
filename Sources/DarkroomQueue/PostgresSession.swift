import Foundation
import Logging
import PostgresNIO  // re-exports NIO (event loops, futures) and NIOSSL

/// One PostgreSQL connection for code that runs on plain threads (Darkroom's runner is not async).
///
/// Every call blocks the calling thread until the server answers, and calls from several threads
/// run one at a time. A `transaction` holds the session for its whole body, so other threads wait
/// rather than slip statements into it. The connection's I/O runs on a private event loop thread
/// that is never blocked. A connection the server dropped is reopened by the next call made outside
/// a transaction.
///
/// Never call it from an `async` context's cooperative threads for long work, and never from
/// inside a postgres-nio callback.
public final class PostgresSession: @unchecked Sendable {
    /// The database this session is connected to.
    public let location: PostgresLocation
    let logger: Logger
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let lock = NSRecursiveLock()
    private var connection: PostgresConnection?
    private var transactionDepth = 0
    private var closed = false

    /// Connects to `location`; throws `PostgresSessionError.cannotConnect` with the server's or the
    /// network's reason.
    public init(_ location: PostgresLocation, logger: Logger = PostgresSession.quietLogger) throws {
        self.location = location
        self.logger = logger
        do {
            connection = try connect()
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
    }

    /// A logger that reports only errors (postgres-nio logs every query at debug and trace levels).
    public static var quietLogger: Logger {
        var logger = Logger(label: "darkroom.postgres")
        logger.logLevel = .error
        return logger
    }

    deinit { close() }

    private func connect() throws -> PostgresConnection {
        do {
            let configuration = try location.connectionConfiguration()
            return try PostgresConnection.connect(on: group.next(), configuration: configuration,
                                                  id: Int.random(in: 1...Int(Int32.max)), logger: logger).wait()
        } catch {
            throw PostgresSessionError.cannotConnect(location: location.description, reason: PostgresSessionError.reason(error))
        }
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
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { throw PostgresSessionError.closed(location: location.description) }
        if connection?.isClosed != false {
            guard transactionDepth == 0 else {
                throw PostgresSessionError.connectionLost(location: location.description, sql: query.sql)
            }
            connection = try connect()
        }
        do {
            return try connection!.query(query, logger: logger).wait()
        } catch {
            throw PostgresSessionError.failed(sql: query.sql, error: error)
        }
    }

    // MARK: Transactions

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. Other
    /// threads wait until it ends. A transaction inside another one becomes a savepoint.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        let savepoint = transactionDepth == 0 ? nil : "darkroom_\(transactionDepth)"
        try execute(PostgresQuery(unsafeSQL: savepoint.map { "SAVEPOINT \($0)" } ?? "BEGIN"))
        transactionDepth += 1
        let value: T
        do {
            value = try body()
        } catch {
            transactionDepth -= 1
            _ = try? execute(PostgresQuery(unsafeSQL: savepoint.map { "ROLLBACK TO SAVEPOINT \($0)" } ?? "ROLLBACK"))
            throw error
        }
        transactionDepth -= 1
        try execute(PostgresQuery(unsafeSQL: savepoint.map { "RELEASE SAVEPOINT \($0)" } ?? "COMMIT"))
        return value
    }

    // MARK: Closing

    /// Closes the connection and stops the event loop thread; later calls throw. Safe to call twice.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        if let connection, !connection.isClosed { try? connection.close().wait() }
        connection = nil
        try? group.syncShutdownGracefully()
    }
}

/// Why a `PostgresSession` call failed.
public enum PostgresSessionError: Error, CustomStringConvertible {
    /// The server could not be reached or refused the connection.
    case cannotConnect(location: String, reason: String)
    /// The connection dropped inside a transaction, which is lost.
    case connectionLost(location: String, sql: String)
    /// The session was closed.
    case closed(location: String)
    /// A statement failed; `error` is postgres-nio's.
    case failed(sql: String, error: Error)

    /// The SQLSTATE code the server reported (`23505` for a unique violation), if any.
    public var sqlState: String? {
        guard case .failed(_, let error) = self else { return nil }
        return (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// What failed and why, with the server's message and the statement.
    public var description: String {
        switch self {
        case let .cannotConnect(location, reason): return "cannot connect to PostgreSQL at \(location): \(reason)"
        case let .connectionLost(location, sql): return "the connection to \(location) was lost during a transaction (at: \(Self.oneLine(sql)))"
        case let .closed(location): return "the session with \(location) is closed"
        case let .failed(sql, error): return "PostgreSQL: \(Self.reason(error)) (in: \(Self.oneLine(sql)))"
        }
    }

    /// The server's message (with detail and SQLSTATE), or the network error, of a postgres-nio
    /// error, whose own description hides everything.
    static func reason(_ error: Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let server = error.serverInfo, let message = server[.message] {
            var text = message
            if let detail = server[.detail] { text += " (\(detail))" }
            if let state = server[.sqlState] { text += " [SQLSTATE \(state)]" }
            return text
        }
        if let underlying = error.underlying as? NIOConnectionError { return networkReason(underlying) }
        if let underlying = error.underlying { return "\(underlying)" }
        return "\(error.code)"
    }

    /// `host:port: Connection refused (errno: 111)` for each address tried, or the name lookup's error.
    private static func networkReason(_ error: NIOConnectionError) -> String {
        let attempts = error.connectionErrors.map { failure -> String in
            // An IOError's own text starts with what NIO was doing ("connection reset (error set)"): the errno is the news.
            let reason = (failure.error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(failure.error)"
            return "\(error.host):\(error.port): \(reason)"
        }
        if !attempts.isEmpty { return attempts.joined(separator: "; ") }
        if let lookup = error.dnsAError ?? error.dnsAAAAError { return "cannot resolve \(error.host): \(lookup)" }
        return "cannot reach \(error.host):\(error.port)"
    }

    private static func oneLine(_ sql: String) -> String {
        let text = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return text.count > 200 ? text.prefix(200) + "..." : text
    }
}

extension PostgresLocation {
    /// postgres-nio's configuration for this location.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socketPath {
            configuration = .init(unixSocketPath: socketPath, username: user, password: password, database: database)
        } else {
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: try tlsSetting())
        }
        configuration.options.connectTimeout = .seconds(10)
        return configuration
    }

    private func tlsSetting() throws -> PostgresConnection.Configuration.TLS {
        var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
        switch tls {
        case .disable: return .disable
        case .prefer:
            tlsConfiguration.certificateVerification = .none
            return .prefer(try NIOSSLContext(configuration: tlsConfiguration))
        case .require:
            tlsConfiguration.certificateVerification = .none
            return .require(try NIOSSLContext(configuration: tlsConfiguration))
        case .verifyFull:
            return .require(try NIOSSLContext(configuration: tlsConfiguration))
        }
    }
}
