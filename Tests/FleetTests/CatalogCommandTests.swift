import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest
import DarkroomLibrary

/// `darkroom catalog verify` and `rebuild` on a fleet's library (catalog in PostgreSQL) and on a
/// single machine's (SQLite, which verify only reads).
final class CatalogCommandTests: PostgresTestCase {
    func sql(_ query: String, in url: String? = nil) throws -> String {
        try PostgresTestDatabase.psql(url ?? database.url, query).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testVerifyReadsAPostgreSQLCatalogAndReportsDrift() throws {
        let fixture = try FleetFixture("verify-postgres", extra: 0)
        let library = fixture.folder.path("library")
        try fixture.darkroom(["run", fixture.pipeline("import-camera-roll"), "--input", fixture.roll.path, "--library", library.path,
                              "--catalog", database.url])
        let verify = ["catalog", "verify", "--library", library.path, "--catalog", database.url]
        let clean = try fixture.darkroom(verify)
        XCTAssertEqual(clean.out, "17 outputs checked: 0 missing, 0 changed, 0 untracked\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.appendingPathComponent(".darkroom/catalog.sqlite").path))

        // A file gone, one changed, one nobody made: exit 1, each named; $DARKROOM_CATALOG works too.
        let paths = try sql("SELECT path FROM outputs ORDER BY path").split(separator: "\n").map(String.init)
        try FileManager.default.removeItem(at: library.appendingPathComponent(paths[0]))
        try Data("not a photo".utf8).write(to: library.appendingPathComponent(paths[1]))
        try Data("stray".utf8).write(to: library.appendingPathComponent("stray.txt"))
        let runs = try sql("SELECT count(*) FROM runs")
        let drift = try fixture.darkroom(["catalog", "verify", "--library", library.path],
                                         environment: ["DARKROOM_CATALOG": database.url], expecting: 1)
        XCTAssertEqual(drift.out, """
            17 outputs checked: 1 missing, 1 changed, 1 untracked
              missing: \(paths[0])
              changed: \(paths[1])
              untracked: stray.txt

            """)
        XCTAssertEqual(try sql("SELECT count(*) FROM runs"), runs, "verify records no run")

        // Another library's catalog is refused; a database with no catalog is left as it was.
        let other = try fixture.darkroom(["catalog", "verify", "--library", fixture.folder.path("other").path, "--catalog", database.url],
                                         expecting: 2)
        XCTAssertTrue(other.err.contains("this database is the catalog of \(library.path)"), other.err)
        let empty = try PostgresTestDatabase()
        defer { empty.drop() }
        let none = try fixture.darkroom(["catalog", "verify", "--library", library.path, "--catalog", empty.url], expecting: 2)
        XCTAssertTrue(none.err.contains("the database holds no catalog yet"), none.err)
        XCTAssertEqual(try sql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", in: empty.url), "0",
                       "verify created no table")
    }

    func testVerifyLeavesASQLiteCatalogUntouched() throws {
        let fixture = try FleetFixture("verify-sqlite", extra: 0)
        let library = fixture.folder.path("library")
        try fixture.darkroom(["run", fixture.pipeline("import-camera-roll"), "--input", fixture.roll.path, "--library", library.path])
        let catalog = library.appendingPathComponent(".darkroom/catalog.sqlite")
        let before = try Data(contentsOf: catalog)
        let modified = try FileManager.default.attributesOfItem(atPath: catalog.path)[.modificationDate] as? Date

        // Verify opens the catalog read-only (as the shards of a sweep do): nothing in it changes.
        let clean = try fixture.darkroom(["catalog", "verify", "--library", library.path])
        XCTAssertEqual(clean.out, "17 outputs checked: 0 missing, 0 changed, 0 untracked\n")
        XCTAssertEqual(try Data(contentsOf: catalog), before, "the catalog's bytes are unchanged")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: catalog.path)[.modificationDate] as? Date, modified)

        let none = try fixture.darkroom(["catalog", "verify", "--library", fixture.folder.path("empty").path], expecting: 2)
        XCTAssertTrue(none.err.contains("has no catalog (.darkroom/catalog.sqlite)"), none.err)
    }

    func testRebuildRecordsALostPostgreSQLCatalogUnderTheLibraryLock() throws {
        let fixture = try FleetFixture("rebuild-postgres", extra: 0)
        let library = fixture.folder.path("library")
        let pipeline = fixture.pipeline("import-camera-roll")
        let run = ["run", pipeline, "--input", fixture.roll.path, "--library", library.path, "--catalog", database.url]
        try fixture.darkroom(run)
        let files = try FleetFixture.files(of: library)
        // The catalog is lost: a new, empty database.
        let fresh = try PostgresTestDatabase()
        defer { fresh.drop() }
        let rebuild = ["catalog", "rebuild", "--library", library.path, "--catalog", fresh.url]

        // Not while a run, a shard or a worker uses the library.
        do {
            let held = try LibraryLock(library: library, shared: true)
            let refused = try fixture.darkroom(rebuild, expecting: 2)
            XCTAssertTrue(refused.err.contains("is using the library"), refused.err)
            withExtendedLifetime(held) {}
        }
        XCTAssertEqual(try sql("SELECT to_regclass('outputs') IS NULL", in: fresh.url), "t", "nothing written while refused")

        let rebuilt = try fixture.darkroom(rebuild)
        XCTAssertTrue(rebuilt.out.hasPrefix("recorded 17 files of 8 photos"), rebuilt.out)
        XCTAssertEqual(try sql("SELECT path || ' ' || sha256 FROM outputs ORDER BY path", in: fresh.url).split(separator: "\n").map(String.init),
                       files.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" })
        try fixture.darkroom(["catalog", "verify", "--library", library.path, "--catalog", fresh.url])
        // The next run adopts them: nothing is made again (the Live Photo's MOV, which a rebuild files
        // under its still's id, is copied again to the same bytes).
        let again = try fixture.darkroom(["run", pipeline, "--input", fixture.roll.path, "--library", library.path, "--catalog", fresh.url])
        XCTAssertTrue(again.out.hasPrefix("10 found: 9 processed"), again.out)
        XCTAssertEqual(try FleetFixture.files(of: library), files, "the same files, none made twice")
    }
}
