import DarkroomCatalog
import DarkroomCore
import DarkroomModel
import DarkroomReport
import DarkroomStages
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// Scans of family albums (TIFF: 8 or 16 bit, LZW or Deflate, several pages) through the shipped
/// import pipeline; JPEG XL passed over with the reason; other formats named `.jpg` refused with it.
final class TIFFImportTests: XCTestCase {
    var folder: TemporaryFolder!
    var roll: URL { folder.path("roll") }
    var library: URL { folder.path("library") }

    override func setUpWithError() throws {
        try NativeLibraries.start()
        folder = try TemporaryFolder("tiff-import")
        try FileManager.default.createDirectory(at: roll, withIntermediateDirectories: true)
    }

    func importRoll() throws -> RunReport {
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(yaml: try ShippedPipeline.fastText(),
                                                                                file: ShippedPipeline.path("import-camera-roll"))
        return try Runner(pipeline: pipeline, settings: RunSettings(library: library, timeZone: TimeZone(identifier: "UTC")!, jobs: 2))
            .run(inputs: [roll])
    }

    /// A `width` x `height` scan, blue with a red block over its top-left quarter, written by ImageMagick
    /// with `options`, then given `exif` with exiftool.
    @discardableResult
    func scan(_ name: String, width: Int = 600, height: Int = 400, _ options: [String], exif: [String]) throws -> URL {
        let url = roll.appendingPathComponent(name)
        try Fixtures.run("convert", ["-size", "\(width)x\(height)", "xc:#3060c0", "-fill", "red",
                                     "-draw", "rectangle 0,0 \(width / 4 - 1),\(height / 4 - 1)", "-alpha", "off"] + options + [url.path])
        if !exif.isEmpty { try Fixtures.run("exiftool", ["-q", "-overwrite_original"] + exif + [url.path]) }
        return url
    }

    func published(_ input: URL, under prefix: String, in report: RunReport) throws -> URL {
        let id = ContentHash.uuid(fromHex: try ContentHash.ofFile(input)).uuidString.lowercased()
        let path = try XCTUnwrap(report.published.first { $0.hasPrefix(prefix) && $0.contains(id) }, "\(input.lastPathComponent) under \(prefix)")
        return library.appendingPathComponent(path)
    }

    func testScansImportAsUprightEightBitHEICsFiledByTheirEXIFDate() throws {
        // 8-bit LZW, scanned sideways: Orientation 6 turns it a quarter clockwise.
        let sideways = try scan("album-1987.tif", ["-depth", "8", "-compress", "lzw"],
                                exif: ["-DateTimeOriginal=1987:06:05 04:03:02", "-Orientation#=6"])
        // 16-bit Deflate, with the same picture.
        let deep = try scan("album-1991.tiff", ["-depth", "16", "-compress", "zip"], exif: ["-DateTimeOriginal=1991:12:24 18:00:00"])
        // Three pages: the first (300x200) is the photo; the others are other sizes.
        let pages = roll.appendingPathComponent("pages.tif")
        let first = try scan("page-1.png", width: 300, height: 200, ["-depth", "8"], exif: [])
        try Fixtures.run("convert", [first.path, "-size", "120x80", "xc:green", "-size", "640x480", "xc:white",
                                     "-alpha", "off", "-depth", "8", "-compress", "lzw", pages.path])
        try FileManager.default.removeItem(at: first)
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=2001:02:03 10:00:00", pages.path])

        let report = try importRoll()
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed, 3)

        let upright = try Image.open(try published(sideways, under: "Photos/1987/06/", in: report).path)
        XCTAssertEqual([upright.width, upright.height], [400, 600], "turned by its orientation")
        XCTAssertEqual(upright.orientation, 1)
        XCTAssertTrue(upright.isEightBit)
        assertColour(try upright.cropped(left: 320, top: 10, width: 60, height: 100), red: 255, green: 0, blue: 0,
                     "the red corner is top right once turned a quarter clockwise")
        assertColour(try upright.cropped(left: 20, top: 300, width: 300, height: 250), red: 0x30, green: 0x60, blue: 0xc0, "blue elsewhere")

        let fromSixteenBits = try Image.open(try published(deep, under: "Photos/1991/12/", in: report).path)
        XCTAssertEqual([fromSixteenBits.width, fromSixteenBits.height], [600, 400])
        XCTAssertTrue(fromSixteenBits.isEightBit, "an 8-bit HEIC")
        assertColour(try fromSixteenBits.cropped(left: 10, top: 10, width: 120, height: 80), red: 255, green: 0, blue: 0, "red stays red")
        assertColour(try fromSixteenBits.cropped(left: 300, top: 200, width: 280, height: 180), red: 0x30, green: 0x60, blue: 0xc0,
                     "16-bit samples scaled to 8 bits, not clipped")

        let firstPage = try Image.open(try published(pages, under: "Photos/2001/02/", in: report).path)
        XCTAssertEqual([firstPage.width, firstPage.height], [300, 200], "the first page")
        XCTAssertNotNil(try published(pages, under: "Thumbnails/2001/02/", in: report))

        let sources = Dictionary(uniqueKeysWithValues: try Catalog(library: library).assets()
            .map { (($0.originalPath as NSString).lastPathComponent, $0.captureSource ?? "") })
        XCTAssertEqual(sources, ["album-1987.tif": "exif:DateTimeOriginal", "album-1991.tiff": "exif:DateTimeOriginal",
                                 "pages.tif": "exif:DateTimeOriginal"])
    }

    func testJPEGXLIsPassedOverAndOtherFormatsNamedJPGFailWithTheReason() throws {
        let png = folder.path("photo.png")
        try Image.solid(width: 64, height: 48, colour: .white).write(to: png.path, as: .png)
        let jxl = roll.appendingPathComponent("IMG_0001.jxl")
        try Fixtures.run("vips", ["copy", png.path, jxl.path])
        let svg = roll.appendingPathComponent("drawing.jpg")
        try Data("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='10' height='10'/></svg>".utf8).write(to: svg)
        let pdf = roll.appendingPathComponent("letter.jpg")
        try Data("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n".utf8).write(to: pdf)

        let report = try importRoll()
        XCTAssertEqual(report.processed, 0)
        XCTAssertEqual(report.passedOver.map { [$0.path, $0.reason] },
                       [[jxl.path, "JPEG XL photo (.jxl): not read (libvips 8.14 marks its JPEG XL loader, libjxl 0.7, untrusted)"]])
        XCTAssertTrue(report.summary.contains("1 .jxl JPEG XL photo"), report.summary)
        let failures = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.path, $0.reason) })
        XCTAssertEqual(failures.count, 2)
        XCTAssertTrue(failures[svg.path]?.contains("svgload: operation is blocked (Darkroom does not read SVG: a drawing, not a photo") == true,
                      failures[svg.path] ?? "")
        // libvips' poppler module is not loaded (LoaderPolicy.modules): no loader claims the PDF.
        XCTAssertTrue(failures[pdf.path]?.contains("is not a known file format") == true, failures[pdf.path] ?? "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.appendingPathComponent("Photos").path))
    }

    private func assertColour(_ region: Image, red: Double, green: Double, blue: Double, _ message: String, line: UInt = #line) {
        do {
            let means = try (0..<3).map { try region.extractBand($0).average() }
            for (mean, expected) in zip(means, [red, green, blue]) {
                XCTAssertEqual(mean, expected, accuracy: 12, "\(message): \(means)", line: line)
            }
        } catch {
            XCTFail("\(message): \(error)", line: line)
        }
    }
}
