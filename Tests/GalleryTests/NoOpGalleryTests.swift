@testable import DarkroomCatalog
import DarkroomCore
import DarkroomStages
import DarkroomTestSupport
import Foundation
import GRDB
import Synchronization
import XCTest

/// Issue 25: the gallery run again with nothing new reads the catalog in bulk, the survey's few
/// statements and the photos' revisions, and no month's photos (none changed: each month's pages
/// are known current from what the last run remembered), the same for 100 photos as for 1,000 in
/// the same months (a library of 100,000 costs what one of 100 does, plus its files' `stat`s), and
/// writes nothing.
final class NoOpGalleryTests: XCTestCase {
    func testTheGalleryAgainWithNothingNewRunsAsManyCatalogStatementsForAThousandPhotosAsForAHundred() throws {
        let hundred = try statementsOfNoOpGallery(photos: 100)
        let thousand = try statementsOfNoOpGallery(photos: 1000)
        XCTAssertEqual(thousand.statements, hundred.statements,
                       "the gallery with nothing new over 1,000 photos ran \(thousand.statements) statements, over 100 \(hundred.statements):\n"
                       + thousand.sample.joined(separator: "\n"))
        // The survey's reads, the photos' revisions, the run's own records: 61 statements, transactions counted, however many months.
        XCTAssertLessThan(thousand.statements, 80, thousand.sample.joined(separator: "\n"))
        // Every connection's statements are counted: the revisions are read, no month's motion parts or thumbnails' sizes.
        XCTAssertEqual(thousand.sample.count { $0.contains("FROM revisions") }, 1, thousand.sample.joined(separator: "\n"))
        XCTAssertEqual(thousand.sample.count { $0.contains("motion_of IN") || $0.contains("FROM image_sizes") }, 0,
                       thousand.sample.joined(separator: "\n"))
    }

    /// Imports `photos` small unique JPEGs (one picture with a different tail each, spread by file
    /// time over the 100 days from 1 January 2014: four months), makes the shipped gallery, then
    /// makes it again, counting the SQL statements the last run executes on the catalog.
    private func statementsOfNoOpGallery(photos: Int) throws -> (statements: Int, sample: [String]) {
        for tool in ["convert"] { try GalleryFixture.require(tool) }
        let folder = try TemporaryFolder("gallery-noop-\(photos)")
        let card = folder.path("card"), library = folder.path("library")
        try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
        let base = folder.path("base.jpg")
        try Fixtures.photo(base, width: 96, height: 64)
        let picture = try Data(contentsOf: base)
        let start = Date(timeIntervalSince1970: 1_388_534_400)  // 2014-01-01
        for index in 0..<photos {
            let url = card.appendingPathComponent(String(format: "IMG_%04d.jpg", index))
            try (picture + Data("darkroom-noop-\(index)".utf8)).write(to: url)
            try FileManager.default.setAttributes([.modificationDate: start.addingTimeInterval(Double(index) * 86_400 * 100 / Double(photos))], ofItemAtPath: url.path)
        }
        let settings = RunSettings(library: library, jobs: 2)
        let loader = PipelineLoader(registry: BuiltInStages.registry)
        let importer = try loader.load(yaml: """
            inputs: { include: ["**/*.jpg"] }
            steps:
              - exif-date: { fallback-to-file-time: true }
              - resize: { long-edge: 2048 }
              - heic-encode: { preset: ultrafast, output: "Photos/{yyyy}/{MM}/{id}.heic" }
              - thumbnail: { size: 200, output: "Thumbnails/{yyyy}/{MM}/{id}.jpg" }
            """, file: "import.yaml")
        let imported = try Runner(pipeline: importer, settings: settings).run(inputs: [card])
        XCTAssertEqual(imported.processed, photos, "\(imported.failures)")
        let gallery = Runner(pipeline: try loader.load(path: GalleryFixture.repository.appendingPathComponent("pipelines/gallery.yaml").path),
                                 settings: settings)
        let photosFolder = library.appendingPathComponent("Photos")
        let first = try gallery.run(inputs: [photosFolder])
        XCTAssertEqual(first.failures, [])
        XCTAssertEqual(first.processed, photos, "a larger rendition of each photo")

        let statements = Mutex<[String]>([])
        let again = try gallery.run(inputs: [photosFolder]) {
            let catalog = try Catalog(library: library)
            catalog.traceStatements { statement in statements.withLock { $0.append(statement) } }
            return catalog
        }
        XCTAssertEqual(again.failures, [])
        XCTAssertEqual(again.processed, 0)
        XCTAssertEqual(again.skipped, photos)
        XCTAssertEqual(again.published, [], "nothing new: no page is written")
        let executed = statements.withLock { $0 }
        return (executed.count, Array(executed.prefix(160)))
    }
}
