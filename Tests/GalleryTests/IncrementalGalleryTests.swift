import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest
import DarkroomModel

/// A run after an import rewrites only the pages that changed and makes larger renditions only of
/// the new photos; what other pipelines made is listed.
final class IncrementalGalleryTests: XCTestCase {
    func stamp(_ fixture: GalleryFixture, _ name: String) throws -> [Int64] {
        let info = try XCTUnwrap(FileInfo(path: fixture.gallery.appendingPathComponent(name).path), "no \(name)")
        return [Int64(bitPattern: info.id.inode), info.modificationNanoseconds]
    }

    func testAddingPhotosRewritesOnlyTheirMonthAndTheIndex() throws {
        let fixture = try GalleryFixture("gallery-incremental")
        try fixture.photo("A1.JPG", exif: ["-DateTimeOriginal=2024:03:01 10:00:00"])
        try fixture.photo("A2.JPG", exif: ["-DateTimeOriginal=2024:03:02 10:00:00"])
        try fixture.photo("B1.JPG", exif: ["-DateTimeOriginal=2024:04:01 10:00:00"])
        try fixture.importCard()
        let first = try fixture.makeGallery()
        XCTAssertEqual(first.processed, 3, "a larger rendition of each photo")
        let files = ["2024-03.html", "2024-04.html", "index.html", "darkroom.css", "darkroom.js"]
        XCTAssertEqual(Set(first.published.filter { $0.hasPrefix("gallery/") && !$0.hasPrefix("gallery/large/") }),
                       Set(files.map { "gallery/" + $0 }))
        let before = try files.map { try stamp(fixture, $0) }

        usleep(20_000)
        let new = try fixture.photo("B2.JPG", exif: ["-DateTimeOriginal=2024:04:15 10:00:00"])
        try fixture.importCard()
        let second = try fixture.makeGallery()
        XCTAssertEqual(second.processed, 1, "only the new photo gets a larger rendition")
        XCTAssertEqual(second.skipped, 3)
        XCTAssertEqual(second.published.sorted(),
                       ["gallery/2024-04.html", "gallery/index.html", "gallery/large/2024/04/\(try GalleryFixture.id(of: new)).jpg"])
        let after = try files.map { try stamp(fixture, $0) }
        XCTAssertEqual(after[0], before[0], "March did not change: same inode, same modification time")
        XCTAssertEqual(after[3], before[3], "the stylesheet is kept")
        XCTAssertEqual(after[4], before[4], "the script is kept")
        XCTAssertNotEqual(after[1][0], before[1][0], "April is a new file, renamed into place")
        XCTAssertNotEqual(after[2][0], before[2][0])
        XCTAssertTrue(try fixture.page("2024-04.html").contains("p-\(try GalleryFixture.id(of: new))"))

        // Nothing new: the gallery step runs (what it shows comes from the catalog) and writes nothing.
        let third = try fixture.makeGallery()
        XCTAssertEqual(third.published, [])
        XCTAssertEqual(try files.map { try stamp(fixture, $0) }, after)
    }

    /// A photo given another date moves to its new month's page, and a photo whose file left the
    /// library leaves its page: those pages and the index are written again, and only they.
    func testARedatedPhotoMovesToItsNewMonthAndARemovedOneLeavesItsPage() throws {
        let fixture = try GalleryFixture("gallery-redated")
        try fixture.photo("A1.JPG", exif: ["-DateTimeOriginal=2024:03:01 10:00:00"])
        let moved = try GalleryFixture.id(of: try fixture.photo("A2.JPG", exif: ["-DateTimeOriginal=2024:03:02 10:00:00"]))
        let removed = try GalleryFixture.id(of: try fixture.photo("B1.JPG", exif: ["-DateTimeOriginal=2024:04:01 10:00:00"]))
        try fixture.photo("B2.JPG", exif: ["-DateTimeOriginal=2024:04:02 10:00:00"])
        try fixture.importCard()
        try fixture.makeGallery()

        let setDate = try DarkroomCommand(workingDirectory: GalleryFixture.repository)
            .run(["catalog", "set-date", moved, "2024-05-15T12:00", "--library", fixture.library.path])
        XCTAssertEqual(setDate.status, 0, setDate.err)
        let redated = try fixture.makeGallery()
        XCTAssertEqual(redated.published.sorted(), ["gallery/2024-03.html", "gallery/2024-04.html", "gallery/2024-05.html", "gallery/index.html"],
                       "March loses it, May has it, April's pager leads to May, the index counts it there")
        XCTAssertFalse(try fixture.page("2024-03.html").contains("p-\(moved)"))
        XCTAssertTrue(try fixture.page("2024-05.html").contains("p-\(moved)"))

        try FileManager.default.removeItem(at: fixture.library.appendingPathComponent("Photos/2024/04/\(removed).heic"))
        let afterRemoval = try fixture.makeGallery()
        XCTAssertEqual(afterRemoval.published.sorted(), ["gallery/2024-04.html", "gallery/index.html"])
        XCTAssertFalse(try fixture.page("2024-04.html").contains("p-\(removed)"))
        XCTAssertEqual(try fixture.makeGallery().published, [], "nothing new after that")
    }

    /// Collages another pipeline made appear on made.html, and the index links to it.
    func testWhatOtherPipelinesMadeIsListed() throws {
        let fixture = try GalleryFixture("gallery-made")
        for day in 1...4 { try fixture.photo("M\(day).JPG", exif: ["-DateTimeOriginal=2024:05:0\(day) 10:00:00"]) }
        try fixture.importCard()
        let collage = try fixture.run(pipeline: "monthly-grid", inputs: [fixture.card])
        XCTAssertEqual(collage.failures, [])
        XCTAssertEqual(collage.published, ["collages/2024-05-grid.jpg"])
        try fixture.makeGallery()
        let made = try fixture.page("made.html")
        XCTAssertTrue(made.contains("<h2 id=\"pipeline-1\">monthly-grid</h2>"), made)
        let image = try XCTUnwrap(HTMLScan.tags("img", in: made).first)
        XCTAssertEqual(HTMLScan.attribute("src", of: image), "../collages/2024-05-grid.jpg")
        XCTAssertEqual(HTMLScan.attribute("width", of: image), "1080")
        XCTAssertEqual(HTMLScan.attribute("height", of: image), "1080")
        XCTAssertTrue(try fixture.page("index.html").contains("<a href=\"made.html\">1 collage, time-lapse or book made by other pipelines</a>"))
        XCTAssertFalse(made.contains("gallery/"), "the gallery does not list its own pages")
    }

    /// A photo whose thumbnail is gone is shown by its larger rendition; without either it is
    /// reported with the reason and left out, and the rest is shown.
    func testAPhotoWithoutItsThumbnailIsReported() throws {
        let fixture = try GalleryFixture("gallery-missing")
        try fixture.photo("K.JPG", exif: ["-DateTimeOriginal=2024:06:01 10:00:00"])
        let lost = try GalleryFixture.id(of: try fixture.photo("L.JPG", exif: ["-DateTimeOriginal=2024:06:02 10:00:00"]))
        try fixture.importCard()
        try FileManager.default.removeItem(at: fixture.library.appendingPathComponent("Thumbnails/2024/06/\(lost).jpg"))
        try fixture.makeGallery()
        XCTAssertTrue(try fixture.page("2024-06.html").contains("src=\"large/2024/06/\(lost).jpg\""), "the larger rendition stands in")

        let report = try fixture.run(yaml: """
            inputs: { include: ["**/*.heic"] }
            steps: [{ gallery: { folder: elsewhere, large: "nowhere/{id}.jpg" } }]
            """, inputs: fixture.galleryInputs)
        XCTAssertEqual(report.failures.count, 1, "\(report.failures)")
        XCTAssertEqual(report.failures.first?.path, fixture.library.appendingPathComponent("Photos/2024/06/\(lost).heic").path)
        XCTAssertEqual(report.failures.first?.reason, "left out of the gallery: no thumbnail (Thumbnails/2024/06/\(lost).jpg is missing); "
                       + "import it, or regenerate its thumbnails, first")
        let page = try String(contentsOf: fixture.library.appendingPathComponent("elsewhere/2024-06.html"), encoding: .utf8)
        XCTAssertEqual(HTMLScan.tags("a", in: page).count { $0.contains("class=\"tile") }, 1, page)
        XCTAssertFalse(page.contains(lost), page)
    }
}

/// The gallery learns a thumbnail's pixel size from its header once and the catalog remembers it by
/// the thumbnail's bytes: later runs take it from there and do not open the file.
final class RememberedThumbnailSizeTests: XCTestCase {
    func testAThumbnailsSizeIsReadOnceAndThenTakenFromTheCatalog() throws {
        let fixture = try GalleryFixture("gallery-sizes")
        let photo = try fixture.photo("A1.JPG", width: 480, height: 360, exif: ["-DateTimeOriginal=2024:03:01 10:00:00"])
        try fixture.importCard()
        _ = try fixture.makeGallery()
        let catalog = fixture.library.appendingPathComponent(".darkroom/catalog.sqlite").path
        let id = try GalleryFixture.id(of: photo)
        let thumbnail = "Thumbnails/2024/03/\(id).jpg"
        let sha = try Fixtures.run("sqlite3", [catalog, "SELECT sha256 FROM outputs WHERE path = '\(thumbnail)'"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try Fixtures.run("sqlite3", [catalog, "SELECT width || 'x' || height FROM image_sizes WHERE sha256 = '\(sha)'"])
                        .trimmingCharacters(in: .whitespacesAndNewlines), "200x150", "the thumbnail's size, as its header says")

        // A size remembered for the thumbnail's bytes is what the page shows when it is made again (its
        // file gone): the thumbnail is not read again.
        _ = try Fixtures.run("sqlite3", [catalog, "UPDATE image_sizes SET width = 123, height = 45 WHERE sha256 = '\(sha)'"])
        try FileManager.default.removeItem(at: fixture.gallery.appendingPathComponent("2024-03.html"))
        _ = try fixture.makeGallery()
        let tile = try XCTUnwrap(HTMLScan.tags("img", in: try fixture.page("2024-03.html")).first { $0.contains(id) })
        XCTAssertEqual([HTMLScan.attribute("width", of: tile), HTMLScan.attribute("height", of: tile)], ["123", "45"], tile)
    }
}
