import Foundation

/// Where a PostgreSQL database is, parsed from a URL of the form libpq accepts:
/// `postgres://user[:password]@host[:port]/database` (or `postgresql://`).
///
/// - `?host=/path/to/socket/dir` connects through the Unix socket `<dir>/.s.PGSQL.<port>`
///   (the URL's host may then be empty: `postgres:///darkroom?host=/var/run/postgresql`).
/// - `?sslmode=disable|prefer|require|verify-full` chooses TLS (default `prefer` over TCP; `prefer` and
///   `require` do not check the certificate, as in libpq; `verify-full` does).
/// - The port defaults to 5432, the user to `$USER` (else `postgres`), the database to the user.
/// - User, password and database may be percent-encoded.
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    /// How the connection uses TLS.
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, without checking its certificate (libpq's default).
        case prefer
        /// TLS or no connection, without checking the certificate.
        case require
        /// TLS with the certificate checked against the system's roots and the host name.
        case verifyFull = "verify-full"
    }

    /// A URL that does not name a PostgreSQL database; the message names the bad part.
    public struct ParseError: Error, CustomStringConvertible {
        /// The URL as given.
        public let url: String
        /// What is wrong with it.
        public let reason: String
        /// The URL (password hidden) and what is wrong with it.
        public var description: String { "invalid PostgreSQL URL \(PostgresLocation.redacted(url)): \(reason)" }
    }

    /// The user to log in as.
    public var user: String
    /// The password, if the URL has one.
    public var password: String?
    /// The server's host name or address (empty when connecting through `socketDirectory`).
    public var host: String
    /// The TCP port, which also names the Unix socket.
    public var port: Int
    /// The database to use.
    public var database: String
    /// The folder holding the server's Unix socket, when connecting through it.
    public var socketDirectory: String?
    /// Whether and how the connection uses TLS.
    public var tls: TLSMode

    /// The Unix socket's path, when connecting through one.
    public var socketPath: String? { socketDirectory.map { "\($0)/.s.PGSQL.\(port)" } }

    /// Parses `postgres://user[:password]@host[:port]/database[?host=/socket/dir&sslmode=...]`.
    public init(_ url: String) throws {
        func fail(_ reason: String) -> ParseError { ParseError(url: url, reason: reason) }
        guard let schemeEnd = url.range(of: "://") else {
            throw fail("expected postgres://user@host:port/database")
        }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw fail("the scheme is '\(scheme)', expected 'postgres' or 'postgresql'")
        }
        var rest = Substring(url[schemeEnd.upperBound...])
        var query = Substring("")
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path = Substring("")
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        var authority = rest
        var user: String?
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            user = try Self.decoded(parts[0], part: "user name", fail: fail)
            if parts.count == 2 { password = try Self.decoded(parts[1], part: "password", fail: fail) }
        }
        let (host, port) = try Self.hostAndPort(authority, fail: fail)
        self.host = host
        self.port = port ?? 5432
        tls = .prefer
        for pair in query.split(separator: "&") where !pair.isEmpty {
            let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(keyValue[0])
            let value = try Self.decoded(keyValue.count == 2 ? keyValue[1] : "", part: "parameter \(key)", fail: fail)
            switch key {
            case "host":
                guard value.hasPrefix("/") else { throw fail("the host parameter '\(value)' must be an absolute socket folder") }
                socketDirectory = value.count > 1 && value.hasSuffix("/") ? String(value.dropLast()) : value
            case "port":
                guard let number = Int(value), (1...65535).contains(number) else { throw fail("the port parameter '\(value)' is not a port number") }
                self.port = number
            case "user": user = value
            case "password": password = value
            case "dbname": path = Substring(value)
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else {
                    throw fail("sslmode '\(value)' is not one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                tls = mode
            default:
                throw fail("unsupported parameter '\(key)' (supported: host, port, user, password, dbname, sslmode)")
            }
        }
        if socketDirectory != nil { tls = .disable }
        guard !self.host.isEmpty || socketDirectory != nil else {
            throw fail("no host: give one (postgres://user@host/database) or a socket folder (?host=/var/run/postgresql)")
        }
        let environment = ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 }
        self.user = user.flatMap { $0.isEmpty ? nil : $0 } ?? environment ?? "postgres"
        let database = try Self.decoded(path, part: "database name", fail: fail)
        guard !database.contains("/") else { throw fail("the database name '\(database)' contains '/'") }
        self.database = database.isEmpty ? self.user : database
    }

    /// The host and optional port of `host[:port]` or `[v6-address][:port]`.
    private static func hostAndPort(_ authority: Substring, fail: (String) -> ParseError) throws -> (String, Int?) {
        var host = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw fail("the IPv6 address '\(authority)' lacks its ']'") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail("unexpected '\(after)' after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard let portText else { return (String(host), nil) }
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw fail("the port '\(portText)' is not a number from 1 to 65535")
        }
        return (String(host), port)
    }

    private static func decoded(_ text: Substring, part: String, fail: (String) -> ParseError) throws -> String {
        guard let value = String(text).removingPercentEncoding else { throw fail("the \(part) has a bad percent-escape") }
        return value
    }

    /// The URL with the password hidden, for logs and messages.
    public var description: String {
        var text = "postgres://\(user)\(password == nil ? "" : ":***")@"
        text += host.contains(":") ? "[\(host)]" : host
        text += socketDirectory == nil ? ":\(port)/\(database)" : "/\(database)?host=\(socketDirectory!)&port=\(port)"
        return text
    }

    /// `url` with whatever sits between `://` and `@` after a `:` replaced by `***`.
    static func redacted(_ url: String) -> String {
        guard let start = url.range(of: "://"), let at = url[start.upperBound...].lastIndex(of: "@"),
              let colon = url[start.upperBound..<at].firstIndex(of: ":") else { return url }
        return String(url[..<url.index(after: colon)]) + "***" + String(url[at...])
    }
}
