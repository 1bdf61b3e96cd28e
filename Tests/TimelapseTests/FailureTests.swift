import DarkroomCore
import DarkroomStages
import Foundation
import XCTest

/// Bad photos and bad options: reported clearly, never a half-made video.
final class FailureTests: XCTestCase {
    func testACorruptPhotoIsSkippedAndReportedAndTheVideoIsStillMade() throws {
        let fixture = try TimelapseFixture()
        for day in [1, 2, 4] { try fixture.photo(TimelapseFixture.name("p", day: day), grey: Double(day * 50)) }
        let broken = try fixture.truncatedPhoto(TimelapseFixture.name("broken", day: 3))
        let (report, video) = try fixture.run()
        let url = try XCTUnwrap(video, "the video is made from the good photos: \(report.failures)")
        let inspection = VideoInspection(url: url)
        XCTAssertEqual(try inspection.frames(pixelFormat: "gray", width: 320, height: 240).count, 27, "three good photos, nine frames each")
        XCTAssertEqual(try inspection.decodeErrors(), "")
        let failure = try XCTUnwrap(report.failures.first { $0.path == broken.path }, "the broken photo is reported: \(report.failures)")
        XCTAssertEqual(failure.step, "timelapse")
        XCTAssertTrue(failure.reason.contains("cannot decode image"), failure.reason)
        XCTAssertEqual(report.failures.count, 1, "\(report.failures)")
    }

    func testZeroUsablePhotosIsAClearErrorAndNoFile() throws {
        let fixture = try TimelapseFixture()
        try fixture.truncatedPhoto(TimelapseFixture.name("a", day: 1))
        try fixture.truncatedPhoto(TimelapseFixture.name("b", day: 2))
        let (report, video) = try fixture.run()
        XCTAssertNil(video, "no video from no photos")
        XCTAssertTrue(report.failures.contains { $0.step == "timelapse" && $0.reason.contains("none of the 2 photos could be decoded") },
                      "\(report.failures)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.library.appendingPathComponent(".darkroom/tmp").path)
        XCTAssertEqual(leftovers, [], "no temp file left behind")
    }

    func testADateRangeWithNothingInItIsAClearError() throws {
        let fixture = try TimelapseFixture()
        try fixture.photo(TimelapseFixture.name("a", day: 1), grey: 100)
        let (report, video) = try fixture.run(["from": "2025-01-01"])
        XCTAssertNil(video)
        XCTAssertTrue(report.failures.contains { $0.reason.contains("no photos to render") && $0.reason.contains("1 outside the from/to range") },
                      "\(report.failures)")
    }

    /// Each bad option is reported against its key, before any photo is touched.
    func testBadOptionsPointAtTheKey() throws {
        let cases: [(KeyValuePairs<String, String>, key: String, words: String)] = [
            (["seconds-per-frame": "0.3", "fps": "10"], "fps", "not both"),
            (["seconds-per-frame": "0.01"], "seconds-per-frame", "at least one frame"),
            (["size": "huge"], "size", "story"),
            (["fit": "contian"], "fit", "did you mean 'contain'"),
            (["crossfade": "9"], "crossfade", "fewer frames than each photo lasts (9)"),
            (["output": "video.mov"], "output", ".mp4"),
            (["output": "\"{name}.mp4\""], "output", "unknown field"),
            (["from": "2024-02-30"], "from", "yyyy-MM-dd"),
            (["from": "2024-03-02", "to": "2024-03-01"], "to", "on or after"),
            (["preset": "quick"], "preset", "ultrafast"),
            (["crf": "60"], "crf", "0 to 51"),
            (["frame-rate": "29"], "frame-rate", "24, 25, 30"),
            (["background": "\"#12345\""], "background", "colour"),
            (["deflicker-window": "4"], "deflicker-window", "odd"),
            (["one-per-day": "random"], "one-per-day", "first"),
            (["align": "faces"], "align", "did you mean 'face'"),
            (["unaligned": "keep"], "unaligned", "only with align scene or face"),
            (["align": "scene", "fit": "contain"], "fit", "cover"),
        ]
        for (options, key, words) in cases {
            let yaml = TimelapseFixture.pipeline(options)
            XCTAssertThrowsError(try PipelineLoader(registry: BuiltInStages.registry).load(yaml: yaml, file: "t.yaml"), "\(options)") { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains(key), "error names '\(key)': \(text)")
                XCTAssertTrue(text.contains(words), "error explains with '\(words)': \(text)")
            }
        }
    }

    func testTheShippedPipelineLoads() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry)
            .load(path: root.appendingPathComponent("pipelines/progress-timelapse.yaml").path)
        XCTAssertEqual(pipeline.steps.map(\.name), ["exif-date", "timelapse"])
        XCTAssertEqual(pipeline.collectionSteps.count, 1)
    }
}
