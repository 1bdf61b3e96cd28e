import DarkroomCore
import DarkroomVips
import Foundation
import XCTest

/// The file itself: what players, browsers and upload forms check.
final class VideoFormatTests: XCTestCase {
    func testSixPhotosAtPointThreeSecondsMakeAStandardH264File() throws {
        let fixture = try TimelapseFixture()
        for day in 1...6 { try fixture.photo(TimelapseFixture.name("p", day: day), grey: Double(day * 30)) }
        let video = try fixture.render(["seconds-per-frame": "0.3"])
        let probe = try video.probe()

        XCTAssertEqual(try video.frames(pixelFormat: "gray", width: 320, height: 240).count, 54, "6 photos x 0.3 s x 30 fps")
        XCTAssertEqual(probe.decodedFrames, 6, "one frame a photo, each held for 9 frame periods")
        XCTAssertEqual(probe.duration, 6 * 0.3, accuracy: 0.001, "duration = photos x seconds-per-frame")
        XCTAssertEqual(probe.width, 320)
        XCTAssertEqual(probe.height, 240)
        XCTAssertEqual(probe.codec, "h264")
        XCTAssertEqual(probe.codecTag, "avc1")
        XCTAssertEqual(probe.pixelFormat, "yuv420p")
        XCTAssertEqual(probe.colourPrimaries, "bt709")
        XCTAssertEqual(probe.colourTransfer, "bt709")
        XCTAssertEqual(probe.colourSpace, "bt709")
        XCTAssertEqual(try video.decodeErrors(), "", "the whole file must decode without errors")

        let boxes = try video.topLevelBoxes()
        let moov = try XCTUnwrap(boxes.firstIndex(of: "moov"), "boxes: \(boxes)")
        let mdat = try XCTUnwrap(boxes.firstIndex(of: "mdat"), "boxes: \(boxes)")
        XCTAssertLessThan(moov, mdat, "fast start: moov before mdat, got \(boxes)")
        XCTAssertEqual(boxes.first, "ftyp")
    }

    func testPacingThatIsNotWholeFramesDoesNotDrift() throws {
        let fixture = try TimelapseFixture()
        for day in 1...7 { try fixture.photo(TimelapseFixture.name("p", day: day), grey: Double(day * 30)) }
        let video = try fixture.render(["fps": "4", "frame-rate": "25", "frame-timing": "constant"])
        let probe = try video.probe()
        // 7 photos at 0.25 s is 1.75 s: 43.75 frames at 25 fps, rounded to 44.
        XCTAssertEqual(probe.decodedFrames, 44)
        XCTAssertEqual(probe.frameRate, "25/1")
        XCTAssertEqual(probe.duration, 44.0 / 25, accuracy: 0.001)
    }

    func testOddSizeIsRoundedToEven() throws {
        let fixture = try TimelapseFixture()
        for day in 1...2 { try fixture.photo(TimelapseFixture.name("p", day: day), grey: 128) }
        let probe = try fixture.render(["size": "321x181"]).probe()
        XCTAssertEqual(probe.width, 322)
        XCTAssertEqual(probe.height, 182)
    }

    /// sRGB red must become BT.709 Y' ≈ 16 + 219 × 0.2126 = 63; swscale's BT.601 default would give 82.
    func testColourIsConvertedWithBT709Coefficients() throws {
        let fixture = try TimelapseFixture()
        try fixture.photo(TimelapseFixture.name("red", day: 1), colour: Colour(red: 255, green: 0, blue: 0))
        try fixture.photo(TimelapseFixture.name("green", day: 2), colour: Colour(red: 0, green: 255, blue: 0))
        let video = try fixture.render(["crf": "10"])
        let frames = try video.frames(pixelFormat: "yuv420p", width: 320, height: 240)
        let lumaBytes = 320 * 240
        let redY = VideoInspection.mean(frames[4].prefix(lumaBytes))
        let greenY = VideoInspection.mean(frames[13].prefix(lumaBytes))
        XCTAssertEqual(redY, 63, accuracy: 3, "BT.709 luma of red")
        XCTAssertEqual(greenY, 173, accuracy: 3, "BT.709 luma of green (BT.601 would be 145)")
    }

    func testHEVCIsTaggedHvc1ForApplePlayers() throws {
        let fixture = try TimelapseFixture()
        for day in 1...3 { try fixture.photo(TimelapseFixture.name("p", day: day), grey: Double(day * 60)) }
        let video = try fixture.render(["codec": "hevc"])
        let probe = try video.probe()
        XCTAssertEqual(probe.codec, "hevc")
        XCTAssertEqual(probe.codecTag, "hvc1")
        XCTAssertEqual(probe.decodedFrames, 3, "one frame a photo")
        XCTAssertEqual(probe.duration, 0.9, accuracy: 0.001)
        XCTAssertEqual(probe.pixelFormat, "yuv420p")
        XCTAssertEqual(probe.colourPrimaries, "bt709")
        XCTAssertEqual(try video.decodeErrors(), "")
    }
}
