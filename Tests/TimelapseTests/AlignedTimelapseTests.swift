import AlignmentTestSupport
import DarkroomAlignment
import DarkroomTestSupport
import DarkroomVips
import Foundation
import Logging
import XCTest

/// `align: scene` through the real pipeline and the MP4 it writes: a hand-held set (a real photo
/// shifted up to 6 %, turned up to 5 degrees, scaled 0.92-1.08, brightness 0.8-1.2, a subject growing
/// in the middle) must come out with its background holding still and no black border.
final class AlignedTimelapseTests: XCTestCase {
    static let landscape = "exif-samples/jpg/hdr/iphone_hdr_NO.jpg"  // wisteria, a post, foliage: 3264x2448
    static let (width, height) = (960, 540)

    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    /// Writes the set's photos as JPEGs named with one capture date a day, in order.
    private func write(_ set: HandheldSet, to fixture: TimelapseFixture) throws {
        for (index, photo) in set.photos.enumerated() {
            try photo.image.write(to: fixture.photos.appendingPathComponent(TimelapseFixture.name("hand", day: index + 1)).path,
                                  as: .jpeg(quality: 92))
        }
    }

    func testTheBackgroundHoldsStillWithinHalfAPixelAtHalfHDAndNoFrameHasABorder() throws {
        let set = try HandheldSet(base: try HandheldSet.base(Self.landscape, longEdge: 1460), count: 8, growingSubject: true, seed: 23)
        let fixture = try TimelapseFixture()
        try write(set, to: fixture)
        // A photo with nothing to match (a blank wall) dated among them: left out, and said why.
        let blank = try fixture.photo(TimelapseFixture.name("blank", day: 4, hour: 12), grey: 128, width: 1022, height: 766)

        let (report, video) = try fixture.run(["align": "scene", "size": "\(Self.width)x\(Self.height)"])
        let url = try XCTUnwrap(video, "no video; failures: \(report.failures)")
        XCTAssertEqual(report.failures.count, 1, "\(report.failures)")
        let failure = try XCTUnwrap(report.failures.first)
        XCTAssertEqual(failure.path, blank.path)
        XCTAssertTrue(failure.reason.contains("cannot be aligned") && failure.reason.contains("features"), failure.reason)

        let inspection = VideoInspection(url: url)
        let probe = try inspection.probe()
        XCTAssertEqual([probe.codec, probe.pixelFormat], ["h264", "yuv420p"])
        XCTAssertEqual([probe.width, probe.height], [Self.width, Self.height])
        XCTAssertEqual(probe.decodedFrames, set.photos.count, "one frame a photo (variable timing), the blank one left out")
        XCTAssertEqual(try inspection.decodeErrors(), "")

        let frames = try inspection.encodedFrames(width: Self.width, height: Self.height)
        XCTAssertEqual(frames.count, set.photos.count)

        // The background between consecutive frames: patches around the edges, away from the growing subject.
        let motion = FrameMotion(width: Self.width, height: Self.height)
        // The measure sees motion: the first frame against itself moved 2.5 px right and 1 px down.
        let moved = try Image.gray(frames[0], width: Self.width, height: Self.height)
            .warped(by: SimilarityTransform(dx: 2.5, dy: 1), frame: PixelSize(width: Self.width, height: Self.height), edge: .copy)
            .pixelBytes()
        let known = motion.backgroundShift(from: frames[0], to: moved)
        XCTAssertEqual(known.median, (2.5 * 2.5 + 1).squareRoot(), accuracy: 0.25, "a known move of 2.7 px, measured")
        let pairs = zip(frames, frames.dropFirst()).map { motion.backgroundShift(from: $0, to: $1) }
        let medians = pairs.map(\.median)
        XCTAssertTrue(pairs.allSatisfy { $0.matched >= 5 }, "background patches found again in each pair: \(pairs.map(\.matched))")
        XCTAssertLessThanOrEqual(FrameMotion.median(medians), 0.5, "median background motion per pair (px at 960x540): \(medians)")
        XCTAssertLessThanOrEqual(medians.max() ?? .infinity, 1.0, "median background motion per pair (px at 960x540): \(medians)")

        // No black border: every frame's outermost rows and columns are picture, not black.
        for (index, frame) in frames.enumerated() {
            let edges = FrameMotion.edgeMeans(frame, width: Self.width, height: Self.height)
            XCTAssertGreaterThan(edges.min() ?? 0, 20, "frame \(index): mean luma of the top, bottom, left, right edge \(edges)")
            XCTAssertLessThan(FrameMotion.darkEdgeFraction(frame, width: Self.width, height: Self.height), 0.02, "frame \(index)")
        }
    }

    /// The run's JSON report (as `--report run.json` writes it) lists each photo with its transform: a
    /// set cut from one photo at known offsets must report those offsets as shifts (at the output size).
    func testTheJSONReportListsEachPhotosShiftAngleAndScale() throws {
        let base = try HandheldSet.base(Self.landscape, longEdge: 1200)  // 1200x900
        let fixture = try TimelapseFixture()
        // Photo k shows the base from (120, 90) + offset: its pixels are photo 0's moved by the offset.
        let offsets: [(x: Double, y: Double)] = [(0, 0), (36, -20), (-28, 24), (50, 12)]
        var paths: [String] = []
        for (index, offset) in offsets.enumerated() {
            let url = fixture.photos.appendingPathComponent(TimelapseFixture.name("step", day: index + 1))
            try base.cropped(left: 120 + Int(offset.x), top: 90 + Int(offset.y), width: 960, height: 720)
                .write(to: url.path, as: .jpeg(quality: 92))
            paths.append(url.path)
        }
        let blank = try fixture.photo(TimelapseFixture.name("blank", day: 2, hour: 12), grey: 128, width: 960, height: 720)
        let (report, video) = try fixture.run(["align": "scene", "size": "640x480"])
        XCTAssertNotNil(video, "\(report.failures)")

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: encoder.encode(report)) as? [String: Any])
        let facts = try XCTUnwrap(json["itemFacts"] as? [[String: Any]], "no itemFacts in \(json.keys.sorted())")
        let scale = 640.0 / 960
        for (path, offset) in zip(paths, offsets) {
            let entry = try XCTUnwrap(facts.first { $0["path"] as? String == path }, "\(path) not in \(facts)")
            XCTAssertEqual(entry["step"] as? String, "timelapse")
            XCTAssertEqual(entry["topic"] as? String, "alignment")
            let figures = try XCTUnwrap(entry["figures"] as? [String: Double], "\(entry)")
            XCTAssertEqual(try XCTUnwrap(figures["shiftX"]), offset.x * scale, accuracy: 1.5, "\(path): \(figures)")
            XCTAssertEqual(try XCTUnwrap(figures["shiftY"]), offset.y * scale, accuracy: 1.5, "\(path): \(figures)")
            XCTAssertEqual(try XCTUnwrap(figures["angle"]), 0, accuracy: 0.2, "\(path): \(figures)")
            XCTAssertEqual(try XCTUnwrap(figures["scale"]), 1, accuracy: 0.005, "\(path): \(figures)")
        }
        let left = try XCTUnwrap(facts.first { $0["path"] as? String == blank.path }, "the blank photo is listed")
        XCTAssertEqual((left["figures"] as? [String: Double])?.isEmpty, true)
        let note = try XCTUnwrap(left["note"] as? String)
        XCTAssertTrue(note.contains("left out") && note.contains("features"), note)
    }

    /// `fill: blur`: the full frame, no black border in any frame, and the picture where the crop version
    /// shows it: the crop version's frame is the blur version's frame cut to the common crop (read from the
    /// `-v` log) and enlarged.
    func testFillBlurKeepsTheFullFrameWithoutABorderAndTheCropVersionsSubject() throws {
        let set = try HandheldSet(base: try HandheldSet.base(Self.landscape, longEdge: 1000), count: 5, growingSubject: true, seed: 11)
        let (width, height) = (640, 360)
        let cropped = try TimelapseFixture(), blurred = try TimelapseFixture()
        try write(set, to: cropped)
        try write(set, to: blurred)
        let log = CapturedLog()
        var logger = log.logger
        logger.logLevel = .info
        let (cropReport, cropVideo) = try cropped.run(["align": "scene", "size": "\(width)x\(height)"], logger: logger)
        let (blurReport, blurVideo) = try blurred.run(["align": "scene", "fill": "blur", "size": "\(width)x\(height)"])
        XCTAssertEqual(cropReport.failures + blurReport.failures, [])
        let blurInspection = VideoInspection(url: try XCTUnwrap(blurVideo))
        let probe = try blurInspection.probe()
        XCTAssertEqual([probe.width, probe.height], [width, height])
        let blurFrames = try blurInspection.encodedFrames(width: width, height: height)
        let cropFrames = try VideoInspection(url: try XCTUnwrap(cropVideo)).encodedFrames(width: width, height: height)
        XCTAssertEqual(blurFrames.count, set.photos.count)
        XCTAssertEqual(cropFrames.count, set.photos.count)

        let line = try XCTUnwrap(log.text.split(separator: "\n").first { $0.contains("cropped to") }, log.text)
        let numbers = try XCTUnwrap(line.firstMatch(of: /cropped to (\d+)x(\d+) at \((-?\d+), (-?\d+)\)/), String(line))
        let crop = (width: Double(numbers.1)!, x: Double(numbers.3)!, y: Double(numbers.4)!)
        let zoom = Double(width) / crop.width
        XCTAssertGreaterThan(zoom, 1.02, "the hand-held set needs a crop: \(line)")
        let frame = PixelSize(width: width, height: height)
        for (index, (blur, cropFrame)) in zip(blurFrames, cropFrames).enumerated() {
            let edges = FrameMotion.edgeMeans(blur, width: width, height: height)
            XCTAssertGreaterThan(edges.min() ?? 0, 20, "frame \(index): mean luma of the top, bottom, left, right edge \(edges)")
            XCTAssertLessThan(FrameMotion.darkEdgeFraction(blur, width: width, height: height), 0.02, "frame \(index)")
            let enlarged = try Image.gray(blur, width: width, height: height)
                .warped(by: SimilarityTransform(scale: zoom, dx: -crop.x * zoom, dy: -crop.y * zoom), frame: frame, edge: .copy)
                .pixelBytes()
            let centre = { (plane: Data) in Self.region(plane, width: width, x: width / 4, y: height / 4, w: width / 2, h: height / 2) }
            let agreement = FrameMotion.correlation(centre(enlarged), centre(cropFrame))
            XCTAssertGreaterThan(agreement, 0.9, "frame \(index): the blur frame's centre, cut and enlarged as the crop, against the crop frame's")
        }
    }

    /// A `w` x `h` region of a grey plane `width` wide, as numbers.
    static func region(_ plane: Data, width: Int, x: Int, y: Int, w: Int, h: Int) -> [Double] {
        (y..<y + h).flatMap { row in (x..<x + w).map { Double(plane[plane.startIndex + row * width + $0]) } }
    }

    func testAPhotoThatCannotBeAlignedIsKeptWithAWarningWhenAsked() throws {
        let set = try HandheldSet(base: try HandheldSet.base(Self.landscape, longEdge: 900), count: 3, growingSubject: false, seed: 5)
        let fixture = try TimelapseFixture()
        try write(set, to: fixture)
        let blank = try fixture.photo(TimelapseFixture.name("blank", day: 2, hour: 12), grey: 128, width: 630, height: 472)

        let (report, video) = try fixture.run(["align": "scene", "unaligned": "keep", "size": "640x360"])
        let probe = try VideoInspection(url: try XCTUnwrap(video, "\(report.failures)")).probe()
        XCTAssertEqual(probe.decodedFrames, 4, "the blank photo is shown")
        XCTAssertTrue(report.failures.isEmpty, "\(report.failures)")
        let warning = try XCTUnwrap(report.warnings.first { $0.path == blank.path }, "\(report.warnings)")
        XCTAssertTrue(warning.reason.contains("shown unaligned") && warning.reason.contains("features"), warning.reason)
    }
}

extension Image {
    /// An 8-bit grey image of `width` x `height` packed pixels (a decoded frame).
    static func gray(_ pixels: Data, width: Int, height: Int) throws -> Image {
        let rgb = Data(pixels.flatMap { [$0, $0, $0] })
        return try Image.rgb(rgb, width: width, height: height).extractBand(0)
    }
}

extension VideoInspection {
    /// Every frame the file holds, decoded once each (no frame-rate conversion), as 8-bit grey planes.
    func encodedFrames(width: Int, height: Int) throws -> [Data] {
        let raw = try Tool.run("ffmpeg", ["-v", "error", "-i", url.path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        let size = width * height
        XCTAssertEqual(raw.count % size, 0, "raw output is not a whole number of frames")
        return stride(from: 0, to: raw.count - size + 1, by: size).map { raw.subdata(in: $0..<$0 + size) }
    }
}
