import DarkroomCore
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// Which photos go into which book, a layout file's cells, and photos that cannot be used.
final class BookContentTests: XCTestCase {
    let grey = Colour(red: 128, green: 128, blue: 128)

    func testOneBookPerYearWithinTheDates() throws {
        let fixture = try BookFixture()
        for (year, month, day) in [(2023, 6, 1), (2023, 12, 30), (2024, 1, 2), (2024, 2, 10), (2024, 3, 1)] {
            try fixture.photo(BookFixture.name("p", year, month: month, day: day), colour: grey)
        }
        let report = try fixture.run("group-by: year, from: 2023-12-01, to: 2024-02-29")
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(fixture.files(under: "books"), ["2023-photo-book.pdf", "2024-photo-book.pdf"])
        let first = PDFInspection(url: fixture.library.appendingPathComponent("books/2023-photo-book.pdf"))
        XCTAssertEqual(try first.images().count, 1, "June 2023 is before from")
        XCTAssertTrue(try first.text(page: 1).contains("2023"))
        let second = PDFInspection(url: fixture.library.appendingPathComponent("books/2024-photo-book.pdf"))
        XCTAssertEqual(try second.images().count, 2, "1 March is after to")
        XCTAssertTrue(try second.text(page: 1).contains("2 January 2024 – 10 February 2024"))
    }

    func testOneBookPerMonth() throws {
        let fixture = try BookFixture()
        for (month, day) in [(1, 5), (1, 20), (3, 1)] { try fixture.photo(BookFixture.name("p", month: month, day: day), colour: grey) }
        XCTAssertEqual(try fixture.run("group-by: month").failures, [])
        XCTAssertEqual(fixture.files(under: "books"), ["2024-01-photo-book.pdf", "2024-03-photo-book.pdf"])
    }

    func testALayoutFilePlacesPhotosInItsCells() throws {
        let fixture = try BookFixture()
        let layout = fixture.folder.path("feature.yaml").path
        try """
            # one large photo over two small ones
            name: feature
            cells:
              - { x: 0, y: 0, width: 1, height: 0.6 }
              - { x: 0, y: 0.65, width: 0.48, height: 0.35 }
              - { x: 0.52, y: 0.65, width: 0.48, height: 0.35 }
            """.write(toFile: layout, atomically: true, encoding: .utf8)
        let colours = [Colour(red: 255, green: 0, blue: 0), Colour(red: 0, green: 255, blue: 0), Colour(red: 0, green: 0, blue: 255), grey]
        for (day, colour) in colours.enumerated() {
            try fixture.photo(BookFixture.name("p", day: day + 1), colour: colour, width: 400, height: 300)
        }
        let book = try fixture.book("layout: \"\(layout)\", captions: false")
        XCTAssertEqual(try book.pageCount(), 1 + 2)
        XCTAssertEqual(try book.images().map(\.page), [2, 2, 2, 3])
        // The page inside 15 mm margins is 180 x 267 mm.
        let mm = 72 / 25.4
        let page = try book.render(page: 2, to: fixture.folder.url)
        func at(_ x: Double, _ y: Double, _ expected: [Double], tolerance: Double = 30, _ what: String) throws {
            try assertColour(page, x: (15 + x * 180) * mm, y: (15 + y * 267) * mm, is: expected, tolerance: tolerance, what)
        }
        try at(0.5, 0.3, red, "the large cell")
        try at(0.24, 0.82, green, "bottom left")
        try at(0.76, 0.82, blue, "bottom right")
        try at(0.5, 0.82, white, tolerance: 2, "between the small cells")
    }

    func testABrokenPhotoIsReportedAndTheNextTakesItsPlace() throws {
        let fixture = try BookFixture()
        for day in [1, 3, 4] { try fixture.photo(BookFixture.name("good", day: day), colour: grey, width: 400, height: 300) }
        let whole = try fixture.truncatedPhoto(BookFixture.name("broken", day: 2))
        let report = try fixture.run()
        XCTAssertEqual(report.failures.count, 1, "\(report.failures)")
        let failure = try XCTUnwrap(report.failures.first)
        XCTAssertEqual(failure.path, whole.path)
        XCTAssertEqual(failure.step, "photo-book")
        XCTAssertTrue(failure.reason.hasPrefix("left out of the photo book: cannot decode image"), failure.reason)
        let book = PDFInspection(url: fixture.library.appendingPathComponent("books/2024-photo-book.pdf"))
        XCTAssertEqual(try book.images().map(\.page), [2, 2, 3], "no hole where the broken photo was")
        XCTAssertTrue(try book.text(page: 2).contains("3 January 2024"))
    }

    func testABookWhosePhotosAllFailIsNotWritten() throws {
        let fixture = try BookFixture()
        let url = try fixture.truncatedPhoto(BookFixture.name("broken", day: 2))
        let report = try fixture.run()
        XCTAssertEqual(report.failures.map(\.path), [url.path, "all"])
        XCTAssertTrue(report.failures[1].reason.contains("none of the 1 photos of the book could be decoded"), report.failures[1].reason)
        XCTAssertEqual(fixture.files(under: "books"), [], "no partial book")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.library.appendingPathComponent(".darkroom/tmp").path)
        XCTAssertEqual(leftovers, [], "no temp file left behind")
    }

    func testVideosArePassedOver() throws {
        let fixture = try BookFixture()
        try fixture.photo(BookFixture.name("photo", day: 1), colour: grey)
        try Fixtures.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=5", "-t", "0.4", "-pix_fmt", "yuv420p",
                                    fixture.photos.appendingPathComponent(BookFixture.name("clip", day: 2, ext: "mp4")).path])
        let book = try fixture.book()
        XCTAssertEqual(try book.images().count, 1)
        XCTAssertEqual(try book.pageCount(), 2)
    }
}
