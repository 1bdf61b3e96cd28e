@testable import DarkroomCatalog
import DarkroomCore
import DarkroomReport
import DarkroomStages
import DarkroomTestSupport
import Foundation
import Synchronization
import XCTest

/// Issue 25: the gallery remembers what it made of each month, and from what (the photos, their
/// catalog revisions, their files' folders): a run reads from the catalog only the months where one
/// of those changed, and shows the change there; the other months are not read at all.
final class RememberedMonthsTests: XCTestCase {
    func testOnlyTheMonthWhoseCatalogEntriesOrFilesChangedIsReadAgain() throws {
        let fixture = try GalleryFixture("gallery-remembered")
        let march = try fixture.photo("A1.JPG", exif: ["-DateTimeOriginal=2024:03:01 10:00:00"])
        try fixture.photo("A2.JPG", exif: ["-DateTimeOriginal=2024:03:02 10:00:00"])
        let april = try fixture.photo("B1.JPG", exif: ["-DateTimeOriginal=2024:04:01 10:00:00"])
        try fixture.importCard()
        let first = try galleryRun(fixture)
        XCTAssertEqual(first.monthsRead, 2, "the first gallery reads both months")

        let again = try galleryRun(fixture)
        XCTAssertEqual(again.monthsRead, 0, "nothing new: no month is read")
        XCTAssertEqual(again.report.published, [])

        // A Live Photo's video joined to the April photo in the catalog: April is read and shows it; March is not read.
        try fixture.livePhotoVideo(of: april)
        let joined = try galleryRun(fixture)
        XCTAssertEqual(joined.monthsRead, 1)
        XCTAssertEqual(joined.report.published, ["gallery/2024-04.html"])
        let aprilID = try GalleryFixture.id(of: april)
        XCTAssertTrue(try fixture.page("2024-04.html").contains("2024/04/\(aprilID).mov"), "the motion part is linked")

        // March's first thumbnail removed by hand (no catalog change): its folder changed, so March is
        // read, and the larger rendition stands in for it, on March's page and as its cover on the index.
        let marchID = try GalleryFixture.id(of: march)
        try FileManager.default.removeItem(at: fixture.library.appendingPathComponent("Thumbnails/2024/03/\(marchID).jpg"))
        let removed = try galleryRun(fixture)
        XCTAssertEqual(removed.monthsRead, 1)
        XCTAssertEqual(removed.report.published, ["gallery/2024-03.html", "gallery/index.html"])
        XCTAssertTrue(try fixture.page("2024-03.html").contains("src=\"large/2024/03/\(marchID).jpg\""))
        XCTAssertTrue(try fixture.page("index.html").contains("large/2024/03/\(marchID).jpg"))

        // A page file removed: its month is read again to make it, as it was.
        let aprilPage = try fixture.page("2024-04.html")
        try FileManager.default.removeItem(at: fixture.gallery.appendingPathComponent("2024-04.html"))
        let restored = try galleryRun(fixture)
        XCTAssertEqual(restored.monthsRead, 1)
        XCTAssertEqual(restored.report.published, ["gallery/2024-04.html"])
        XCTAssertEqual(try fixture.page("2024-04.html"), aprilPage)

        XCTAssertEqual(try galleryRun(fixture).monthsRead, 0, "nothing new again")
    }

    /// `--force` makes every page from its month read again, whatever is remembered.
    func testForceReadsEveryMonth() throws {
        let fixture = try GalleryFixture("gallery-remembered-force")
        try fixture.photo("A1.JPG", exif: ["-DateTimeOriginal=2024:03:01 10:00:00"])
        try fixture.photo("B1.JPG", exif: ["-DateTimeOriginal=2024:04:01 10:00:00"])
        try fixture.importCard()
        _ = try galleryRun(fixture)
        let forced = try galleryRun(fixture, force: true)
        XCTAssertEqual(forced.monthsRead, 2)
        XCTAssertEqual(forced.report.failures, [])
    }

    /// Runs the shipped gallery pipeline over the library as `GalleryFixture.makeGallery` does, and
    /// counts the months whose photos it read from the catalog (each month's one lookup of motion parts).
    private func galleryRun(_ fixture: GalleryFixture, force: Bool = false) throws -> (report: RunReport, monthsRead: Int) {
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry)
            .load(path: GalleryFixture.repository.appendingPathComponent("pipelines/gallery.yaml").path)
        let settings = RunSettings(library: fixture.library, timeZone: TimeZone(identifier: "Europe/Paris")!, jobs: 2, force: force)
        let statements = Mutex<[String]>([])
        let report = try Runner(pipeline: pipeline, settings: settings).run(inputs: fixture.galleryInputs) {
            let catalog = try Catalog(library: fixture.library)
            catalog.traceStatements { statement in statements.withLock { $0.append(statement) } }
            return catalog
        }
        XCTAssertEqual(report.failures, [])
        return (report, statements.withLock { $0.count { $0.contains("motion_of IN") } })
    }
}
