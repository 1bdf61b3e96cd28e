import DarkroomCore
import DarkroomVips
import Foundation
import XCTest

/// What is in the frames: caption, letterbox or crop, crossfades, deflicker.
final class FrameContentTests: XCTestCase {
    private let width = 320, height = 240

    private func twoGreyDays(_ fixture: TimelapseFixture, greys: (Double, Double) = (90, 90)) throws {
        try fixture.photo(TimelapseFixture.name("p", day: 1), grey: greys.0)
        try fixture.photo(TimelapseFixture.name("p", day: 2), grey: greys.1)
    }

    func testCaptionIsDrawnInItsCornerOnly() throws {
        let fixture = try TimelapseFixture()
        try twoGreyDays(fixture)
        let plain = try fixture.render(["output": "plain.mp4"]).frames(pixelFormat: "gray", width: width, height: height)
        let captioned = try fixture.render(["caption": "true", "caption-position": "bottom-right", "caption-colour": "white",
                                            "output": "captioned.mp4"]).frames(pixelFormat: "gray", width: width, height: height)
        XCTAssertEqual(plain.count, captioned.count)
        // Font size 240 / 20 = 12 px, margin 6: the text sits in the bottom-right corner.
        let corner = (x: width - 100, y: height - 26, w: 94, h: 20)
        for frame in [4, 13] {
            let before = VideoInspection.mean(plain[frame], width: width, x: corner.x, y: corner.y, w: corner.w, h: corner.h)
            let after = VideoInspection.mean(captioned[frame], width: width, x: corner.x, y: corner.y, w: corner.w, h: corner.h)
            XCTAssertGreaterThan(after - before, 15, "white caption text in the bottom-right corner of frame \(frame)")
            let topLeftBefore = VideoInspection.mean(plain[frame], width: width, x: 0, y: 0, w: 150, h: 100)
            let topLeftAfter = VideoInspection.mean(captioned[frame], width: width, x: 0, y: 0, w: 150, h: 100)
            XCTAssertEqual(topLeftAfter, topLeftBefore, accuracy: 1.5, "no caption elsewhere")
        }
    }

    func testCaptionTextFollowsTheFormat() throws {
        let fixture = try TimelapseFixture()
        try twoGreyDays(fixture)
        // The longer format draws wider text: more of the bottom row changes.
        func inkedColumns(_ format: String, _ output: String) throws -> Int {
            let frames = try fixture.render(["caption": "true", "caption-position": "bottom-left", "caption-size": "20",
                                             "caption-format": "\"\(format)\"", "output": output])
                .frames(pixelFormat: "gray", width: width, height: height)
            let frame = frames[4]
            return (0..<width).filter { x in (height - 34..<height - 10).contains { y in frame[y * width + x] > 200 } }.count
        }
        let short = try inkedColumns("d", "short.mp4")
        let long = try inkedColumns("EEEE d MMMM yyyy", "long.mp4")
        XCTAssertGreaterThan(short, 3, "a one-digit day is drawn")
        XCTAssertGreaterThan(long, short * 4, "'Monday 1 January 2024' is much wider than '1'")
    }

    func testContainLetterboxesWithTheBackgroundAndCoverFills() throws {
        let fixture = try TimelapseFixture()
        // Square photos in a 320x240 frame: contain leaves bars left and right.
        for day in 1...2 { try fixture.photo(TimelapseFixture.name("p", day: day), colour: Colour(red: 200, green: 200, blue: 200), width: 200, height: 200) }
        let contain = try fixture.render(["fit": "contain", "background": "\"#0000ff\"", "output": "contain.mp4"])
            .frames(pixelFormat: "rgb24", width: width, height: height)[4]
        let cover = try fixture.render(["fit": "cover", "background": "\"#0000ff\"", "output": "cover.mp4"])
            .frames(pixelFormat: "rgb24", width: width, height: height)[4]
        func pixel(_ frame: Data, _ x: Int, _ y: Int) -> [Int] { (0..<3).map { Int(frame[(y * width + x) * 3 + $0]) } }
        let bar = pixel(contain, 5, 120), centre = pixel(contain, 160, 120)
        XCTAssertLessThan(bar[0], 30, "blue letterbox bar: \(bar)")
        XCTAssertGreaterThan(bar[2], 220, "blue letterbox bar: \(bar)")
        XCTAssertEqual(Double(centre[0]), 200, accuracy: 6, "the photo in the middle: \(centre)")
        let coverEdge = pixel(cover, 5, 120)
        XCTAssertEqual(Double(coverEdge[2]), 200, accuracy: 6, "cover fills the frame (no bar): \(coverEdge)")
    }

    func testCrossfadeBlendsIntoTheNextPhotoWithoutChangingTheLength() throws {
        let fixture = try TimelapseFixture()
        try twoGreyDays(fixture, greys: (20, 220))
        let means = try fixture.render(["crossfade": "3"]).lumaMeans(width: width, height: height)
        XCTAssertEqual(means.count, 18, "crossfade frames come out of the next photo's time")
        XCTAssertEqual(means[8], means[0], accuracy: 3, "photo 1 is shown whole until its span ends")
        let fade = Array(means[9...11])
        XCTAssertTrue(fade[0] > means[8] + 20 && fade[1] > fade[0] + 20 && fade[2] > fade[1] + 20 && means[12] > fade[2] + 20,
                      "three rising blend frames between the photos: \(means)")
        XCTAssertEqual(fade[1], (means[0] + means[12]) / 2, accuracy: 4, "the middle blend is half way")
    }

    func testDeflickerEvensOutBrightnessJumps() throws {
        let fixture = try TimelapseFixture()
        let greys: [Double] = [100, 140, 100, 140, 100, 140, 100]
        for (index, grey) in greys.enumerated() { try fixture.photo(TimelapseFixture.name("p", day: index + 1), grey: grey) }
        func spread(_ options: KeyValuePairs<String, String>) throws -> Double {
            let means = try fixture.render(options).lumaMeans(width: width, height: height)
            let perPhoto = (0..<greys.count).map { means[$0 * 9 + 4] }
            return perPhoto.max()! - perPhoto.min()!
        }
        let raw = try spread(["output": "raw.mp4"])
        let even = try spread(["deflicker": "true", "output": "even.mp4"])
        XCTAssertGreaterThan(raw, 30, "the photos flicker by 40 grey levels")
        XCTAssertLessThan(even, raw / 3, "deflicker evens them out (\(raw) -> \(even))")
    }
}
