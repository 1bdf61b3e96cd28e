import DarkroomCore
import DarkroomVips
import Foundation
import XCTest

/// Variable frame timing (the default): each photo encoded once and held for its slot, timestamps
/// on the 1/frame-rate grid, so a player shows what it would show at a constant frame rate. Checked
/// with ffprobe's frame timestamps, ffmpeg decoding the picture at the middle of each slot, and the
/// file's duration; `frame-timing: constant` writes every frame.
final class FrameTimingTests: XCTestCase {
    private let width = 320, height = 240

    /// Distinct flat colours, one a day, so the picture shown at any time names its photo.
    private let colours: [(name: String, colour: Colour)] = [
        ("red", Colour(red: 220, green: 30, blue: 30)), ("green", Colour(red: 30, green: 200, blue: 30)),
        ("blue", Colour(red: 30, green: 30, blue: 220)), ("yellow", Colour(red: 230, green: 220, blue: 30)),
    ]

    private func colouredDays(_ fixture: TimelapseFixture, count: Int? = nil) throws {
        for (day, photo) in colours.prefix(count ?? colours.count).enumerated() {
            try fixture.photo(TimelapseFixture.name(photo.name, day: day + 1), colour: photo.colour)
        }
    }

    /// The presented frames start and last exactly these numbers of frame periods.
    private func assertTimeline(_ frames: [VideoInspection.Timing], starts: [Int], lengths: [Int],
                                file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(frames.map(\.start), starts.map(Double.init), "frame starts in 1/30 s periods: \(frames)", file: file, line: line)
        XCTAssertEqual(frames.map(\.length), lengths.map(Double.init), "frame durations in periods: \(frames)", file: file, line: line)
    }

    /// The picture at the middle of each photo's slot is that photo's colour (centre pixel).
    private func assertMiddleOfEachSlot(_ video: VideoInspection, slots: [(start: Int, length: Int)], colours expected: [Colour],
                                        file: StaticString = #filePath, line: UInt = #line) throws {
        for (slot, colour) in zip(slots, expected) {
            let seconds = (Double(slot.start) + Double(slot.length) / 2) / 30
            let picture = try video.picture(at: seconds, width: width, height: height)
            let offset = (height / 2 * width + width / 2) * 3
            let shown = (0..<3).map { Double(picture[offset + $0]) }
            for (channel, want) in zip(shown, [colour.red, colour.green, colour.blue]) {
                XCTAssertEqual(channel, want, accuracy: 12, "at \(seconds) s the player shows \(shown), expected \(colour)", file: file, line: line)
            }
        }
    }

    func testEachPhotoIsOneFrameHeldForItsSlotOnTheGrid() throws {
        let fixture = try TimelapseFixture()
        try colouredDays(fixture)
        let video = try fixture.render(["seconds-per-frame": "0.3"])
        try assertHeldForItsSlot(video)
    }

    /// The default preset, medium, would reorder frames with B-frames: held frames must not (the
    /// ffmpeg CLI retimes a reordered variable-rate file wrongly), so the timeline is exact and a
    /// conversion to 30 fps gives every photo its 9 frames.
    func testTheMediumPresetKeepsHeldFramesInOrder() throws {
        let fixture = try TimelapseFixture()
        try colouredDays(fixture)
        let video = try fixture.render(["seconds-per-frame": "0.3", "preset": "medium"])
        try assertHeldForItsSlot(video)
    }

    private func assertHeldForItsSlot(_ video: VideoInspection, file: StaticString = #filePath, line: UInt = #line) throws {
        let frames = try video.shownFrames()
        assertTimeline(frames, starts: [0, 9, 18, 27], lengths: [9, 9, 9, 9], file: file, line: line)
        let probe = try video.probe()
        XCTAssertEqual(probe.decodedFrames, 4, "one frame a photo", file: file, line: line)
        XCTAssertEqual(probe.duration, 1.2, accuracy: 0.001, "4 photos x 0.3 s, the last photo held to the end", file: file, line: line)
        try assertMiddleOfEachSlot(video, slots: [(0, 9), (9, 9), (18, 9), (27, 9)], colours: colours.map(\.colour), file: file, line: line)
        XCTAssertEqual(try video.frames(pixelFormat: "gray", width: width, height: height).count, 36,
                       "played at 30 fps it is 36 frames, as a constant-rate file would be")

        // What browsers and upload forms check.
        XCTAssertEqual(probe.codec, "h264")
        XCTAssertEqual(probe.codecTag, "avc1")
        XCTAssertEqual(probe.pixelFormat, "yuv420p")
        XCTAssertEqual([probe.colourPrimaries, probe.colourTransfer, probe.colourSpace], ["bt709", "bt709", "bt709"])
        XCTAssertEqual(try video.decodeErrors(), "", "ffmpeg decodes the whole file without a complaint")
        let boxes = try video.topLevelBoxes()
        XCTAssertLessThan(try XCTUnwrap(boxes.firstIndex(of: "moov")), try XCTUnwrap(boxes.firstIndex(of: "mdat")), "fast start: \(boxes)")
    }

    /// 0.25 s at 25 fps is 6.25 periods a photo: slots of 6 or 7 periods that never drift.
    func testFractionalSlotsStayOnTheGridWithoutDrift() throws {
        let fixture = try TimelapseFixture()
        for day in 1...7 { try fixture.photo(TimelapseFixture.name("p", day: day), grey: Double(day * 30)) }
        let video = try fixture.render(["fps": "4", "frame-rate": "25"])
        // Photo k covers [round(6.25 k), round(6.25 (k + 1))).
        assertTimeline(try video.shownFrames(frameRate: 25), starts: [0, 6, 13, 19, 25, 31, 38], lengths: [6, 7, 6, 6, 6, 7, 6])
        XCTAssertEqual(try video.probe().duration, 44.0 / 25, accuracy: 0.001)
    }

    /// Crossfade frames are one period each, taken from the start of the next photo's slot (preset
    /// medium, whose B-frames are turned off for held frames).
    func testCrossfadeFramesStayAtTheFullFrameRate() throws {
        let fixture = try TimelapseFixture()
        try colouredDays(fixture, count: 3)
        let video = try fixture.render(["crossfade": "3", "preset": "medium"])
        assertTimeline(try video.shownFrames(), starts: [0, 9, 10, 11, 12, 18, 19, 20, 21], lengths: [9, 1, 1, 1, 6, 1, 1, 1, 6])
        XCTAssertEqual(try video.probe().duration, 0.9, accuracy: 0.001)
        try assertMiddleOfEachSlot(video, slots: [(0, 9), (12, 6), (21, 6)], colours: colours.prefix(3).map(\.colour))
        XCTAssertEqual(try video.frames(pixelFormat: "gray", width: width, height: height).count, 27, "retimed to 30 fps by the ffmpeg CLI")
        XCTAssertEqual(try video.decodeErrors(), "")
    }

    func testConstantTimingWritesEveryFrame() throws {
        let fixture = try TimelapseFixture()
        try colouredDays(fixture)
        let video = try fixture.render(["frame-timing": "constant"])
        let probe = try video.probe()
        XCTAssertEqual(probe.decodedFrames, 36, "4 photos x 9 frames, each written")
        XCTAssertEqual(probe.frameRate, "30/1")
        assertTimeline(try video.shownFrames(), starts: Array(0..<36), lengths: Array(repeating: 1, count: 36))
        XCTAssertEqual(probe.duration, 1.2, accuracy: 0.001)
        try assertMiddleOfEachSlot(video, slots: [(0, 9), (9, 9), (18, 9), (27, 9)], colours: colours.map(\.colour))
        XCTAssertEqual(try video.decodeErrors(), "")
    }

    func testHEVCHeldFramesAreOnTheGridToo() throws {
        let fixture = try TimelapseFixture()
        try colouredDays(fixture, count: 3)
        let video = try fixture.render(["codec": "hevc"])
        let probe = try video.probe()
        XCTAssertEqual(probe.codec, "hevc")
        XCTAssertEqual(probe.codecTag, "hvc1")
        assertTimeline(try video.shownFrames(), starts: [0, 9, 18], lengths: [9, 9, 9])
        XCTAssertEqual(probe.duration, 0.9, accuracy: 0.001)
        try assertMiddleOfEachSlot(video, slots: [(0, 9), (9, 9), (18, 9)], colours: colours.prefix(3).map(\.colour))
        XCTAssertEqual(try video.decodeErrors(), "")
    }

    /// The encoders count their key-frame interval (250) in frames: 250 photos of 1 s would be one
    /// key frame in four minutes. Held frames get a key frame at least every 250 periods (8.3 s at
    /// 30 fps), so seeking stays as fine as at a constant frame rate.
    func testKeyFramesComeEveryFewSecondsOfPlayback() throws {
        let fixture = try TimelapseFixture()
        // Near-identical photos (only the marker pixel differs): no scene cut would make key frames.
        for day in 1...20 { try fixture.photo(TimelapseFixture.name("p", day: day), grey: 120) }
        let frames = try fixture.render(["seconds-per-frame": "1"]).shownFrames()
        XCTAssertEqual(frames.count, 20)
        let keys = frames.filter(\.key).map(\.start)
        XCTAssertEqual(keys.first, 0)
        XCTAssertGreaterThanOrEqual(keys.count, 3, "a key frame every ~8.3 s of a 20 s video: \(keys)")
        let gaps = zip(keys.dropFirst(), keys).map { $0 - $1 }
        XCTAssertLessThanOrEqual(gaps.max() ?? 0, 250 + 30, "no more than 250 periods and one photo between key frames: \(keys)")
    }
}
