import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// `set-date --catalog postgres://...`: a fleet's library, its catalog in PostgreSQL, corrected the same way.
final class PostgresSetDateTests: PostgresTestCase {
    func sql(_ query: String) throws -> String {
        try PostgresTestDatabase.psql(database.url, query).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testMovesTheFilesAndRecordsTheUsersDateInPostgreSQL() throws {
        let fixture = try LibraryFixture("set-date-postgres")
        let wrong = try fixture.photo("a.jpg", date: "2024:05:03 12:30:00", seed: 41)
        try fixture.photo("b.jpg", date: "2024:05:04 08:00:00", seed: 42)
        let catalog = ["--catalog", database.url]
        let imported = try fixture.command.run(["run", fixture.pipelineFile.path, "--input", fixture.roll.path,
                                                "--library", fixture.library.path] + catalog)
        XCTAssertEqual(imported.status, 0, imported.err)
        let id = try sql("SELECT id FROM assets WHERE original_path = '\(wrong.path)'").lowercased()
        XCTAssertEqual(id.count, 36, "the photo is in the PostgreSQL catalog")
        let before = ["Photos/2024/05/\(id).heic", "Thumbnails/2024/05/\(id).jpg"]
        let after = ["Photos/2019/06/\(id).heic", "Thumbnails/2019/06/\(id).jpg"]
        XCTAssertEqual(try fixture.libraryFiles().filter { $0.contains(id) }, before)

        let result = try fixture.setDate([wrong.path, "2019-06-15T12:00"] + catalog)
        XCTAssertEqual(result.status, 0, result.err + result.out)
        XCTAssertTrue(result.out.hasSuffix("1 photo re-dated, 0 already so, 0 failed; 2 files moved\n"), result.out)
        XCTAssertEqual(try fixture.libraryFiles().filter { $0.contains(id) }, after, "moved, the old files gone")
        XCTAssertEqual(try sql("SELECT path FROM outputs WHERE path LIKE '%\(id)%' ORDER BY path"), after.joined(separator: "\n"))
        XCTAssertEqual(try sql("SELECT capture_source || ' ' || capture_local FROM assets WHERE lower(id) = '\(id)'"),
                       "user 2019-06-15T12:00:00")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.library.appendingPathComponent(".darkroom/catalog.sqlite").path),
                       "no SQLite catalog was made beside it")
        let verify = try fixture.command.run(["catalog", "verify", "--library", fixture.library.path] + catalog)
        XCTAssertEqual(verify.status, 0, verify.out)
        XCTAssertEqual(verify.out, "4 outputs checked: 0 missing, 0 changed, 0 untracked\n")

        // A re-import with --force re-reads the EXIF and keeps the user's date.
        let forced = try fixture.command.run(["run", fixture.pipelineFile.path, "--input", fixture.roll.path,
                                              "--library", fixture.library.path, "--force"] + catalog)
        XCTAssertEqual(forced.status, 0, forced.err)
        XCTAssertEqual(try sql("SELECT capture_source || ' ' || capture_local FROM assets WHERE lower(id) = '\(id)'"),
                       "user 2019-06-15T12:00:00")
        XCTAssertEqual(try fixture.libraryFiles().filter { $0.contains(id) }, after)
    }
}
