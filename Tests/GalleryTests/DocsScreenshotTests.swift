import DarkroomCore
import DarkroomTestSupport
import Foundation
import GalleryStage
import XCTest

/// The README's pictures, made from the samples on demand (`DARKROOM_DOCS_SCREENSHOTS=1`): the
/// camera roll and the progress photos imported by the shipped pipeline, the gallery made over them,
/// and the import's run report, each opened in headless Chromium at 1200 x 800.
final class DocsScreenshotTests: XCTestCase {
    func testScreenshotsOfTheSamples() throws {
        guard ProcessInfo.processInfo.environment["DARKROOM_DOCS_SCREENSHOTS"] == "1" else {
            throw XCTSkip("set DARKROOM_DOCS_SCREENSHOTS=1 to write docs/gallery/index.png, docs/gallery/viewer.png and docs/report/run.png")
        }
        let fixture = try GalleryFixture("docs")
        let samples = GalleryFixture.repository.appendingPathComponent("samples")
        for folder in ["camera-roll", "progress"] {
            try FileManager.default.copyItem(at: samples.appendingPathComponent(folder), to: fixture.card.appendingPathComponent(folder))
        }
        let report = try fixture.run(pipeline: "import-camera-roll", inputs: [fixture.card])
        XCTAssertEqual(report.failures, [])
        try fixture.makeGallery()
        let docs = GalleryFixture.repository.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: docs.appendingPathComponent("gallery"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: docs.appendingPathComponent("report"), withIntermediateDirectories: true)

        let browser = try HeadlessBrowser.start(profile: fixture.folder.path("chromium"))
        defer { browser.quit() }
        try browser.open(fixture.gallery.appendingPathComponent("index.html"))
        try browser.waitUntil("Array.from(document.images).every(i => i.complete)", "the index's images")
        try screenshot(browser, to: docs.appendingPathComponent("gallery/index.png"))

        try browser.open(fixture.gallery.appendingPathComponent("2024-04.html"))
        _ = try browser.evaluate("document.querySelectorAll('a.tile')[12].click()")
        try browser.waitUntil("document.querySelector('dialog.viewer .stage img.main')?.naturalWidth > 0", "the larger view")
        try screenshot(browser, to: docs.appendingPathComponent("gallery/viewer.png"))

        let location = fixture.folder.path("run.html")
        try RunReportPage(report: report, library: fixture.library, location: location).write()
        try browser.open(location)
        try browser.waitUntil("Array.from(document.images).every(i => i.complete)", "the report's images")
        try screenshot(browser, to: docs.appendingPathComponent("report/run.png"))
        XCTAssertEqual(browser.takeProblems().map(\.description), [])
    }

    /// What the browser shows, as a small PNG: a palette of 256 colours (libvips' quantiser), which
    /// halves the size with no visible loss on these pages.
    func screenshot(_ browser: HeadlessBrowser, to url: URL) throws {
        let full = url.deletingPathExtension().appendingPathExtension("full.png")
        try browser.screenshot(to: full)
        try Fixtures.run("vips", ["copy", full.path, url.path + "[palette,Q=90,effort=10,strip]"])
        try FileManager.default.removeItem(at: full)
    }
}
