import DarkroomQueue
import XCTest

final class PostgresLocationTests: XCTestCase {
    func testFullURL() throws {
        let location = try PostgresLocation("postgres://darkroom:s%40cret@db.example.org:6543/fleet")
        XCTAssertEqual(location.user, "darkroom")
        XCTAssertEqual(location.password, "s@cret")
        XCTAssertEqual(location.host, "db.example.org")
        XCTAssertEqual(location.port, 6543)
        XCTAssertEqual(location.database, "fleet")
        XCTAssertNil(location.socketPath)
        XCTAssertEqual(location.tls, .prefer)
    }

    func testDefaults() throws {
        let location = try PostgresLocation("postgresql://worker@10.0.0.5/catalog")
        XCTAssertEqual(location.port, 5432)
        XCTAssertNil(location.password)
        let anonymous = try PostgresLocation("postgres://10.0.0.5")
        XCTAssertEqual(anonymous.user, ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "postgres")
        XCTAssertEqual(anonymous.database, anonymous.user, "the database defaults to the user, as in libpq")
    }

    func testUnixSocketAndParameters() throws {
        let socket = try PostgresLocation("postgres://postgres@/darkroom?host=/var/run/postgresql/&port=5433")
        XCTAssertEqual(socket.socketPath, "/var/run/postgresql/.s.PGSQL.5433")
        XCTAssertEqual(socket.tls, .disable)
        let v6 = try PostgresLocation("postgres://u@[::1]:7000/db?sslmode=verify-full")
        XCTAssertEqual(v6.host, "::1")
        XCTAssertEqual(v6.port, 7000)
        XCTAssertEqual(v6.tls, .verifyFull)
    }

    func testDescriptionHidesThePassword() throws {
        let location = try PostgresLocation("postgres://darkroom:hunter2@db:5432/fleet")
        XCTAssertEqual(location.description, "postgres://darkroom:***@db:5432/fleet")
        XCTAssertFalse("\(location)".contains("hunter2"))
    }

    func testBadURLsNameTheBadPart() {
        let cases: [(String, String)] = [
            ("mysql://u@h/db", "the scheme is 'mysql'"),
            ("db.example.org:5432/fleet", "expected postgres://"),
            ("postgres://u@h:port/db", "the port 'port'"),
            ("postgres://u@h:70000/db", "the port '70000'"),
            ("postgres://u@/db", "no host"),
            ("postgres://u@h/db?application_name=x", "unsupported parameter 'application_name'"),
            ("postgres://u@h/db?sslmode=always", "sslmode 'always'"),
            ("postgres://u@[::1/db", "lacks its ']'"),
            ("postgres://u@h/db?host=relative/dir", "must be an absolute socket folder"),
            ("postgres://u:p%zz@h/db", "the password has a bad percent-escape"),
        ]
        for (url, expected) in cases {
            XCTAssertThrowsError(try PostgresLocation(url), url) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(url): \(error)")
            }
        }
        XCTAssertThrowsError(try PostgresLocation("postgres://u:topsecret@h:x/db")) { error in
            XCTAssertFalse("\(error)".contains("topsecret"), "an error must not print the password: \(error)")
        }
    }

    func testConnectionFailureSaysWhereAndWhy() throws {
        let location = try PostgresLocation("postgres://nobody:pw@127.0.0.1:1/none?sslmode=disable")
        XCTAssertThrowsError(try PostgresSession(location)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("cannot connect to PostgreSQL at postgres://nobody:***@127.0.0.1:1/none: "), text)
            XCTAssertFalse(text.contains("pw@"), text)
        }
    }
}
