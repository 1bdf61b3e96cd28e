@testable import DarkroomCatalog
import DarkroomCore
import DarkroomTestSupport
import Foundation
import GRDB
import Synchronization
import XCTest

/// A re-run with nothing new reads the catalog in bulk: the statements it runs do not grow with the
/// number of files (one lookup for all the files' remembered hashes, one a table for all their photos),
/// so a nightly run over a library of 100,000 costs what one over 100 does, plus a `stat` a file.
final class NoOpRunTests: XCTestCase {
    func testANoOpReRunRunsAsManyCatalogStatementsForAThousandFilesAsForAHundred() throws {
        let hundred = try statementsOfNoOpRun(files: 100)
        let thousand = try statementsOfNoOpRun(files: 1000)
        XCTAssertEqual(thousand.skipped, 1000)
        XCTAssertEqual(hundred.skipped, 100)
        XCTAssertEqual(thousand.statements, hundred.statements,
                       "a no-op run over 1,000 files ran \(thousand.statements) statements, over 100 files \(hundred.statements):\n"
                       + thousand.sample.joined(separator: "\n"))
        XCTAssertLessThan(thousand.statements, 40, thousand.sample.joined(separator: "\n"))
    }

    /// Imports `files` small dated text files, then runs the same import again, counting the SQL
    /// statements the second run executes on the catalog.
    private func statementsOfNoOpRun(files: Int) throws -> (statements: Int, skipped: Int, sample: [String]) {
        let folder = try TemporaryFolder("noop-\(files)")
        let inputs = folder.path("in"), library = folder.path("library")
        for index in 0..<files {
            let url = inputs.appendingPathComponent(String(format: "%02d/file-%04d.txt", index % 10, index))
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("2024-\(String(format: "%02d", index % 12 + 1))-05 photo \(index)".utf8).write(to: url)
        }
        let pipeline = try PipelineLoader(registry: testRegistry).load(yaml: """
            inputs: { include: ["**/*.txt"] }
            steps: [text-date, shout]
            """, file: "test.yaml")
        let runner = Runner(pipeline: pipeline, settings: RunSettings(library: library, jobs: 2))
        let first = try runner.run(inputs: [inputs])
        XCTAssertEqual(first.processed, files)

        let statements = Mutex<[String]>([])
        let report = try runner.run(inputs: [inputs]) {
            let catalog = try Catalog(library: library)
            try catalog.database.inDatabase { db in
                db.trace(options: .statement) { event in statements.withLock { $0.append("\(event)") } }
            }
            return catalog
        }
        XCTAssertEqual(report.processed, 0)
        let executed = statements.withLock { $0 }
        return (executed.count, report.skipped, Array(executed.prefix(60)))
    }
}

/// The lists of keys a lookup binds as one JSON array reach SQLite whole, whatever their characters.
final class KeyListTests: XCTestCase {
    func testKeysWithQuotesBackslashesControlsAndAccentsComeBackAsThemselves() throws {
        let keys = ["/card/plain.jpg", "/card/say \"cheese\".jpg", "C:\\photos\\a.jpg", "/card/tab\there\nnewline.jpg", "/card/été 🌅.heic", ""]
        let json = SQLiteRowAccess.json(keys)
        XCTAssertEqual(try JSONDecoder().decode([String].self, from: Data(json.utf8)), keys)
        let database = try DatabaseQueue()
        let back = try database.read { db in try String.fetchAll(db, sql: "SELECT value FROM json_each(?)", arguments: [json]) }
        XCTAssertEqual(back, keys)
    }
}
