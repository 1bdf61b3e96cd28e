import DarkroomCairo
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// `DarkroomCairo` on its own: the JPEG goes into the PDF unchanged, text is Pango's, mistakes are errors.
final class CairoBindingTests: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        try NativeLibraries.start()
        try PDFInspection.requireTools()
        folder = try TemporaryFolder("cairo-test")
    }

    /// A 120 x 80 JPEG made by libvips, and its decoded RGB pixels.
    func photo() throws -> (jpeg: Data, rgb: Data) {
        let image = try Image.solid(width: 120, height: 80, colour: Colour(red: 20, green: 140, blue: 220))
            .drawingRectangles([(x: 10, y: 10, width: 30, height: 20)], colour: .white)
        return (try image.jpegData(quality: 90), try image.eightBitRGB().pixelBytes())
    }

    func testAnImageIsEmbeddedAsItsJPEGByteForByte() throws {
        let (jpeg, rgb) = try photo()
        let path = folder.path("one.pdf").path
        let document = try PDFDocument(path: path, pageSize: PDFSize(width: 300, height: 200), title: "One photo")
        try document.addPage { page in
            page.draw(try PDFImage(jpeg: jpeg, rgb: rgb, width: 120, height: 80), in: PDFRect(x: 30, y: 20, width: 240, height: 160))
        }
        try document.finish()
        XCTAssertEqual(document.pageCount, 1)

        let pdf = PDFInspection(url: URL(fileURLWithPath: path))
        let entry = try XCTUnwrap(try pdf.images().first)
        XCTAssertEqual([entry.width, entry.height, entry.xPPI], [120, 80, 36])  // 120 px over 240 pt
        XCTAssertEqual(entry.encoding, "jpeg")
        try Fixtures.run("pdfimages", ["-j", path, folder.path("extracted").path])
        XCTAssertEqual(try Data(contentsOf: folder.path("extracted-000.jpg")), jpeg, "the JPEG stream is the one given, not re-encoded")
        XCTAssertEqual(try pdf.info()["Title"], "One photo")
    }

    func testTextIsSetWithPangoAndItsFontEmbedded() throws {
        let path = folder.path("text.pdf").path
        let document = try PDFDocument(path: path, pageSize: PDFSize(width: 300, height: 200))
        try document.addPage { page in
            let style = PDFTextStyle(font: "DejaVu Serif", size: 12, alignment: .centre)
            let oneLine = try page.measure("Garden", style: style, width: 280)
            let wrapped = try page.measure("A long caption that cannot fit on one line of this width", style: style, width: 80)
            XCTAssertGreaterThan(wrapped.height, oneLine.height * 2.5, "wrapped to the width")
            XCTAssertLessThanOrEqual(wrapped.width, 80)
            let height = try page.draw("Garden – 5 March 2024", style: style, in: PDFRect(x: 10, y: 10, width: 280, height: 20))
            XCTAssertEqual(height, oneLine.height, accuracy: 0.01)
        }
        try document.finish()
        let pdf = PDFInspection(url: URL(fileURLWithPath: path))
        XCTAssertEqual(try pdf.fonts().map { [$0.name.split(separator: "+").last.map(String.init) ?? "", "\($0.embedded)"] },
                       [["DejaVuSerif", "true"]])
        XCTAssertTrue(try pdf.text().contains("Garden – 5 March 2024"))
    }

    func testMistakesAreErrorsWithTheirReason() throws {
        XCTAssertThrowsError(try PDFDocument(path: "/nonexistent-folder/book.pdf", pageSize: PDFSize(width: 100, height: 100))) { error in
            XCTAssertEqual("\(error)", "/nonexistent-folder/book.pdf: create PDF: error while writing to output stream")
        }
        let (jpeg, rgb) = try photo()
        XCTAssertThrowsError(try PDFImage(jpeg: jpeg, rgb: rgb.prefix(100), width: 120, height: 80)) { error in
            XCTAssertEqual("\(error)", "image surface: 100 bytes of pixels for 120 x 80 RGB (expected 28800)")
        }
        XCTAssertThrowsError(try PDFImage(jpeg: Data("not a jpeg".utf8), rgb: rgb, width: 120, height: 80)) { error in
            XCTAssertTrue("\(error)".contains("does not start with a JPEG marker"), "\(error)")
        }
    }
}
