import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// The book as a reader sees it: page count and size, cover, captions, fonts.
final class BookStructureTests: XCTestCase {
    /// Its tests call the native wrappers directly, without a runner to start them (and the order tests run in varies with the build).
    override func setUpWithError() throws { try NativeLibraries.start() }

    /// Five photos on 5-9 January 2024, in another order by name.
    func fivePhotos(_ fixture: BookFixture) throws {
        for (index, day) in [7, 5, 9, 6, 8].enumerated() {
            try fixture.photo(BookFixture.name("p\(index)", day: day), colour: Colour(red: 200, green: 120, blue: 60))
        }
    }

    func testACoverThenPagesOfTheChosenSize() throws {
        let fixture = try BookFixture()
        try fivePhotos(fixture)
        // Each case: its options, the page count (a cover first), the page size, and the page of each photo.
        let cases: [(options: String, pages: Int, width: Double, height: Double, photoPages: [Int])] = [
            ("", 1 + 3, 595.3, 841.9, [2, 2, 3, 3, 4]),                                 // A4 portrait, 2 a page
            ("page-size: letter, photos-per-page: 4", 1 + 2, 612, 792, [2, 2, 2, 2, 3]),
            ("page-size: square, photos-per-page: 1", 1 + 5, 595.3, 595.3, [2, 3, 4, 5, 6]),  // 21 cm square
            ("orientation: landscape, photos-per-page: 4", 1 + 2, 841.9, 595.3, [2, 2, 2, 2, 3]),
        ]
        for (number, expected) in cases.enumerated() {
            let options = [expected.options, "output: 'books/\(number).pdf'"].filter { !$0.isEmpty }.joined(separator: ", ")
            let book = try fixture.book(options, at: "books/\(number).pdf")
            XCTAssertEqual(try book.pageCount(), expected.pages, expected.options)
            let size = try book.pageSize()
            XCTAssertEqual(size.width, expected.width, accuracy: 0.01, expected.options)
            XCTAssertEqual(size.height, expected.height, accuracy: 0.01, expected.options)
            XCTAssertEqual(try book.images().map(\.page), expected.photoPages, expected.options)
        }
    }

    func testEveryFontIsEmbeddedAsASubset() throws {
        let fixture = try BookFixture()
        try fivePhotos(fixture)
        let fonts = try fixture.book().fonts()
        XCTAssertFalse(fonts.isEmpty, "the cover and the captions have text")
        for font in fonts {
            XCTAssertTrue(font.embedded, "\(font.name) (\(font.type)) is not embedded")
            XCTAssertTrue(font.subset, "\(font.name) is embedded whole rather than as a subset")
        }
        XCTAssertTrue(fonts.contains { $0.name.hasSuffix("DejaVuSans-Bold") }, "the title's font: \(fonts.map(\.name))")
    }

    func testTheCoverShowsTheTitleAndDatesAndEachPhotoItsDate() throws {
        let fixture = try BookFixture()
        try fivePhotos(fixture)
        let book = try fixture.book("title: 'Garden {first-date:yyyy}'")
        let cover = try book.text(page: 1)
        XCTAssertTrue(cover.contains("Garden 2024"), cover)
        XCTAssertTrue(cover.contains("5 January 2024 – 9 January 2024"), cover)
        XCTAssertEqual(try book.info()["Title"], "Garden 2024")
        // Capture-date order, whatever the file names: 5 and 6 January on page 2.
        let second = try book.text(page: 2)
        XCTAssertTrue(second.contains("5 January 2024") && second.contains("6 January 2024"), second)
        XCTAssertLessThan(try XCTUnwrap(second.range(of: "5 January")).lowerBound, try XCTUnwrap(second.range(of: "6 January")).lowerBound)
        XCTAssertTrue(try book.text(page: 4).contains("9 January 2024"))
    }

    func testCaptionFormatAndNoCaptions() throws {
        let fixture = try BookFixture()
        try fivePhotos(fixture)
        let dated = try fixture.book("caption-format: 'EEEE yyyy-MM-dd', output: 'books/dated.pdf'", at: "books/dated.pdf")
        XCTAssertTrue(try dated.text(page: 2).contains("Friday 2024-01-05"))
        XCTAssertTrue(try dated.text(page: 1).contains("Friday 2024-01-05 – Tuesday 2024-01-09"))
        let plain = try fixture.book("captions: false, output: 'books/plain.pdf'", at: "books/plain.pdf")
        XCTAssertEqual(try plain.text(page: 2).trimmingCharacters(in: .whitespacesAndNewlines), "")
        XCTAssertEqual(try plain.images().count, 5)
    }

    func testTheDefaultTitleFollowsTheGrouping() throws {
        let fixture = try BookFixture()
        try fivePhotos(fixture)
        XCTAssertTrue(try fixture.book().text(page: 1).contains("Photographs"))
        let monthly = try fixture.book("group-by: month", at: "books/2024-01-photo-book.pdf")
        XCTAssertTrue(try monthly.text(page: 1).contains("January 2024"))
    }
}
