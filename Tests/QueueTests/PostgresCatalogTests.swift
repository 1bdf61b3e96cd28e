import DarkroomCore
import DarkroomCatalog
import DarkroomQueue
import Foundation
import XCTest
import DarkroomModel

final class PostgresCatalogTests: QueueTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("queue-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    func testBehavesLikeTheSQLiteCatalog() throws {
        let sqlite = try CatalogFixtures.transcript(Catalog(library: folder))
        let postgres = try CatalogFixtures.transcript(PostgresCatalog(session: session, library: folder))
        XCTAssertEqual(postgres, sqlite)
        // The transcript itself, so that both cannot agree on something wrong.
        XCTAssertEqual(Array(sqlite.prefix(3)), ["cached before: nil", "cached: \(ContentHash.of("photo one"))", "cached other inode: nil"])
        XCTAssertTrue(sqlite.contains("orphans: [\"Photos/orphan.heic\"]"), "\(sqlite)")
        XCTAssertTrue(sqlite.contains("orphans again: []"), "\(sqlite)")
        XCTAssertTrue(sqlite.contains("stale 2: [\"Thumbnails/one.jpg\"]"), "\(sqlite)")
        XCTAssertTrue(sqlite.contains("units: [\"heic=k1\", \"thumb=k3\"]"), "\(sqlite)")
        XCTAssertTrue(sqlite.contains("own units: [\"\(ContentHash.of("photo one"))\": [\"thumb=k3\"]]"), "\(sqlite)")
        XCTAssertTrue(sqlite.contains("own outputs: [\"\(ContentHash.of("photo one"))\": [\"Thumbnails/one-400.jpg\"]]"), "\(sqlite)")
        XCTAssertTrue(sqlite.contains { $0.hasPrefix("facts: 2024-05-03T12:30:00+02:00") && $0.hasSuffix("4000x3000") }, "\(sqlite)")
        XCTAssertTrue(sqlite.contains("adopted: 1"), "\(sqlite)")
        XCTAssertTrue(sqlite.contains("rebuilt outputs: [\"Photos/two.heic\"]"), "\(sqlite)")
        XCTAssertTrue(sqlite.contains("retired: [\"Thumbnails/live.jpg\", \"Videos/live.mov\"]"), "\(sqlite)")
        XCTAssertTrue(sqlite.contains("joined units: [\"motion=m1\"]"), "\(sqlite)")
        XCTAssertTrue(sqlite.contains("video facts: video 8D3C-LIVE true"), "\(sqlite)")
        // What a survey pairs by: the still's identifier, the video's still; nothing of a photo it does not know.
        XCTAssertTrue(sqlite.contains(#"pairing facts: ["photo photo - motion-of-still:false", "still photo 8D3C-LIVE motion-of-still:false", "video video 8D3C-LIVE motion-of-still:true"]"#),
                      "\(sqlite)")
        // What a gallery reads: every fact of each asset, outputs by subject, motion parts, collections.
        let assets = try XCTUnwrap(sqlite.first { $0.hasPrefix("assets: ") }, "\(sqlite)")
        XCTAssertTrue(assets.contains("photo photo id-ok:true 2024-05-03T12:30:00+02:00 (exif:DateTimeOriginal, tz: metadata) Pixel 8 4000x3000 o1 1234 - - -"), assets)
        XCTAssertTrue(assets.contains("still photo id-ok:true 2024-05-04T12:30:00+02:00 (exif:DateTimeOriginal, tz: metadata) Apple iPhone 13 4032x3024 o1 1234 48.8584,2.2945,35.0 - 8D3C-LIVE motion-of-still:false"), assets)
        XCTAssertTrue(assets.contains("video video id-ok:true 2024-05-01T12:30:00+02:00 (exif:DateTimeOriginal, tz: metadata) Apple iPhone 13 1080x1920 o0 99 - hevc 2.5s 10-bit hlg aac 8D3C-LIVE motion-of-still:true"), assets)
        XCTAssertFalse(assets.contains("unknown"), assets)
        XCTAssertTrue(sqlite.contains("outputs of: [\"Photos/live.heic heic still\", \"Photos/live.mov motion video\"]"), "\(sqlite)")
        XCTAssertTrue(sqlite.contains("motion parts of stills: [\"/card/IMG_1.MOV of-still:true\"]"), "\(sqlite)")
        XCTAssertTrue(sqlite.contains("collection outputs: [\"collages/2024-05-grid.jpg collection:monthly-grid/collage true\"]"), "\(sqlite)")
        XCTAssertTrue(sqlite.contains { $0.hasPrefix("by camera: [") && $0.contains("\"/card/IMG_1.MOV video\"")
                                        && $0.contains("\"/card/\(ContentHash.of("live still").prefix(6)).jpg photo\"") && $0.split(separator: ",").count == 2 },
                      "both, and not the Pixel's photo: \(sqlite)")
        XCTAssertTrue(sqlite.contains("by a folder's prefix: []"), "\(sqlite)")
        XCTAssertTrue(sqlite.contains("by path: [true]"), "\(sqlite)")
        XCTAssertTrue(sqlite.contains("motion parts: [\"/card/IMG_1.MOV\"]"), "\(sqlite)")
        XCTAssertTrue(sqlite.contains("read back whole: true"), "\(sqlite)")
        XCTAssertTrue(sqlite.contains { $0.hasPrefix("corrected facts: 2019-06-15T12:00:00+02:00 (user, tz: metadata; overrides 2024-05-04T12:30:00+02:00") },
                      "\(sqlite)")
        XCTAssertTrue(sqlite.contains { $0.hasPrefix("corrected: [") && $0.contains("Apple iPhone 13 GeoLocation(latitude: 48.8584") },
                      "a correction keeps every other fact: \(sqlite)")
        XCTAssertTrue(sqlite.contains("pipelines: [\"/library/pipelines/monthly-grid.yaml\", \"import.yaml\"]"), "\(sqlite)")
    }

    func testRecordsRunsAssetsAndEveryOutput() throws {
        let catalog = try PostgresCatalog(session: session, library: folder)
        _ = try CatalogFixtures.transcript(catalog)
        XCTAssertEqual(try catalog.allOutputs().map(\.path),
                       ["Photos/live.heic", "Photos/live.mov", "Photos/one.heic", "Photos/two.heic", "Thumbnails/one-400.jpg",
                        "collages/2024-05-grid.jpg"])
        XCTAssertEqual(try sql("SELECT status || ' ' || processed || ' ' || failed FROM runs WHERE pipeline = 'import.yaml'"), "failures 1 1")
        XCTAssertEqual(try sql("SELECT path || ' ' || step || ' ' || reason FROM failures"), "in/bad.jpg decode truncated")
        XCTAssertEqual(try sql("SELECT camera || ' ' || width || ' ' || capture_source FROM assets WHERE camera = 'Pixel 8'"),
                       "Pixel 8 4000 exif:DateTimeOriginal")
        XCTAssertEqual(try sql("""
            SELECT media_kind || ' ' || duration || ' ' || video_codec || ' ' || bit_depth || ' ' || hdr_transfer || ' ' || audio_codec
            FROM assets WHERE original_path = '/card/IMG_1.MOV'
            """), "video 2.5 hevc 10 hlg aac")
        XCTAssertEqual(try sql("SELECT latitude || ',' || longitude || ',' || altitude FROM assets WHERE content_identifier IS NOT NULL AND media_kind = 'photo'"),
                       "48.8584,2.2945,35")
    }

    func testADatabaseServesOneLibrary() throws {
        _ = try PostgresCatalog(session: session, library: folder)
        _ = try PostgresCatalog(session: try openSession(), library: URL(fileURLWithPath: folder.path + "/./"))
        let other = folder.appendingPathComponent("other")
        XCTAssertThrowsError(try PostgresCatalog(session: session, library: other)) { error in
            XCTAssertEqual("\(error)", "this database is the catalog of \(folder.standardizedFileURL.path), not \(other.path)")
        }
    }

    func testAPlainRunsRecoveryLeavesTheFilesOfJobsThatMayStillRun() throws {
        let catalog = try PostgresCatalog(session: session, library: folder)
        try queue.enqueue([job("running"), job("doomed", maxAttempts: 1)])
        let running = try XCTUnwrap(try queue.claim(worker: "w", lease: 30))
        let doomed = try XCTUnwrap(try queue.claim(worker: "w", lease: 30))
        let run = try catalog.beginRun(pipeline: "import.yaml")
        try catalog.forJob(running).markPending(["Photos/in-flight.heic"], run: run)
        try catalog.forJob(doomed).markPending(["Photos/left-by-a-failed-job.heic"], run: run)
        try catalog.markPending(["Photos/left-by-a-crash.heic"], run: run)
        XCTAssertEqual(try catalog.recoverPending(), ["Photos/left-by-a-crash.heic"])
        XCTAssertEqual(try queue.fail(doomed, error: "boom", backoff: 0), .failed)
        XCTAssertEqual(try catalog.recoverPending(), ["Photos/left-by-a-failed-job.heic"], "nobody will retry a failed job")
        XCTAssertEqual(try catalog.forJob(running).recoverPending(), ["Photos/in-flight.heic"])
    }
}
