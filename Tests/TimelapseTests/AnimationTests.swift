import DarkroomCore
import DarkroomStages
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// `format: webp | gif`: animations to share in chat apps, checked with libvips' own readers.
final class AnimationTests: XCTestCase {
    /// Four photos of rising grey: one frame each, in date order (not file-name order).
    private func greyPhotos(_ fixture: TimelapseFixture) throws {
        for (prefix, day, grey) in [("d", 1, 40.0), ("c", 2, 100.0), ("b", 3, 160.0), ("a", 4, 220.0)] {
            try fixture.photo(TimelapseFixture.name(prefix, day: day), grey: grey)
        }
    }

    func testAGIFHasOneFramePerPhotoWithItsDelayLoopingForever() throws {
        let fixture = try TimelapseFixture()
        try greyPhotos(fixture)
        let (report, file) = try fixture.run(["format": "gif", "seconds-per-frame": "0.3"])
        let gif = AnimationInspection(url: try XCTUnwrap(file, "no timelapse.gif: \(report.failures)"))
        let header = try gif.header()
        let signature = try gif.signature()
        XCTAssertTrue(signature.hasPrefix("GIF89a"), signature)
        XCTAssertEqual(header["vips-loader"], "gifload")
        XCTAssertEqual(try gif.frameCount(), 4, "one frame a photo")
        XCTAssertEqual(try gif.delays(), [300, 300, 300, 300], "each photo's delay is seconds-per-frame (GIF counts 1/100 s)")
        XCTAssertEqual(header["loop"], "0", "0 loops forever")
        XCTAssertTrue(try gif.contains("NETSCAPE2.0"), "the looping extension browsers read")
        XCTAssertEqual(header["width"], "320")
        XCTAssertEqual(header["height"], "240")
        let means = try (0..<4).map { try gif.meanOfFrame($0, scratch: fixture.folder.url) }
        for (mean, grey) in zip(means, [40.0, 100, 160, 220]) {
            XCTAssertEqual(mean, grey, accuracy: 4, "frames in capture-date order, colours kept by the palette: \(means)")
        }
    }

    func testAWebPDefaultsToAChatSizeAndKeepsTheTiming() throws {
        let fixture = try TimelapseFixture()
        for day in 1...3 { try Fixtures.photo(fixture.photos.appendingPathComponent(TimelapseFixture.name("p", day: day)), width: 400, height: 300, seed: day) }
        // `size:` with no value is the option not given (the fixture's small default left out).
        let (report, file) = try fixture.run(["format": "webp", "size": "", "seconds-per-frame": "0.25"])
        let webp = AnimationInspection(url: try XCTUnwrap(file, "no timelapse.webp: \(report.failures)"))
        XCTAssertEqual(file?.lastPathComponent, "timelapse.webp", "the default output follows the format")
        let header = try webp.header()
        let signature = try webp.signature()
        XCTAssertTrue(signature.hasPrefix("RIFF") && signature.contains("WEBPVP8X"), signature)
        XCTAssertTrue(try webp.contains("ANIM"), "an animated WebP")
        XCTAssertEqual(header["vips-loader"], "webpload")
        XCTAssertEqual(try webp.frameCount(), 3)
        XCTAssertEqual(try webp.delays(), [250, 250, 250])
        XCTAssertEqual(header["loop"], "0")
        XCTAssertEqual(header["width"], "720", "long edge 720 when size is not given")
        XCTAssertEqual(header["height"], "405")
    }

    func testCrossfadeFramesLastAFramePeriodEachAndEveryPhotoKeepsItsTime() throws {
        let fixture = try TimelapseFixture()
        try greyPhotos(fixture)
        let (report, file) = try fixture.run(["format": "gif", "seconds-per-frame": "0.3", "crossfade": "3"])
        let gif = AnimationInspection(url: try XCTUnwrap(file, "\(report.failures)"))
        // 1/30 s crossfade frames in 1/100 s: 3, 4, 3 (no drift), then the photo for the rest of its 0.3 s.
        XCTAssertEqual(try gif.delays(), [300] + Array(repeating: [30, 40, 30, 200], count: 3).flatMap { $0 })
        let middle = try gif.meanOfFrame(2, scratch: fixture.folder.url)
        XCTAssertTrue(middle > 50 && middle < 90, "the second crossfade frame is between grey 40 and 100: \(middle)")
    }

    func testMaxBytesMakesItSmallerUntilItFitsAndSaysWhat() throws {
        let fixture = try TimelapseFixture()
        for day in 1...4 { try Fixtures.photo(fixture.photos.appendingPathComponent(TimelapseFixture.name("p", day: day)), width: 800, height: 450, seed: day) }
        let unlimited = try XCTUnwrap(try fixture.run(["format": "gif", "size": "640x360", "output": "full.gif"]).video)
        let fullBytes = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: unlimited.path)[.size] as? Int)
        let limit = fullBytes * 2 / 3
        let log = CapturedLog()
        let (report, file) = try fixture.run(["format": "gif", "size": "640x360", "max-bytes": "\(limit)", "output": "capped.gif"],
                                             logger: log.logger)
        let capped = try XCTUnwrap(file, "\(report.failures)")
        let bytes = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: capped.path)[.size] as? Int)
        XCTAssertLessThanOrEqual(bytes, limit, "fits max-bytes (uncapped: \(fullBytes))")
        let header = try AnimationInspection(url: capped).header()
        let width = try XCTUnwrap(Int(header["width"] ?? ""))
        XCTAssertLessThan(width, 640, "the long edge was lowered")
        XCTAssertGreaterThanOrEqual(width, 480, "not below 480 px")
        XCTAssertEqual(try AnimationInspection(url: capped).frameCount(), 4, "every photo kept while lowering the size was enough")
        XCTAssertTrue(log.text.contains("is over max-bytes") && log.text.contains("long edge lowered to"), "the run says what was lowered: \(log.text)")
    }

    func testAMaxBytesThatCannotBeMetFailsWithTheReasonAndLeavesNoFile() throws {
        let fixture = try TimelapseFixture()
        for day in 1...3 { try Fixtures.photo(fixture.photos.appendingPathComponent(TimelapseFixture.name("p", day: day)), width: 640, height: 360, seed: day) }
        let (report, file) = try fixture.run(["format": "webp", "size": "480x270", "max-bytes": "2KB"])
        XCTAssertNil(file, "no animation over the limit is published")
        XCTAssertTrue(report.failures.contains { $0.step == "timelapse" && $0.reason.contains("cannot fit in max-bytes 2000")
                && $0.reason.contains("every other photo left out") }, "\(report.failures)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.library.appendingPathComponent(".darkroom/tmp").path)
        XCTAssertEqual(leftovers, [], "no temp file left behind")
    }

    func testOnePaletteStoresWhatStaysTheSameOnceAndEitherPaletteKeepsTheFrames() throws {
        let fixture = try TimelapseFixture()
        let scene = fixture.folder.path("scene.jpg")
        try Fixtures.photo(scene, width: 480, height: 360, seed: 7)
        // The same scene four times with a red square moving across it (a plant growing, say).
        for day in 1...4 {
            try Image.open(scene.path).drawingRectangles([(x: day * 80, y: 150, width: 60, height: 60)], colour: Colour(red: 220, green: 30, blue: 30))
                .write(to: fixture.photos.appendingPathComponent(TimelapseFixture.name("p", day: day)).path, as: .jpeg(quality: 95))
        }
        var bytes: [String: Int] = [:]
        for palette in ["global", "frame"] {
            let (report, file) = try fixture.run(["format": "gif", "size": "480x360", "palette": palette, "output": "\(palette).gif"])
            let gif = AnimationInspection(url: try XCTUnwrap(file, "\(palette): \(report.failures)"))
            XCTAssertEqual(try gif.frameCount(), 4, palette)
            XCTAssertEqual(try gif.delays(), [300, 300, 300, 300], palette)
            bytes[palette] = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: gif.url.path)[.size] as? Int)
        }
        let global = try XCTUnwrap(bytes["global"]), frame = try XCTUnwrap(bytes["frame"])
        XCTAssertLessThan(Double(global), Double(frame) * 0.7, "one palette keeps the unchanged scene as the same bytes: \(bytes)")
    }

    func testACorruptPhotoIsReportedOnceAndLeftOutOfTheAnimation() throws {
        let fixture = try TimelapseFixture()
        for day in [1, 2, 4] { try fixture.photo(TimelapseFixture.name("p", day: day), grey: Double(day * 50)) }
        let broken = try fixture.truncatedPhoto(TimelapseFixture.name("broken", day: 3))
        let (report, file) = try fixture.run(["format": "gif"])
        let gif = AnimationInspection(url: try XCTUnwrap(file, "made from the good photos: \(report.failures)"))
        XCTAssertEqual(try gif.frameCount(), 3)
        XCTAssertEqual(report.failures.map(\.path), [broken.path], "\(report.failures)")
        XCTAssertTrue(report.failures.first?.reason.contains("cannot decode image") ?? false, "\(report.failures)")
    }

    /// Each bad combination is reported against its key when the pipeline loads.
    func testOptionsThatDoNotFitTheFormatPointAtTheKey() throws {
        let cases: [(KeyValuePairs<String, String>, key: String, words: String)] = [
            (["format": "gif", "size": "1920x1080"], "size", "at most 1080"),
            (["format": "webp", "size": "story"], "size", "at most 1080"),
            (["format": "gif", "output": "clip.mp4"], "output", ".gif for format gif"),
            (["output": "clip.gif"], "output", ".mp4"),
            (["max-bytes": "8MB"], "max-bytes", "only with format webp or gif"),
            (["format": "webp", "max-bytes": "lots"], "max-bytes", "8MB"),
            (["format": "gif", "crf": "20"], "crf", "only with format mp4"),
            (["format": "gif", "fps": "55", "frame-rate": "60"], "fps", "at least 0.02 s"),
            (["format": "apng"], "format", "webp"),
            (["format": "webp", "palette": "frame"], "palette", "only with format gif"),
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
}
