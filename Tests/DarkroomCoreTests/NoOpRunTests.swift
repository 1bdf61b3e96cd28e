@testable import DarkroomCatalog
import DarkroomCore
import DarkroomLibrary
import DarkroomTestSupport
import Foundation
import GRDB
import Synchronization
import XCTest

/// A re-run with nothing new reads the catalog in bulk: the statements it runs do not grow with the
/// number of files (one lookup a table for all their photos, and the files' remembered hashes and
/// the photos' units, outputs and facts once a block of 5,000),
/// so a nightly run over a library of 100,000 costs what one over 100 does, plus a `stat` a file.
final class NoOpRunTests: XCTestCase {
    func testANoOpReRunRunsAsManyCatalogStatementsForAThousandFilesAsForAHundred() throws {
        let hundred = try statementsOfNoOpRun(files: 100)
        let thousand = try statementsOfNoOpRun(files: 1000)
        XCTAssertEqual(thousand.skipped, 1000)
        XCTAssertEqual(hundred.skipped, 100)
        XCTAssertEqual(thousand.statements, hundred.statements,
                       "a no-op run over 1,000 files ran \(thousand.statements) statements, over 100 files \(hundred.statements):\n"
                       + thousand.sample.prefix(60).joined(separator: "\n"))
        // 40 at most: the bulk reads, each in a read transaction of its own, and the run's records.
        XCTAssertLessThanOrEqual(thousand.statements, 40, thousand.sample.prefix(60).joined(separator: "\n"))
    }

    /// A run reads its files' remembered hashes and its photos' units, outputs and facts a block at a
    /// time, so that it never holds 100,000 photos' of them: in blocks of 300, an import of 1,000 files
    /// makes every photo, and the re-run skips every file, reading each once a block. Only what pairing
    /// needs (three columns, no capture date) is read of every photo at once, for the survey.
    func testARunReadingAheadInBlocksMakesAndSkipsEveryFileReadingOnceABlock() throws {
        let whole = try statementsOfNoOpRun(files: 1000)
        let blocks = try statementsOfNoOpRun(files: 1000, photosReadAhead: 300)
        XCTAssertEqual(blocks.skipped, 1000)
        func reads(_ run: (statements: Int, skipped: Int, listed: Int, sample: [String]), _ select: String) -> Int {
            run.sample.count { $0.hasPrefix(select) }
        }
        let unitReads = "SELECT step, subject, unit_key, run_id FROM units WHERE subject IN"
        let hashReads = "SELECT path, size, mtime_ns, inode, content_hash FROM file_stats WHERE path IN"
        XCTAssertEqual(reads(whole, unitReads), 1, whole.sample.joined(separator: "\n"))
        XCTAssertEqual(reads(whole, hashReads), 1, whole.sample.joined(separator: "\n"))
        XCTAssertEqual(reads(blocks, unitReads), 4, "blocks of 300, 300, 300 and 100 photos:\n" + blocks.sample.joined(separator: "\n"))
        XCTAssertEqual(reads(blocks, hashReads), 4, "blocks of 300, 300, 300 and 100 files:\n" + blocks.sample.joined(separator: "\n"))
        let factReads = "SELECT \(AssetRow.columnList) FROM assets WHERE content_hash IN"
        let pairingReads = "SELECT content_hash, media_kind, content_identifier, motion_of FROM assets WHERE content_hash IN"
        XCTAssertEqual(reads(whole, factReads), 1, whole.sample.joined(separator: "\n"))
        XCTAssertEqual(reads(blocks, factReads), 4, "blocks of 300, 300, 300 and 100 photos:\n" + blocks.sample.joined(separator: "\n"))
        XCTAssertEqual(reads(blocks, pairingReads), 1, "the survey's, of every photo:\n" + blocks.sample.joined(separator: "\n"))
        // The report still lists every file with what was made of it, read a block at a time.
        XCTAssertEqual(blocks.listed, 1000)
    }

    /// A first import asks the catalog about its files and photos in bulk too: that it has nothing of
    /// them is remembered from the bulk lookups, not asked again a file. The only reads that grow
    /// with the files are each photo's commit's, inside its write: the photo's row and its outputs,
    /// which the commit merges into (two a photo).
    func testAFirstImportReadsTheCatalogAsManyTimesForAThousandFilesAsForAHundred() throws {
        func reads(files: Int) throws -> [String] {
            let run = try TextImport(files: files)
            let statements = Mutex<[String]>([])
            let report = try run.runner.run(inputs: [run.inputs]) {
                let catalog = try Catalog(library: run.library)
                catalog.traceStatements { statement in statements.withLock { $0.append(statement) } }
                return catalog
            }
            XCTAssertEqual(report.processed, files)
            return statements.withLock { $0 }.filter { $0.hasPrefix("SELECT") }
        }
        let hundred = try reads(files: 100), thousand = try reads(files: 1000)
        XCTAssertEqual(thousand.count - hundred.count, 2 * 900,
                       "a first import of 1,000 files read the catalog \(thousand.count) times, of 100 files \(hundred.count):\n"
                       + thousand.prefix(60).joined(separator: "\n"))
    }

    /// An import of `files` small dated text files into a library of their own.
    private struct TextImport {
        let runner: Runner, inputs: URL, library: URL
        /// Removed with the import.
        private let folder: TemporaryFolder

        init(files: Int, photosReadAhead: Int? = nil) throws {
            folder = try TemporaryFolder("noop-\(files)")
            inputs = folder.path("in")
            library = folder.path("library")
            for index in 0..<files {
                let url = inputs.appendingPathComponent(String(format: "%02d/file-%04d.txt", index % 10, index))
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data("2024-\(String(format: "%02d", index % 12 + 1))-05 photo \(index)".utf8).write(to: url)
            }
            let pipeline = try PipelineLoader(registry: testRegistry).load(yaml: """
                inputs: { include: ["**/*.txt"] }
                steps: [text-date, shout]
                """, file: "test.yaml")
            var settings = RunSettings(library: library, jobs: 2)
            if let photosReadAhead { settings.photosReadAhead = photosReadAhead }
            runner = Runner(pipeline: pipeline, settings: settings)
        }
    }

    /// Imports `files` small dated text files, then runs the same import again, counting the SQL
    /// statements the second run executes on the catalog (`sample`: each of them) and the files its
    /// report lists with what was made of them (`listed`).
    private func statementsOfNoOpRun(files: Int, photosReadAhead: Int? = nil) throws -> (statements: Int, skipped: Int, listed: Int, sample: [String]) {
        let run = try TextImport(files: files, photosReadAhead: photosReadAhead)
        let first = try run.runner.run(inputs: [run.inputs])
        XCTAssertEqual(first.processed, files)

        let statements = Mutex<[String]>([])
        let report = try run.runner.run(inputs: [run.inputs]) {
            let catalog = try Catalog(library: run.library)
            catalog.traceStatements { statement in statements.withLock { $0.append(statement) } }
            return catalog
        }
        XCTAssertEqual(report.processed, 0)
        let executed = statements.withLock { $0 }
        // Each file listed with its id and at least one file made of it.
        let listed = (report.files ?? []).count { !$0.outputs.isEmpty }
        return (executed.count, report.skipped, listed, executed)
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

/// The SQLite catalog's connections: one writer that commits durably, readers beside it.
final class CatalogConnectionTests: XCTestCase {
    func testTheWriterCommitsDurablyInWALAndReadsGoAlsoToConnectionsBesideIt() throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("connections-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: library) }
        let catalog = try Catalog(library: library)
        let writer = try catalog.database.writeWithoutTransaction { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        XCTAssertEqual(writer.0, "wal")
        XCTAssertEqual(writer.1, 2, "synchronous=FULL: a commit is on disk before the run says the photo is done")
        XCTAssertEqual(catalog.rows.concurrentReads, min(4, ProcessInfo.processInfo.activeProcessorCount), "reads on connections of their own too")
        XCTAssertEqual(try catalog.database.read { try Int.fetchOne($0, sql: "PRAGMA mmap_size") }, 1 << 30, "the writer reads through a memory map")
        var readersMaps: [Int?] = []
        catalog.readers?.inEach { db in readersMaps.append(try? Int.fetchOne(db, sql: "PRAGMA mmap_size")) }
        XCTAssertEqual(readersMaps, Array(repeating: 0, count: catalog.rows.concurrentReads - 1),
                       "the connections beside it map nothing: the catalog's pages count once in the process's memory, not once a connection")
        let readOnly = try XCTUnwrap(Catalog.openReadOnly(library: library))
        XCTAssertEqual(readOnly.rows.concurrentReads, 1, "a catalog opened only to read has one connection")
    }
}
