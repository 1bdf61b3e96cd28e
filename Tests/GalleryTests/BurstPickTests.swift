import DarkroomModel
import DarkroomTestSupport
import Foundation
import XCTest

/// Three shots of one camera within a second are one burst: the gallery shows the sharpest with a
/// count that opens the other two, and a time-lapse or a collage shows only it unless `bursts: all`.
final class BurstPickTests: XCTestCase {
    /// A card with a burst (three shots of one camera 0.3 s apart, the middle one sharp and the
    /// others blurred) and two photos of other days; the burst's sharp shot's file name.
    private func burstCard(_ fixture: GalleryFixture) throws -> String {
        let camera = ["-Make=Canon", "-Model=Canon EOS R5", "-OffsetTimeOriginal=+01:00"]
        for (index, subSeconds) in ["100", "400", "700"].enumerated() {
            let photo = try fixture.photo("IMG_100\(index + 1).JPG", exif: camera + ["-DateTimeOriginal=2024:03:10 10:00:00", "-SubSecTimeOriginal=\(subSeconds)"])
            if index != 1 {
                let blurred = fixture.folder.path("blurred-\(index).jpg")
                try Fixtures.run("vips", ["gaussblur", photo.path, blurred.path + "[Q=90]", "4"])
                try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-tagsFromFile", photo.path, "-all:all", blurred.path])
                try FileManager.default.removeItem(at: photo)
                try FileManager.default.moveItem(at: blurred, to: photo)
            }
        }
        try fixture.photo("IMG_1004.JPG", exif: camera + ["-DateTimeOriginal=2024:03:11 12:00:00"])
        try fixture.photo("IMG_1005.JPG", exif: camera + ["-DateTimeOriginal=2024:03:12 12:00:00"])
        return "IMG_1002.JPG"
    }

    func testTheGalleryShowsABurstByItsSharpestShotWithACountThatOpensTheOthers() throws {
        let fixture = try GalleryFixture("burst-gallery")
        let sharp = try burstCard(fixture)
        try fixture.importCard()
        try fixture.makeGallery()

        let page = try String(contentsOf: fixture.gallery.appendingPathComponent("2024-03.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("3 photos; 2 more shots in bursts"), "the month counts the burst once, and its other shots apart")
        XCTAssertEqual(page.components(separatedBy: "BURST 3").count - 1, 1, "one burst, marked on its pick")
        XCTAssertTrue(page.contains("+2 more shots of this burst"))
        // The pick is the sharp shot: its tile is the one with the badge, before the opener.
        let sharpID = ContentHash.uuid(fromHex: try ContentHash.ofFile(fixture.card.appendingPathComponent(sharp))).uuidString.lowercased()
        let pickTile = try XCTUnwrap(page.range(of: "id=\"p-\(sharpID)\""), "the sharp shot is on the page")
        let badge = try XCTUnwrap(page.range(of: "BURST 3"))
        let opener = try XCTUnwrap(page.range(of: "<details>"))
        XCTAssertTrue(pickTile.lowerBound < badge.lowerBound && badge.lowerBound < opener.lowerBound,
                      "the sharp shot (\(sharpID)) carries the burst's badge and is shown, the others behind the count")
        let closer = try XCTUnwrap(page.range(of: "</details>"))
        let behind = page[opener.lowerBound..<closer.upperBound]
        XCTAssertEqual(behind.components(separatedBy: "class=\"tile").count - 1, 2, "the two other shots are behind the count")
        XCTAssertFalse(behind.contains("id=\"p-\(sharpID)\""))

        // `bursts: all` shows every shot as a photo of its own.
        let all = try fixture.run(yaml: """
            inputs:
              include: ["**/*.heic"]
            steps:
              - gallery:
                  folder: every-shot
                  bursts: all
            """, inputs: fixture.galleryInputs)
        XCTAssertEqual(all.failures, [])
        let flat = try String(contentsOf: fixture.library.appendingPathComponent("every-shot/2024-03.html"), encoding: .utf8)
        XCTAssertFalse(flat.contains("BURST"))
        XCTAssertTrue(flat.contains("5 photos"))
    }

    /// Frames seconds apart are one burst by their names (a phone's `_BURST` files, the `COVER` its
    /// pick) or by the camera's mark (Google Camera's `BurstID`, its `BurstPrimary` the pick): the
    /// gallery, made from the library's own files (named by id), finds them by their originals.
    func testFramesNamedOrMarkedAsOneBurstAreOneThoughSecondsApart() throws {
        let fixture = try GalleryFixture("burst-names-marks")
        let camera = ["-Make=Google", "-Model=Pixel 3", "-OffsetTimeOriginal=+01:00"]
        let named = ["IMG_20180914_094602055_BURST001.jpg", "IMG_20180914_094602055_BURST000_COVER.jpg", "IMG_20180914_094602055_BURST002.jpg"]
        for (index, name) in named.enumerated() {
            try fixture.photo(name, exif: camera + ["-DateTimeOriginal=2024:03:10 10:00:0\(index * 3)"])
        }
        for index in 0..<3 {
            try fixture.photo("PXL_\(index).jpg", exif: camera + ["-DateTimeOriginal=2024:03:11 10:00:\(10 + index * 4)",
                                                                  "-XMP-GCamera:BurstID=b-7", "-XMP-GCamera:BurstPrimary=\(index == 2 ? 1 : 0)"])
        }
        try fixture.photo("IMG_2001.JPG", exif: camera + ["-DateTimeOriginal=2024:03:12 12:00:00"])
        try fixture.importCard()
        try fixture.makeGallery()

        let page = try String(contentsOf: fixture.gallery.appendingPathComponent("2024-03.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("3 photos; 4 more shots in bursts"), "two bursts of three and a photo alone")
        XCTAssertEqual(page.components(separatedBy: "BURST 3").count - 1, 2, "two bursts, each marked on its pick")
        for pick in ["IMG_20180914_094602055_BURST000_COVER.jpg", "PXL_2.jpg"] {
            let id = ContentHash.uuid(fromHex: try ContentHash.ofFile(fixture.card.appendingPathComponent(pick))).uuidString.lowercased()
            let tile = try XCTUnwrap(page.range(of: "id=\"p-\(id)\""), "\(pick) is on the page")
            let opener = try XCTUnwrap(page.range(of: "<details>", range: tile.upperBound..<page.endIndex))
            XCTAssertNotNil(page.range(of: "BURST 3", range: tile.upperBound..<opener.lowerBound), "\(pick) is its burst's pick")
        }
    }

    func testATimelapseShowsABurstOnceUnlessAskedForEveryShot() throws {
        let fixture = try GalleryFixture("burst-timelapse")
        _ = try burstCard(fixture)
        func frames(bursts: String?) throws -> Int {
            let output = "timelapse-\(bursts ?? "default").mp4"
            let report = try fixture.run(yaml: """
                steps:
                  - exif-date:
                      fallback-to-file-time: false
                  - timelapse:
                      size: 320x240
                      preset: ultrafast
                      output: \(output)
                \(bursts.map { "      bursts: \($0)" } ?? "")
                """, inputs: [fixture.card])
            XCTAssertEqual(report.failures, [])
            let probe = try Fixtures.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                        "stream=nb_read_frames", "-of", "csv=p=0",
                                                        fixture.library.appendingPathComponent(output).path])
            return Int(probe.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        XCTAssertEqual(try frames(bursts: nil), 3, "one frame a photo: the burst's pick and the two other days")
        XCTAssertEqual(try frames(bursts: "all"), 5, "every shot")
    }
}
