import DarkroomCore
import DarkroomTestSupport
import Foundation
import GalleryStage
import XCTest

/// The gallery and the run report in a real browser: headless Chromium opens the pages from disk
/// (from a library whose folder name needs encoding) and must see no console error, no failed
/// request, every thumbnail in view loaded; months navigate, the larger view opens with the
/// keyboard and steps with the arrow keys, a video plays, a motion part plays on hover. Screenshots
/// are saved in the test's temp folder (kept when `DARKROOM_KEEP_SCREENSHOTS` names a folder to copy them to).
final class GalleryBrowserTests: XCTestCase {
    // nonisolated(unsafe): set and read only by this class's tests and its class tearDown, which XCTest runs one at a time.
    nonisolated(unsafe) private static var shared: SampleLibrary?
    var sample: SampleLibrary!
    var fixture: GalleryFixture { sample.fixture }
    var browser: HeadlessBrowser!
    var screenshots: URL!

    override func setUpWithError() throws {
        if GalleryBrowserTests.shared == nil { GalleryBrowserTests.shared = try SampleLibrary.build("gallery-browser") }
        sample = GalleryBrowserTests.shared
        screenshots = fixture.folder.path("screenshots")
        try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
        browser = try HeadlessBrowser.start(profile: fixture.folder.path("chromium-\(UUID().uuidString.prefix(8))"))
    }

    override func tearDown() {
        browser?.quit()
        if let keep = ProcessInfo.processInfo.environment["DARKROOM_KEEP_SCREENSHOTS"], let screenshots {
            try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: screenshots.path)) ?? [] {
                try? FileManager.default.removeItem(atPath: keep + "/" + name)
                try? FileManager.default.copyItem(atPath: screenshots.appendingPathComponent(name).path, toPath: keep + "/" + name)
            }
        }
        super.tearDown()
    }

    override class func tearDown() {
        shared = nil
        super.tearDown()
    }

    // MARK: Checks

    /// Fails with every console error, exception and failed request the page reported since the last check.
    func assertNoProblems(_ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(browser.takeProblems().map(\.description), [], what, file: file, line: line)
    }

    /// Waits for every image in view to finish, then insists each decoded (a natural width above 0);
    /// returns how many there were.
    @discardableResult
    func assertImagesInViewLoaded(_ what: String, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let inView = """
            Array.from(document.images).filter(i => { const r = i.getBoundingClientRect();
              return r.width > 0 && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth; })
            """
        try browser.waitUntil("\(inView).every(i => i.complete)", "the images in view of \(what) to load")
        let images = try XCTUnwrap(try browser.evaluate("\(inView).map(i => [i.getAttribute('src'), i.naturalWidth])") as? [[Any]])
        XCTAssertFalse(images.isEmpty, "\(what): no image in view", file: file, line: line)
        for image in images {
            XCTAssertGreaterThan(image[1] as? Int ?? 0, 0, "\(what): \(image[0]) did not load", file: file, line: line)
        }
        return images.count
    }

    func text(_ expression: String) throws -> String { try browser.evaluate(expression) as? String ?? "" }

    // MARK: The gallery

    func testBrowsingTheGallery() throws {
        try browser.open(fixture.gallery.appendingPathComponent("index.html"))
        XCTAssertEqual(try text("document.querySelector('h1').textContent"), "Photos")
        try assertImagesInViewLoaded("the index")
        try browser.screenshot(to: screenshots.appendingPathComponent("index.png"))
        assertNoProblems("the index")

        // Light and dark follow the system setting.
        let light = try text("getComputedStyle(document.body).backgroundColor")
        try browser.emulateColourScheme("dark")
        let dark = try text("getComputedStyle(document.body).backgroundColor")
        XCTAssertEqual([light, dark], ["rgb(246, 246, 244)", "rgb(18, 18, 18)"])
        try browser.screenshot(to: screenshots.appendingPathComponent("index-dark.png"))
        try browser.emulateColourScheme("light")

        // Month navigation: a month's card, then the pager.
        try browser.waitingForNavigation { _ = try browser.evaluate("document.querySelector('ol.months a[href=\"2024-01.html\"]').click()") }
        XCTAssertEqual(try text("document.querySelector('h1').textContent"), "January 2024")
        XCTAssertEqual(try browser.evaluate("document.querySelectorAll('a.tile').length") as? Int, 3)
        try assertImagesInViewLoaded("January")
        try browser.screenshot(to: screenshots.appendingPathComponent("month.png"))
        try browser.waitingForNavigation { _ = try browser.evaluate("document.querySelector('a[rel=next]').click()") }
        XCTAssertEqual(try text("document.querySelector('h1').textContent"), "February 2024")
        try browser.waitingForNavigation { _ = try browser.evaluate("document.querySelector('a[rel=prev]').click()") }
        XCTAssertEqual(try text("document.querySelector('h1').textContent"), "January 2024")
        assertNoProblems("January and February")

        // The larger view, by keyboard: Enter on a thumbnail opens it, the arrow keys step, Escape closes.
        _ = try browser.evaluate("document.querySelector('a.tile').focus()")
        try browser.press("Enter")
        try browser.waitUntil("document.querySelector('dialog.viewer')?.open === true", "the larger view to open")
        let shown = """
            (() => { const img = document.querySelector('dialog.viewer .stage img.main');
                     return img && img.complete && img.naturalWidth > 0 ? img.src : null; })()
            """
        let tileLarge = "new URL(document.querySelectorAll('a.tile')[%d].dataset.large, location).href"
        try browser.waitUntil("\(shown) === \(String(format: tileLarge, 0))", "the first photo's larger rendition")
        XCTAssertEqual(try text("document.querySelector('dialog.viewer .title').textContent"), "Friday 5 January 2024, 10:00")
        XCTAssertEqual(try text("document.querySelector('dialog.viewer .source').textContent"), "Date from EXIF date taken (DateTimeOriginal)")
        XCTAssertEqual(try browser.evaluate("document.querySelector('dialog.viewer .stage img.main').naturalWidth") as? Int, 480,
                       "the 1024 px rendition of a 480 px photo, never enlarged")
        try browser.screenshot(to: screenshots.appendingPathComponent("viewer.png"))
        try browser.press("ArrowRight")
        try browser.waitUntil("\(shown) === \(String(format: tileLarge, 1))", "the second photo after ArrowRight")
        XCTAssertEqual(try text("document.querySelector('dialog.viewer .counter').textContent"), "2 / 3")
        XCTAssertTrue(try text("location.hash").hasPrefix("#p-"), "the page's address names the photo shown")
        try browser.press("ArrowLeft")
        try browser.waitUntil("\(shown) === \(String(format: tileLarge, 0))", "the first photo again after ArrowLeft")
        try browser.press("Escape")
        try browser.waitUntil("document.querySelector('dialog.viewer').open === false", "the larger view to close")
        XCTAssertEqual(try browser.evaluate("document.activeElement === document.querySelector('a.tile')") as? Bool, true,
                       "focus goes back to the thumbnail")
        assertNoProblems("the larger view")
    }

    func testVideosPlayAndMotionPartsPlayOnHover() throws {
        try browser.open(fixture.gallery.appendingPathComponent("2024-02.html"))
        try assertImagesInViewLoaded("February")
        // A video plays in the page, its poster first.
        _ = try browser.evaluate("document.querySelector('a.tile.video').click()")
        try browser.waitUntil("""
            (() => { const v = document.querySelector('dialog.viewer video.main');
                     return !!v && v.poster.endsWith('.jpg') && !v.paused && v.currentTime > 0.3; })()
            """, "the video to play")
        try browser.screenshot(to: screenshots.appendingPathComponent("video.png"))
        try browser.press("Escape")
        try browser.waitUntil("document.querySelector('dialog.viewer').open === false", "the larger view to close")

        // A motion photo's video plays while the pointer is over its thumbnail.
        try browser.hover("a.tile.live")
        try browser.waitUntil("""
            (() => { const v = document.querySelector('a.tile.live video.motion'); return !!v && !v.paused && v.currentTime > 0.1; })()
            """, "the motion photo's video to play on hover")
        try browser.hover("h1")
        try browser.waitUntil("document.querySelector('a.tile.live video.motion') === null", "the motion part to go when the pointer leaves")
        assertNoProblems("February's video and motion photo")

        // A Live Photo's video (QuickTime), in the larger view: over the photo it plays.
        try browser.open(fixture.gallery.appendingPathComponent("2023-12.html"))
        _ = try browser.evaluate("document.querySelector('a.tile.live').click()")
        try browser.waitUntil("document.querySelector('dialog.viewer .stage img.main')?.complete === true", "the Live Photo's still")
        try browser.hover("dialog.viewer .stage img.main")
        try browser.waitUntil("""
            (() => { const v = document.querySelector('dialog.viewer video.motion');
                     return document.querySelector('dialog.viewer .stage').classList.contains('playing') && !v.paused && v.currentTime > 0.1; })()
            """, "the Live Photo's video to play on hover")
        try browser.screenshot(to: screenshots.appendingPathComponent("live.png"))
        assertNoProblems("December's Live Photo")
    }

    // MARK: The run report

    func testTheRunReport() throws {
        let (cardFixture, report) = try GalleryFixture.importedReportCard()
        for links in [RunReportPage.Links.relative, .absolute] {
            let location = cardFixture.folder.path("reports #1/run \(links).html")
            try FileManager.default.createDirectory(at: location.deletingLastPathComponent(), withIntermediateDirectories: true)
            try RunReportPage(report: report, library: cardFixture.library, location: location, links: links).write()
            try browser.open(location)
            XCTAssertEqual(try text("document.querySelector('h1').textContent"), "Run of import-camera-roll")
            var images = 0
            for section in ["duplicates", "uncertain", "imported"] {
                _ = try browser.evaluate("document.getElementById('\(section)').scrollIntoView()")
                images += try assertImagesInViewLoaded("the report's \(section) (\(links))")
            }
            XCTAssertGreaterThanOrEqual(images, 5)
            if links == .relative { try browser.screenshot(to: screenshots.appendingPathComponent("run.png")) }
            // The contact sheet opens in the larger view too.
            _ = try browser.evaluate("document.querySelector('#imported').parentElement.querySelector('a.tile').click()")
            try browser.waitUntil("document.querySelector('dialog.viewer .stage img.main')?.naturalWidth > 0", "a photo of the contact sheet, larger")
            assertNoProblems("the run report (\(links) links)")
        }
    }

    // MARK: The checks themselves

    /// A page with a missing image, a console error and an exception: each check notices.
    func testTheChecksNoticeABrokenPage() throws {
        let page = fixture.folder.path("broken/page.html")
        try FileManager.default.createDirectory(at: page.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("""
            <!doctype html><html><body><img src="missing.jpg" width="10" height="10" alt="">
            <script>console.error("boom"); null.property;</script></body></html>
            """.utf8).write(to: page)
        try browser.open(page)
        usleep(300_000)
        let problems = browser.takeProblems().map(\.description)
        XCTAssertTrue(problems.contains { $0.hasPrefix("console.error: boom") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("exception: TypeError") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("ERR_FILE_NOT_FOUND") }, "\(problems)")
        XCTAssertThrowsError(try assertImagesInViewLoadedOrThrow())
    }

    /// The images-in-view check, throwing instead of failing the test (to show it can fail).
    private func assertImagesInViewLoadedOrThrow() throws {
        let broken = try browser.evaluate("Array.from(document.images).filter(i => i.complete && i.naturalWidth === 0).length") as? Int
        if broken != 0 { throw BrowserError("\(broken ?? -1) images did not load") }
    }
}
