import Foundation

/// A fresh, uniquely named database on the test server at `$DARKROOM_TEST_POSTGRES` (which
/// `scripts/test.sh` starts and sets), made and dropped with `psql` so that this target does not
/// link a PostgreSQL driver.
///
/// Without the variable, `init` throws: a queue test must fail, not skip, when it cannot run.
public final class PostgresTestDatabase {
    /// The new database's URL.
    public let url: String
    /// The new database's name.
    public let name: String
    private let serverURL: String

    /// Why a test database could not be made.
    public struct Unavailable: Error, CustomStringConvertible {
        /// What is missing, and how to get it.
        public var description: String
    }

    /// The environment variable holding the test server's URL.
    public static let environmentVariable = "DARKROOM_TEST_POSTGRES"

    /// Creates the database.
    public init() throws {
        guard let server = ProcessInfo.processInfo.environment[Self.environmentVariable], !server.isEmpty else {
            throw Unavailable(description: """
                \(Self.environmentVariable) is not set: run the tests through scripts/test.sh, which starts a private \
                PostgreSQL server (scripts/postgres-test-server.sh start) and sets it
                """)
        }
        guard var components = URLComponents(string: server) else {
            throw Unavailable(description: "\(Self.environmentVariable)=\(server) is not a URL")
        }
        serverURL = server
        name = "darkroom_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        components.path = "/" + name
        url = components.string!
        try Self.psql(server, "CREATE DATABASE \(name)")
    }

    /// Drops the database, closing whatever connections are left on it.
    public func drop() {
        try? Self.psql(serverURL, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Runs one SQL command through `psql`, returning its unaligned output.
    @discardableResult
    public static func psql(_ url: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", url, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch {
            throw Unavailable(description: "cannot run psql (install postgresql-client: scripts/setup.sh --tests): \(error)")
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Unavailable(description: "psql \(url) -c \"\(sql)\" failed: \(problem.trimmingCharacters(in: .whitespacesAndNewlines))"
                              + " (is the test server running? scripts/postgres-test-server.sh start)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
