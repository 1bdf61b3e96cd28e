import DarkroomVideo
import Foundation
@testable import TimelapseStage
import XCTest

/// Pure arithmetic: frame counts per photo and frame sizes.
final class ScheduleAndSizeTests: XCTestCase {
    func testWholeFramePacingGivesEqualSpans() {
        let schedule = FrameSchedule(secondsPerPhoto: 0.3, frameRate: 30, crossfade: 0)
        XCTAssertEqual((0..<100).map { schedule.frames(forPhotoAt: $0) }, Array(repeating: 9, count: 100))
        XCTAssertEqual(schedule.totalFrames(photos: 365), 3285)
    }

    func testFractionalPacingAlternatesAndNeverDrifts() {
        let schedule = FrameSchedule(secondsPerPhoto: 0.25, frameRate: 30, crossfade: 0)
        let spans = (0..<3000).map { schedule.frames(forPhotoAt: $0) }
        XCTAssertEqual(Set(spans), [7, 8])
        XCTAssertEqual(spans.reduce(0, +), 22_500, "3000 x 0.25 s x 30 fps exactly")
    }

    func testCrossfadeLeavesEachPhotoOneWholeFrame() {
        let schedule = FrameSchedule(secondsPerPhoto: 0.1, frameRate: 30, crossfade: 5)
        XCTAssertEqual(schedule.crossfadeFrames(forPhotoAt: 0), 0, "nothing to fade from")
        XCTAssertEqual(schedule.crossfadeFrames(forPhotoAt: 1), 2)
        XCTAssertEqual(FrameSchedule.weight(step: 0, of: 3), 0.25)
        XCTAssertEqual(FrameSchedule.weight(step: 2, of: 3), 0.75)
    }

    func testEncodedFramesAreOneAPhotoPlusCrossfadesWhenHeld() {
        let cuts = FrameSchedule(secondsPerPhoto: 0.3, frameRate: 30, crossfade: 0)
        XCTAssertEqual(cuts.encodedFrames(photos: 365, timing: .variable), 365, "a frame a photo")
        XCTAssertEqual(cuts.encodedFrames(photos: 365, timing: .constant), 3285)
        let fades = FrameSchedule(secondsPerPhoto: 0.3, frameRate: 30, crossfade: 3)
        XCTAssertEqual(fades.encodedFrames(photos: 3, timing: .variable), 3 + 3 + 3, "three photos and two crossfades of 3 frames")
        XCTAssertEqual(fades.encodedFrames(photos: 3, timing: .constant), 27)
    }

    func testSizesPresetsAndRounding() {
        XCTAssertEqual(FrameSize(parsing: "story"), FrameSize(width: 1080, height: 1920))
        XCTAssertEqual(FrameSize(parsing: "square"), FrameSize(width: 1080, height: 1080))
        XCTAssertEqual(FrameSize(parsing: "portrait"), FrameSize(width: 1080, height: 1350))
        XCTAssertEqual(FrameSize(parsing: "Landscape"), FrameSize(width: 1920, height: 1080))
        XCTAssertEqual(FrameSize(parsing: "641x479")?.description, "642x480")
        XCTAssertNil(FrameSize(parsing: "0x100"))
        XCTAssertNil(FrameSize(parsing: "100x100x3"))
        XCTAssertNil(FrameSize(parsing: "9000x100"))
    }

    func testDeflickerGainsFollowTheNeighbourhoodMean() {
        let gains = Deflicker.gains(means: [100, 200, 100, nil, 1000], window: 3)
        XCTAssertEqual(gains[0], 1.5, accuracy: 1e-9, "(100 + 200) / 2 / 100")
        XCTAssertEqual(gains[1], 0.666_666, accuracy: 1e-5, "(100 + 200 + 100) / 3 / 200")
        XCTAssertEqual(gains[3], 1, "unknown brightness is left alone")
        XCTAssertEqual(gains[4], 1, "(nil, 1000) / 1000")
    }
}
