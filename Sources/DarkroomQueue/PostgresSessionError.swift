import Foundation
import PostgresNIO

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
