import DarkroomTestSupport
import Foundation
import XCTest

/// Issue 25: each gallery file is recorded as a group of the step, keyed by what it is made from. A
/// run with nothing new makes no page again (each file's unit keeps the run that made it); a page
/// file that left the library, or a catalog fact a page shows, makes that page again, and only it.
final class UnchangedPagesTests: XCTestCase {
    /// Each gallery file's unit and the run that recorded it: `2024-03.html 4`.
    func madeBy(_ fixture: GalleryFixture) throws -> [String: String] {
        let catalog = fixture.library.appendingPathComponent(".darkroom/catalog.sqlite").path
        let lines = try Fixtures.run("sqlite3", [catalog, "SELECT substr(step, length('gallery/gallery#') + 1) || ' ' || run_id FROM units "
                                                  + "WHERE step LIKE 'gallery/gallery#%' ORDER BY step"])
        return Dictionary(uniqueKeysWithValues: lines.split(separator: "\n").map {
            let parts = $0.split(separator: " ")
            return (String(parts[0]), String(parts[1]))
        })
    }

    func testOnlyThePagesWhoseFilesOrFactsChangedAreMadeAgain() throws {
        let fixture = try GalleryFixture("gallery-unchanged")
        try fixture.photo("A1.JPG", exif: ["-DateTimeOriginal=2024:03:01 10:00:00"])
        try fixture.photo("A2.JPG", exif: ["-DateTimeOriginal=2024:03:02 10:00:00"])
        let april = try GalleryFixture.id(of: try fixture.photo("B1.JPG", exif: ["-DateTimeOriginal=2024:04:01 10:00:00"]))
        try fixture.importCard()
        try fixture.makeGallery()
        let first = try madeBy(fixture)
        XCTAssertEqual(Set(first.keys), ["2024-03.html", "2024-04.html", "index.html", "darkroom.css", "darkroom.js"])
        XCTAssertEqual(Set(first.values).count, 1, "one run made them all: \(first)")
        let march = try fixture.page("2024-03.html")

        // Nothing new: no page is made again, nothing is written.
        let again = try fixture.makeGallery()
        XCTAssertEqual(again.published, [])
        XCTAssertEqual(try madeBy(fixture), first, "every file's unit is the first run's")

        // A page file removed: that page is made again, as it was; the others are not.
        try FileManager.default.removeItem(at: fixture.gallery.appendingPathComponent("2024-03.html"))
        let restored = try fixture.makeGallery()
        XCTAssertEqual(restored.published, ["gallery/2024-03.html"])
        XCTAssertEqual(try fixture.page("2024-03.html"), march)
        let afterRestore = try madeBy(fixture)
        XCTAssertNotEqual(afterRestore["2024-03.html"], first["2024-03.html"], "March was made again")
        XCTAssertEqual(afterRestore.filter { $0.key != "2024-03.html" }, first.filter { $0.key != "2024-03.html" })

        // A fact the April page shows changes in the catalog: April is made again and written; the
        // index (which does not show cameras) is made again but its bytes are the same, so kept.
        let catalog = fixture.library.appendingPathComponent(".darkroom/catalog.sqlite").path
        _ = try Fixtures.run("sqlite3", [catalog, "UPDATE assets SET camera = 'Darkroom Test Camera' WHERE lower(id) = '\(april)'"])
        XCTAssertFalse(try fixture.page("2024-04.html").contains("Darkroom Test Camera"))
        let changed = try fixture.makeGallery()
        XCTAssertEqual(changed.published, ["gallery/2024-04.html"])
        XCTAssertTrue(try fixture.page("2024-04.html").contains("Darkroom Test Camera"))
        let afterChange = try madeBy(fixture)
        XCTAssertEqual(afterChange["2024-03.html"], afterRestore["2024-03.html"], "March is left alone")
        XCTAssertNotEqual(afterChange["2024-04.html"], afterRestore["2024-04.html"])
        XCTAssertEqual(afterChange["darkroom.css"], first["darkroom.css"])

        // And nothing new again: nothing made, nothing written.
        XCTAssertEqual(try fixture.makeGallery().published, [])
        XCTAssertEqual(try madeBy(fixture), afterChange)
    }
}
