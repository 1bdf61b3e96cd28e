import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// The gallery of `SampleLibrary`, read as HTML: months, dates and where they came from, cameras,
/// escaping, image sizes and links, videos and motion parts.
final class GalleryPagesTests: XCTestCase {
    // nonisolated(unsafe): set and read only by this class's tests and its class tearDown, which XCTest runs one at a time.
    nonisolated(unsafe) private static var shared: SampleLibrary?
    var sample: SampleLibrary!
    var fixture: GalleryFixture { sample.fixture }

    override func setUpWithError() throws {
        if GalleryPagesTests.shared == nil { GalleryPagesTests.shared = try SampleLibrary.build("gallery-pages") }
        sample = GalleryPagesTests.shared
    }

    override class func tearDown() {
        shared = nil
        super.tearDown()
    }

    func testAPagePerMonthAndAnIndexByYear() throws {
        XCTAssertEqual(try fixture.pages(), ["2023-12.html", "2024-01.html", "2024-02.html", "index.html"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: fixture.gallery.appendingPathComponent("darkroom.css").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: fixture.gallery.appendingPathComponent("darkroom.js").path))
        for (page, count) in [("2023-12.html", 2), ("2024-01.html", 3), ("2024-02.html", 3)] {
            XCTAssertEqual(HTMLScan.tags("a", in: try fixture.page(page)).count { $0.contains("class=\"tile") }, count, page)
        }
        let index = try fixture.page("index.html")
        XCTAssertTrue(index.contains("<h1>Photos</h1><p>7 photos and 1 video, December 2023 to February 2024</p>"), index)
        // Years newest first, each month a card linking to its page with its count.
        let years = index.matches(of: #/<h2 id="y(\d{4})">/#).map { String($0.output.1) }
        XCTAssertEqual(years, ["2024", "2023"])
        XCTAssertTrue(index.contains("<a href=\"2024-02.html\">"), index)
        XCTAssertTrue(index.contains("February<span class=\"count\">2 photos and 1 video</span>"), index)
        XCTAssertTrue(index.contains("December<span class=\"count\">2 photos</span>"), index)
        XCTAssertTrue(index.contains("1 photo dated from a low-confidence source"), index)
        // Month pages link to the months around them.
        let january = try fixture.page("2024-01.html")
        XCTAssertTrue(january.contains("<a href=\"2023-12.html\" rel=\"prev\">\u{2039} December 2023</a>"), january)
        XCTAssertTrue(january.contains("<a href=\"2024-02.html\" rel=\"next\">February 2024 \u{203A}</a>"), january)
        XCTAssertTrue(january.contains("<h2 id=\"day-1\">Friday 5 January</h2>"), january)
        XCTAssertTrue(january.contains("<h2 id=\"day-2\">Saturday 20 January</h2>"), january)
    }

    /// Each photo says when it was taken, with what, and where the date came from; a date from the
    /// file time is marked on the thumbnail and in the larger view.
    func testDatesCamerasAndTheirSources() throws {
        let canon = try XCTUnwrap(try sample.tile("IMG_0101.JPG", on: "2024-01.html"))
        XCTAssertEqual(HTMLScan.attribute("data-title", of: canon), "Friday 5 January 2024, 10:00")
        XCTAssertEqual(HTMLScan.attribute("data-details", of: canon), "Canon EOS 40D")
        XCTAssertEqual(HTMLScan.attribute("data-source", of: canon), "Date from EXIF date taken (DateTimeOriginal)")
        XCTAssertFalse(canon.contains("uncertain"), canon)

        let pixel = try XCTUnwrap(try sample.tile("PXL_20240214_091500123.jpg", on: "2024-02.html"))
        XCTAssertEqual(HTMLScan.attribute("data-source", of: pixel), "Date from the file name")
        XCTAssertEqual(HTMLScan.attribute("data-title", of: pixel), "Wednesday 14 February 2024, 09:15")

        let scan = try XCTUnwrap(try sample.tile("scan 1.jpg", on: "2023-12.html"))
        XCTAssertEqual(HTMLScan.attribute("data-source", of: scan), "Date from the file's modification time: low confidence, it may be wrong")
        XCTAssertEqual(HTMLScan.attribute("data-uncertain", of: scan), "true")
        XCTAssertTrue(scan.contains("class=\"tile uncertain\""), scan)
        let december = try fixture.page("2023-12.html")
        XCTAssertTrue(december.contains("<span class=\"flag\" title=\"Date from the file&#39;s modification time: low confidence, it may be wrong\">date?</span>"),
                      december)
        XCTAssertTrue(december.contains("2 photos; 1 date uncertain (marked date?)"), december)
        let alt = try XCTUnwrap(HTMLScan.tags("img", in: december).compactMap { HTMLScan.attribute("alt", of: $0) }.first { $0.contains("uncertain") })
        XCTAssertEqual(alt, "Photo taken Sunday 31 December 2023 at 19:00 (date uncertain)")
    }

    /// A camera model that is a script is shown as text everywhere and never runs.
    func testAHostileCameraModelIsText() throws {
        for page in try fixture.pages() {
            let html = try fixture.page(page)
            XCTAssertFalse(html.contains("<script>alert"), "\(page) holds the camera model as markup")
            XCTAssertEqual(HTMLScan.tags("script", in: html).count, 1, "\(page) has only its own script")
        }
        let tile = try XCTUnwrap(try sample.tile("IMG_0103.JPG", on: "2024-01.html"))
        XCTAssertEqual(HTMLScan.attribute("data-details", of: tile), "Evil \(SampleLibrary.hostileModel)")
        XCTAssertTrue(tile.contains("data-details=\"Evil &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;\""), tile)
        let alt = HTMLScan.tags("img", in: try fixture.page("2024-01.html")).compactMap { HTMLScan.attribute("alt", of: $0) }
        XCTAssertTrue(alt.contains("Photo taken Saturday 20 January 2024 at 16:45 with Evil \(SampleLibrary.hostileModel)"), "\(alt)")
    }

    /// Every image says its real pixel size, has alternative text and loads lazily, and every link
    /// and source of every page is a file in the library.
    func testEveryImageAndLinkIsRight() throws {
        var images = 0
        for page in try fixture.pages() + ["made.html"].filter({ FileManager.default.fileExists(atPath: fixture.gallery.appendingPathComponent($0).path) }) {
            let html = try fixture.page(page)
            for tag in HTMLScan.tags("img", in: html) {
                images += 1
                XCTAssertNotNil(HTMLScan.attribute("alt", of: tag), "\(page): \(tag)")
                XCTAssertEqual(HTMLScan.attribute("loading", of: tag), "lazy", "\(page): \(tag)")
                let source = try XCTUnwrap(HTMLScan.attribute("src", of: tag).flatMap { HTMLScan.file($0, from: fixture.gallery) }, tag)
                let header = try SecondReader.header(source)
                XCTAssertEqual(HTMLScan.attribute("width", of: tag), String(header.width), "\(page): \(tag)")
                XCTAssertEqual(HTMLScan.attribute("height", of: tag), String(header.height), "\(page): \(tag)")
            }
            let links = HTMLScan.tags("a", in: html).compactMap { HTMLScan.attribute("href", of: $0) }
                + HTMLScan.tags("a", in: html).flatMap { tag in ["data-large", "data-video", "data-motion"].compactMap { HTMLScan.attribute($0, of: tag) } }
            for link in links {
                let file = try XCTUnwrap(HTMLScan.file(link, from: fixture.gallery), link)
                XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), "\(page) links to \(link), which is not there")
                XCTAssertTrue(file.path.hasPrefix(fixture.library.path + "/"), "\(page) links outside the library: \(link)")
            }
        }
        XCTAssertEqual(images, 8 + 3, "8 tiles and 3 month covers")
    }

    /// The larger view shows the 1024 px rendition the pipeline made once, at its real size.
    func testTheLargerViewShowsThe1024PixelRendition() throws {
        let tile = try XCTUnwrap(try sample.tile("IMG_0101.JPG", on: "2024-01.html"))
        let large = try XCTUnwrap(HTMLScan.attribute("data-large", of: tile))
        XCTAssertEqual(large, "large/2024/01/\(sample.ids["IMG_0101.JPG"]!).jpg")
        XCTAssertEqual(HTMLScan.attribute("href", of: tile), large, "without JavaScript the link opens the larger image")
        // The card photo is 480 px wide: never enlarged.
        let header = try SecondReader.header(fixture.gallery.appendingPathComponent(large))
        XCTAssertEqual([header.width, header.height], [480, 360])
    }

    func testVideosPlayAndMotionPartsAreLinked() throws {
        let video = try XCTUnwrap(try sample.tile("video", on: "2024-02.html"))
        let id = sample.ids["video"]!
        XCTAssertEqual(HTMLScan.attribute("data-video", of: video), "../Videos/2024/02/\(id).mp4")
        XCTAssertEqual(HTMLScan.attribute("href", of: video), "../Videos/2024/02/\(id).mp4")
        XCTAssertEqual(HTMLScan.attribute("data-details", of: video), "0:02 · H264 · Apple iPhone 13")
        XCTAssertEqual(HTMLScan.attribute("data-source", of: video), "Date from the video's QuickTime creation date")
        XCTAssertTrue(try fixture.page("2024-02.html").contains("<span class=\"badge\">\u{25B6}\u{FE0E} 0:02</span>"))

        let motion = try XCTUnwrap(try sample.tile("IMG_0104.JPG", on: "2024-02.html"))
        XCTAssertEqual(HTMLScan.attribute("data-motion", of: motion), "../Photos/2024/02/\(sample.ids["IMG_0104.JPG"]!).mp4",
                       "a motion photo's video, published by motion-video")
        let live = try XCTUnwrap(try sample.tile("IMG_0105.JPG", on: "2023-12.html"))
        XCTAssertEqual(HTMLScan.attribute("data-motion", of: live), "../Photos/2023/12/\(sample.ids["IMG_0105.JPG"]!).mov",
                       "a Live Photo's video, owned by the video's own subject")
        XCTAssertTrue(live.contains("class=\"tile live\""), live)
    }
}

/// Image sizes read by the vips CLI, not by the code under test.
enum SecondReader {
    static func header(_ url: URL) throws -> (width: Int, height: Int) {
        let output = try Fixtures.run("vipsheader", ["-f", "width", url.path]) + " " + (try Fixtures.run("vipsheader", ["-f", "height", url.path]))
        let numbers = output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard numbers.count == 2 else { throw FixtureError("vipsheader said \(output) of \(url.path)") }
        return (numbers[0], numbers[1])
    }
}
