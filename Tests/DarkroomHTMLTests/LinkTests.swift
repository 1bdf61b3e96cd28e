import DarkroomHTML
import XCTest

/// Links to files whose names hold spaces, `#`, `?`, `%`, `:` and non-ASCII letters.
final class LinkTests: XCTestCase {
    func testEverySegmentIsPercentEncoded() {
        XCTAssertEqual(URLPath.encoded("collages/Été #1?.jpg"), "collages/%C3%89t%C3%A9%20%231%3F.jpg")
        XCTAssertEqual(URLPath.encoded("a%b/c:d/e&f'g\"h"), "a%25b/c%3Ad/e%26f%27g%22h")
        XCTAssertEqual(URLPath.encoded("Thumbnails/2024/03/0a1b-c_d.e~f.jpg"), "Thumbnails/2024/03/0a1b-c_d.e~f.jpg")
    }

    func testRelativeLinksFromAPagesFolder() {
        XCTAssertEqual(URLPath.relative(fromFolder: "gallery", to: "Thumbnails/2024/03/x.jpg"), "../Thumbnails/2024/03/x.jpg")
        XCTAssertEqual(URLPath.relative(fromFolder: "gallery", to: "gallery/large/2024/03/x.jpg"), "large/2024/03/x.jpg")
        XCTAssertEqual(URLPath.relative(fromFolder: "site/gallery", to: "Photos/x y.heic"), "../../Photos/x%20y.heic")
        XCTAssertEqual(URLPath.relative(fromFolder: "gallery", to: "gallery"), "../gallery", "a file named like the folder is not the folder")
    }

    /// A report written outside the library links back into it, whatever the library is called.
    func testRelativeLinksBetweenAbsolutePaths() {
        XCTAssertEqual(URLPath.relative(fromFolder: "/tmp/reports", to: "/tmp/My Library #1 ?é/Thumbnails/2024/03/x.jpg"),
                       "../My%20Library%20%231%20%3F%C3%A9/Thumbnails/2024/03/x.jpg")
        XCTAssertEqual(URLPath.relative(fromFolder: "/home/ann/lib", to: "/home/ann/lib/Thumbnails/x.jpg"), "Thumbnails/x.jpg")
        XCTAssertEqual(URLPath.relative(fromFolder: "/", to: "/a/b.jpg"), "a/b.jpg")
        XCTAssertEqual(URLPath.relative(fromFolder: "/x/y/z", to: "/a/b.jpg"), "../../../a/b.jpg")
    }

    func testFileURLs() {
        XCTAssertEqual(URLPath.fileURL("/tmp/My Library #1 ?é/x.jpg"), "file:///tmp/My%20Library%20%231%20%3F%C3%A9/x.jpg")
        XCTAssertEqual(URL(string: URLPath.fileURL("/tmp/a b#?é/x.jpg"))?.path, "/tmp/a b#?é/x.jpg", "Foundation reads it back")
    }

    /// Every image a grid writes says its size (so the page keeps its place), its alternative text,
    /// and loads lazily.
    func testEveryGridImageHasSizeAltAndLazyLoading() {
        let tiles = [
            PhotoTile(id: "p-1", thumbnail: "a.jpg", width: 200, height: 150, alt: "Photo", media: .photo(large: "A.jpg"), title: "t"),
            PhotoTile(id: "p-2", thumbnail: "b.jpg", width: 113, height: 200, alt: "Live", media: .live(large: "B.jpg", motion: "b.mov"), title: "t"),
            PhotoTile(id: "p-3", thumbnail: "c.jpg", width: 200, height: 113, alt: "Video", media: .video(source: "c.mp4", poster: "C.jpg", duration: "0:12"),
                      title: "t"),
        ]
        let html = PhotoGrid.markup(tiles).html
        let images = html.matches(of: #/<img [^>]*>/#).map { String($0.output) }
        XCTAssertEqual(images.count, 3)
        for image in images {
            for attribute in [#"width="\d+""#, #"height="\d+""#, #"alt="[^"]+""#, #"loading="lazy""#] {
                XCTAssertNotNil(image.firstMatch(of: try! Regex(attribute)), "\(image) lacks \(attribute)")
            }
        }
        XCTAssertTrue(html.contains("href=\"c.mp4\" data-video=\"c.mp4\" data-large=\"C.jpg\""), "a video's link plays it without JavaScript: \(html)")
        XCTAssertTrue(html.contains("data-motion=\"b.mov\""), html)
        XCTAssertTrue(html.contains(">\u{25B6}\u{FE0E} 0:12</span>"), html)
    }
}
