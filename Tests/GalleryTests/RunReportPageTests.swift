import DarkroomCore
import DarkroomTestSupport
import Foundation
import GalleryStage
import XCTest
import DarkroomReport

/// `--report run.html`: what the run did, as a page, its thumbnails linked into the library
/// (whose folder name needs encoding) from wherever the report is written.
final class RunReportPageTests: XCTestCase {
    func testTheReportShowsWhatTheRunDidWithWorkingLinksFromAnywhere() throws {
        let (fixture, report) = try GalleryFixture.importedReportCard()
        let elsewhere = fixture.folder.path("reports/for you")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        for (links, location) in [(RunReportPage.Links.relative, elsewhere.appendingPathComponent("run.html")),
                                  (.absolute, elsewhere.appendingPathComponent("run-absolute.html")),
                                  (.relative, fixture.library.appendingPathComponent("run.html"))] {
            try RunReportPage(report: report, library: fixture.library, location: location, links: links).write()
            let html = try String(contentsOf: location, encoding: .utf8)
            XCTAssertTrue(html.contains("<div class=\"bad\"><dt>failed</dt><dd>1</dd></div>"), html)
            XCTAssertTrue(html.contains("<dt>processed</dt><dd>3</dd>"), html)
            XCTAssertTrue(html.contains("<dt>duplicates</dt><dd>1</dd>"), html)
            XCTAssertTrue(html.contains("<dt>passed over</dt><dd>1</dd>"), html)
            let failure = try XCTUnwrap(report.failures.first)
            XCTAssertTrue(html.contains("<td>\(HTMLScan_escape(failure.path))</td><td>\(failure.step)</td><td><span class=\"reason\">\(HTMLScan_escape(failure.reason))</span></td>"), html)
            let duplicate = try XCTUnwrap(report.duplicateFiles.first)
            XCTAssertEqual(Set([duplicate.path, duplicate.sameAs].map { ($0 as NSString).lastPathComponent }), ["IMG_1.JPG", "IMG_1 (copy).JPG"])
            XCTAssertTrue(html.contains("<figcaption>\(HTMLScan_escape(duplicate.path))</figcaption>"), html)
            XCTAssertTrue(html.contains("<figcaption>is the same photo as \(HTMLScan_escape(duplicate.sameAs))</figcaption>"), html)
            let pair = try XCTUnwrap(html.components(separatedBy: "<div class=\"pair\">").dropFirst().first?.components(separatedBy: "</div>").first)
            XCTAssertEqual(HTMLScan.tags("img", in: pair).count, 2, "both sides show the photo: \(pair)")
            XCTAssertTrue(html.contains("<td>\(HTMLScan_escape(fixture.card.appendingPathComponent("notes.txt").path))</td>"), html)
            XCTAssertFalse(html.contains("<i>odd"), "a file name is text")
            // The uncertain date and the contact sheet: tiles whose images are the library's thumbnails.
            let sections = html.components(separatedBy: "<section ")
            let uncertain = try XCTUnwrap(sections.first { $0.contains("id=\"uncertain\"") })
            XCTAssertEqual(HTMLScan.tags("img", in: uncertain).count, 1)
            XCTAssertTrue(uncertain.contains("data-uncertain=\"true\""))
            let imported = try XCTUnwrap(sections.first { $0.contains("id=\"imported\"") })
            XCTAssertEqual(HTMLScan.tags("a", in: imported).count { $0.contains("class=\"tile") }, 3)
            for tag in HTMLScan.tags("img", in: html) {
                let source = try XCTUnwrap(HTMLScan.attribute("src", of: tag))
                XCTAssertEqual(links == .absolute, source.hasPrefix("file:///"), source)
                let file = try XCTUnwrap(HTMLScan.file(source, from: location.deletingLastPathComponent()), source)
                XCTAssertTrue(file.path.hasPrefix(fixture.library.appendingPathComponent("Thumbnails").path + "/"), "\(source) -> \(file.path)")
                XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), "\(source) -> \(file.path)")
                let header = try SecondReader.header(file)
                XCTAssertEqual([HTMLScan.attribute("width", of: tag), HTMLScan.attribute("height", of: tag)],
                               [String(header.width), String(header.height)], tag)
            }
            // The larger view of a JPEG from the card is the original itself.
            let odd = try XCTUnwrap(HTMLScan.tags("a", in: imported).first { $0.contains("odd") })
            XCTAssertEqual(HTMLScan.attribute("data-large", of: odd).flatMap { HTMLScan.file($0, from: location.deletingLastPathComponent()) }?.path,
                           fixture.card.appendingPathComponent("<i>odd #2 ?é.jpg").path)
        }
    }

    /// `darkroom run --report run.html` writes the page; any other name gets JSON, as before.
    func testTheCommandWritesHTMLForAnHTMLFileAndJSONOtherwise() throws {
        let command = try DarkroomCommand(workingDirectory: GalleryFixture.repository)
        let fixture = try GalleryFixture("run-report-cli")
        try fixture.photo("IMG_1.JPG", exif: ["-DateTimeOriginal=2024:08:01 10:00:00"])
        let page = fixture.folder.path("out/run.html"), json = fixture.folder.path("out/run.json")
        try FileManager.default.createDirectory(at: page.deletingLastPathComponent(), withIntermediateDirectories: true)
        for report in [page, json] {
            let result = try command.run(["run", "pipelines/import-camera-roll.yaml", "--input", fixture.card.path, "--library",
                                          fixture.library.path, "--report", report.path])
            XCTAssertEqual(result.status, 0, result.err)
        }
        let html = try String(contentsOf: page, encoding: .utf8)
        XCTAssertTrue(html.hasPrefix("<!doctype html>"), html)
        XCTAssertTrue(html.contains("<dt>processed</dt><dd>1</dd>"), html)
        XCTAssertEqual(HTMLScan.tags("img", in: html).count, 1, "the contact sheet: \(html)")
        let decoded = try JSONDecoder().decode(RunReport.self, from: Data(contentsOf: json))
        XCTAssertEqual(decoded.skipped, 1, "the second run found the photo done")
        XCTAssertEqual(decoded.files?.first?.outcome, .done)
    }

    /// The JSON report keeps every field it had; the files are an addition old readers ignore.
    func testTheJSONReportGainsTheFilesAndStillDecodesWithoutThem() throws {
        let (fixture, report) = try GalleryFixture.importedReportCard()
        let data = try JSONEncoder().encode(report)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for key in ["pipeline", "library", "found", "processed", "skipped", "duplicates", "failed", "failures", "duplicateFiles",
                    "passedOver", "published", "seconds", "files"] {
            XCTAssertNotNil(object[key], key)
        }
        let files = try XCTUnwrap(report.files)
        let scan = try XCTUnwrap(files.first { $0.path.hasSuffix("/scan.jpg") })
        XCTAssertEqual(scan.outcome, .processed)
        XCTAssertEqual(scan.captureDate?.confidence, .low)
        XCTAssertEqual(scan.outputs, ["Photos/2024/07/\(scan.id).heic", "Thumbnails/2024/07/\(scan.id).jpg"])
        var old = object
        old["files"] = nil
        let decoded = try JSONDecoder().decode(RunReport.self, from: try JSONSerialization.data(withJSONObject: old))
        XCTAssertNil(decoded.files)
        // Run again: everything is already done, and the report still lists the files with their outputs.
        let again = try fixture.run(pipeline: "import-camera-roll", inputs: [fixture.card])
        XCTAssertEqual(again.files?.map(\.outcome), [.done, .done, .done])
        XCTAssertEqual(again.files?.first { $0.path.hasSuffix("/scan.jpg") }?.outputs, scan.outputs)
    }
}

/// Text as the pages escape it.
func HTMLScan_escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
}

extension GalleryFixture {
    /// A card with a duplicate, a truncated photo, a photo dated only by its file time, a file that is
    /// not a photo, and a photo whose name is markup; imported into the fixture's library.
    static func importedReportCard() throws -> (GalleryFixture, RunReport) {
        let fixture = try GalleryFixture("run-report")
        let original = try fixture.photo("IMG_1.JPG", exif: ["-DateTimeOriginal=2024:07:01 10:00:00"])
        try FileManager.default.copyItem(at: original, to: fixture.card.appendingPathComponent("IMG_1 (copy).JPG"))
        try fixture.photo("<i>odd #2 ?é.jpg", exif: ["-DateTimeOriginal=2024:07:02 10:00:00"])
        try fixture.undatedPhoto("scan.jpg", touchDate: "2024-07-03 12:00")
        let busy = try fixture.photo("whole.jpg", width: 800, height: 600)
        try Fixtures.truncated(busy, to: fixture.card.appendingPathComponent("broken.jpg"), bytes: Int(try Data(contentsOf: busy).count / 2))
        try FileManager.default.removeItem(at: busy)
        try Data("shopping list".utf8).write(to: fixture.card.appendingPathComponent("notes.txt"))
        let report = try fixture.run(pipeline: "import-camera-roll", inputs: [fixture.card])
        XCTAssertEqual(report.processed, 3)
        XCTAssertEqual(report.failures.map { ($0.path as NSString).lastPathComponent }, ["broken.jpg"])
        return (fixture, report)
    }
}
