import DarkroomCatalog
import DarkroomCore
import DarkroomStages
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// Where and how photos land on the page: embedded as JPEG at no more than 300 pixels per inch
/// (and never more pixels than they have), in their cells, upright.
final class PlacementTests: XCTestCase {
    /// Points in a millimetre.
    let mm = 72 / 25.4

    func testPhotosAreJPEGAtMost300PPIAndNeverUpscaled() throws {
        let fixture = try BookFixture()
        try fixture.photo(BookFixture.name("large", day: 1), colour: Colour(red: 30, green: 160, blue: 60), width: 1600, height: 1200)
        try fixture.photo(BookFixture.name("small", day: 2), colour: Colour(red: 30, green: 60, blue: 160), width: 200, height: 150)
        let images = try fixture.book("photos-per-page: 4").images()
        XCTAssertEqual(images.count, 2)
        for image in images {
            XCTAssertEqual(image.encoding, "jpeg", "embedded as the JPEG stream (DCTDecode)")
            XCTAssertEqual(image.colour, "rgb")
            XCTAssertLessThanOrEqual(image.xPPI, 300)
            XCTAssertEqual(image.xPPI, image.yPPI, "one scale for both sides")
        }
        // A4 with 15 mm margins and a 6 mm gutter: a cell is 87 mm wide, 1027 pixels at 300 ppi.
        let large = images[0]
        XCTAssertEqual(large.width, 1027, accuracy: 1)
        XCTAssertEqual(large.height, 770, accuracy: 1)
        XCTAssertGreaterThanOrEqual(large.xPPI, 299, "decoded at the size its place needs, not smaller")
        // The small photo keeps its own pixels and is printed larger, at fewer pixels per inch.
        XCTAssertEqual([images[1].width, images[1].height], [200, 150])
        XCTAssertEqual(images[1].xPPI, 58, accuracy: 1)  // 200 px over 87 mm
    }

    func testTheDPIOptionCapsTheResolution() throws {
        let fixture = try BookFixture()
        try fixture.photo(BookFixture.name("large", day: 1), colour: Colour(red: 30, green: 160, blue: 60), width: 1600, height: 1200)
        let image = try XCTUnwrap(try fixture.book("photos-per-page: 4, dpi: 150").images().first)
        XCTAssertEqual(image.xPPI, 150, accuracy: 1)
        XCTAssertEqual(image.width, 513, accuracy: 1)
    }

    func testPhotosSitInTheirCellsInDateOrder() throws {
        let fixture = try BookFixture()
        try fixture.photo(BookFixture.name("b", day: 2), colour: Colour(red: 0, green: 0, blue: 255), width: 400, height: 300)
        try fixture.photo(BookFixture.name("a", day: 1), colour: Colour(red: 255, green: 0, blue: 0), width: 400, height: 300)
        // A4 portrait, 2 a page: the first photo in the upper half, the second in the lower.
        let portrait = try fixture.book()
        let page = try portrait.render(page: 2, to: fixture.folder.url)
        let (centreX, upper, lower) = (595.3 / 2, 15 * mm + 0.25 * 267 * mm, 15 * mm + 0.75 * 267 * mm)
        try assertColour(page, x: centreX, y: upper, is: red, "the first photo, upper half")
        try assertColour(page, x: centreX, y: lower, is: blue, "the second photo, lower half")
        try assertColour(page, x: 8 * mm, y: 8 * mm, is: white, tolerance: 2, "the margin stays blank")
        try assertColour(page, x: centreX, y: 297 * mm / 2, is: white, tolerance: 2, "the gutter stays blank")

        // Landscape, 2 a page: side by side.
        let landscape = try fixture.book("orientation: landscape, output: 'books/wide.pdf'", at: "books/wide.pdf")
        let wide = try landscape.render(page: 2, to: fixture.folder.url)
        let (left, right, middle) = (15 * mm + 0.25 * 267 * mm, 15 * mm + 0.75 * 267 * mm, 595.3 / 2)
        try assertColour(wide, x: left, y: middle, is: red, "the first photo, on the left")
        try assertColour(wide, x: right, y: middle, is: blue, "the second photo, on the right")
    }

    func testASidewaysPhotoIsPrintedUpright() throws {
        let fixture = try BookFixture()
        // Stored 640 x 480, left half red, right half blue, EXIF orientation 6 (turn 90° clockwise to
        // view): upright it is 480 x 640, red on top, blue below.
        try Fixtures.halves(fixture.photos.appendingPathComponent(BookFixture.name("sideways", day: 3)),
                            exif: ["-Orientation#=6"])
        let book = try fixture.book("photos-per-page: 1")
        let image = try XCTUnwrap(try book.images().first)
        XCTAssertEqual([image.width, image.height], [480, 640], "upright pixels, its own size")
        let page = try book.render(page: 2, to: fixture.folder.url)
        try assertColour(page, x: 595.3 / 2, y: 841.9 * 0.3, is: red, "top of the photo")
        try assertColour(page, x: 595.3 / 2, y: 841.9 * 0.7, is: blue, "bottom of the photo")
    }

    func testTheSampleCameraRollMakesABook() throws {
        let fixture = try BookFixture()
        let roll = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("samples/camera-roll")
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(
            yaml: "steps:\n  - exif-date\n  - photo-book: { photos-per-page: 4, output: book.pdf }\n", file: "test.yaml")
        let report = try Runner(pipeline: pipeline, settings: RunSettings(library: fixture.library, jobs: 2)).run(inputs: [roll])
        XCTAssertEqual(report.failures, [])
        let images = try PDFInspection(url: fixture.library.appendingPathComponent("book.pdf")).images()
        // JPEG, PNG, WebP and HEIC photos (one a duplicate; the two videos are not photos), all embedded as JPEG.
        XCTAssertEqual(images.count, 7)
        XCTAssertEqual(Set(images.map(\.encoding)), ["jpeg"])
        XCTAssertTrue(images.allSatisfy { $0.xPPI <= 300 })
    }
}
