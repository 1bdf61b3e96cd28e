import CollageStage
import DarkroomAlignment
import DarkroomCore
import DarkroomStages
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest
import DarkroomReport

/// `align: scene` on a then-and-now collage through the runner: a real photo and a retake of it shifted,
/// turned and closer (made with the engine's own warp) must show the same background at the same place
/// of both halves; without `align` they do not.
final class AlignedThenAndNowTests: XCTestCase {
    static let landscape = "exif-samples/jpg/hdr/iphone_hdr_NO.jpg"  // wisteria, a post, foliage: 3264x2448
    static let canvas = CanvasSize(width: 1200, height: 600)
    var folder: TemporaryFolder!
    var inputs: URL { folder.path("in") }
    var library: URL { folder.path("library") }

    override func setUpWithError() throws {
        try NativeLibraries.start()
        folder = try TemporaryFolder("then-and-now-aligned")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
    }

    /// The base picture (1400x1050), a "then" photo from its middle and a "now" photo of the same middle
    /// taken again by hand: `retake` (base pixels about the middle) applied; each with its capture date.
    @discardableResult
    private func writePair(retake: SimilarityTransform, then: String = "then.jpg", now: String = "now.jpg",
                           photo: String = AlignedThenAndNowTests.landscape, longEdge: Int = 1400) throws -> (then: URL, now: URL) {
        let file = try Corpus.file(photo)
        let base = try Image.thumbnail(file.path, width: longEdge, height: longEdge).eightBitRGB().materialized()
        let size = PixelSize(width: base.width * 5 / 7, height: base.height * 5 / 7)
        let toMiddle = SimilarityTransform(dx: -Double(base.width) / 2, dy: -Double(base.height) / 2)
        let fromMiddle = SimilarityTransform(dx: Double(size.width) / 2, dy: Double(size.height) / 2)
        let urls = (inputs.appendingPathComponent(then), inputs.appendingPathComponent(now))
        try base.warped(by: toMiddle.then(fromMiddle), frame: size).write(to: urls.0.path, as: .jpeg(quality: 92))
        try base.warped(by: toMiddle.then(retake).then(fromMiddle), frame: size).write(to: urls.1.path, as: .jpeg(quality: 92))
        try Fixtures.run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=2023:04:01 10:00:00", urls.0.path])
        try Fixtures.run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=2024:04:01 10:00:00", urls.1.path])
        return urls
    }

    /// A plain grey photo with a capture date: nothing to match, no face.
    private func writeBlank(_ name: String, date: String) throws -> URL {
        let url = inputs.appendingPathComponent(name)
        try Image.solid(width: 1000, height: 750, colour: Colour(red: 128, green: 128, blue: 128)).write(to: url.path, as: .jpeg(quality: 92))
        try Fixtures.run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=\(date)", url.path])
        return url
    }

    private func run(_ options: String, library: URL? = nil) throws -> RunReport {
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(yaml: """
            inputs: { include: ["**/*.jpg"] }
            steps:
              - exif-date
              - collage: { template: then-and-now, size: \(Self.canvas.width)x\(Self.canvas.height), format: png\(options) }
            """, file: "test.yaml")
        return try Runner(pipeline: pipeline, settings: RunSettings(library: library ?? self.library, jobs: 2)).run(inputs: [inputs])
    }

    /// The two halves of the collage at `path`, as grey planes of one size, and that size.
    private func halves(_ path: String, library: URL? = nil) throws -> (then: Data, now: Data, width: Int, height: Int) {
        let collage = try Image.open((library ?? self.library).appendingPathComponent(path).path)
        XCTAssertEqual([collage.width, collage.height], [Self.canvas.width, Self.canvas.height])
        let renderer = CollageRenderer(template: try TemplateLibrary.load("then-and-now").template, canvas: Self.canvas)
        let boxes = renderer.photoBoxes(Fixtures.records(2))
        XCTAssertEqual(boxes.count, 2)
        XCTAssertGreaterThan(boxes[1].x, boxes[0].x + boxes[0].width, "side by side on a wide canvas")
        let width = min(boxes[0].width, boxes[1].width), height = min(boxes[0].height, boxes[1].height)
        let planes = try boxes.map { try collage.cropped(left: $0.x, top: $0.y, width: width, height: height).extractBand(1).pixelBytes() }
        return (planes[0], planes[1], width, height)
    }

    func testAlignSceneShowsTheBackgroundAtTheSamePlaceInBothHalvesAndNoneDoesNot() throws {
        try writePair(retake: SimilarityTransform(scale: 1.06, rotation: 3, dx: 45, dy: -30))
        let aligned = try run(", align: scene, output: 'collages/aligned.png'")
        XCTAssertEqual(aligned.failures, [])
        XCTAssertEqual(aligned.warnings, [])
        // Into a library of its own: a changed step replaces the other's collage.
        let plainLibrary = folder.path("plain-library")
        let plain = try run(", output: 'collages/plain.png'", library: plainLibrary)
        XCTAssertEqual(plain.failures, [])

        let scene = try halves("collages/aligned.png")
        let motion = FrameMotion(width: scene.width, height: scene.height)
        let sceneShift = motion.backgroundShift(from: scene.then, to: scene.now)
        XCTAssertGreaterThanOrEqual(sceneShift.matched, 4, "background patches found again in the other half: \(sceneShift)")
        XCTAssertLessThanOrEqual(sceneShift.median, 2, "median background offset between the halves (px): \(sceneShift)")
        print("then-and-now align scene: background offset between the halves \(sceneShift)")
        // No black border: the top, left and right edges of each half are picture (the bottom has the label's band).
        for (name, half) in [("then", scene.then), ("now", scene.now)] {
            let edges = FrameMotion.edgeMeans(half, width: scene.width, height: scene.height)
            XCTAssertGreaterThan(min(edges[0], edges[2], edges[3]), 20, "\(name): mean of the top, bottom, left, right edge \(edges)")
        }

        let none = try halves("collages/plain.png", library: plainLibrary)
        let noneShift = FrameMotion(width: none.width, height: none.height).backgroundShift(from: none.then, to: none.now)
        XCTAssertTrue(noneShift.matched < 4 || noneShift.median > 5, "unaligned halves should disagree: \(noneShift)")
        print("then-and-now align none: background offset between the halves \(noneShift)")
        if let keep = ProcessInfo.processInfo.environment["DARKROOM_COLLAGE_RENDERS"] {
            for (library, name) in [(library, "aligned.png"), (plainLibrary, "plain.png")] {
                try? FileManager.default.copyItem(at: library.appendingPathComponent("collages/" + name),
                                                  to: URL(fileURLWithPath: keep).appendingPathComponent("then-and-now-" + name))
            }
        }

        // The run's report has each photo's alignment; the retake moved about a tenth of the frame.
        let facts = (aligned.itemFacts ?? []).filter { $0.step == "collage" && $0.topic == "alignment" }
        XCTAssertEqual(facts.map { URL(fileURLWithPath: $0.path).lastPathComponent }, ["then.jpg", "now.jpg"])
        let now = try XCTUnwrap(facts.last)
        XCTAssertEqual(try XCTUnwrap(now.figures["angle"]), -3, accuracy: 0.3, "the retake turned 3 degrees, undone: \(now)")
        XCTAssertEqual(try XCTUnwrap(now.figures["scale"]), 1 / 1.06, accuracy: 0.01, "\(now)")
    }

    func testFillBlurKeepsEachCellFullWithoutABorder() throws {
        try writePair(retake: SimilarityTransform(scale: 0.94, rotation: -4, dx: -50, dy: 35))
        let report = try run(", align: scene, fill: blur, output: 'collages/blur.png'")
        XCTAssertEqual(report.failures, [])
        let blur = try halves("collages/blur.png")
        for (name, half) in [("then", blur.then), ("now", blur.now)] {
            let edges = FrameMotion.edgeMeans(half, width: blur.width, height: blur.height)
            XCTAssertGreaterThan(min(edges[0], edges[2], edges[3]), 20, "\(name): mean of the top, bottom, left, right edge \(edges)")
            XCTAssertLessThan(FrameMotion.darkEdgeFraction(half, width: blur.width, height: blur.height), 0.1, name)
        }
        // Not cropped: the background still agrees between the halves where the now photo reaches.
        let shift = FrameMotion(width: blur.width, height: blur.height).backgroundShift(from: blur.then, to: blur.now)
        XCTAssertGreaterThanOrEqual(shift.matched, 3, "\(shift)")
        XCTAssertLessThanOrEqual(shift.median, 2, "\(shift)")
        if let keep = ProcessInfo.processInfo.environment["DARKROOM_COLLAGE_RENDERS"] {
            try? FileManager.default.copyItem(at: library.appendingPathComponent("collages/blur.png"),
                                              to: URL(fileURLWithPath: keep).appendingPathComponent("then-and-now-blur.png"))
        }
    }

    /// `align: face` on a retaken portrait (two people; turned, closer, moved): the faces land at the same
    /// place of both halves.
    func testAlignFacePutsTheFacesAtTheSamePlaceInBothHalves() throws {
        try writePair(retake: SimilarityTransform(scale: 1.08, rotation: 4, dx: 30, dy: -20),
                      photo: "immich-test-assets/metadata/faces/portrait.jpg", longEdge: 840)
        let report = try run(", align: face, output: 'collages/face.png'")
        XCTAssertEqual(report.failures, [])
        let faces = try halves("collages/face.png")
        // Patches over the middle of the picture, where the two faces are.
        let middle = [(0.3, 0.35), (0.5, 0.35), (0.7, 0.35), (0.3, 0.55), (0.5, 0.55), (0.7, 0.55)]
        let shift = FrameMotion(width: faces.width, height: faces.height).backgroundShift(from: faces.then, to: faces.now, at: middle)
        print("then-and-now align face: offset between the halves over the faces \(shift)")
        XCTAssertGreaterThanOrEqual(shift.matched, 4, "\(shift)")
        XCTAssertLessThanOrEqual(shift.median, 3, "median offset between the halves over the faces (px): \(shift)")
        if let keep = ProcessInfo.processInfo.environment["DARKROOM_COLLAGE_RENDERS"] {
            try? FileManager.default.copyItem(at: library.appendingPathComponent("collages/face.png"),
                                              to: URL(fileURLWithPath: keep).appendingPathComponent("then-and-now-face.png"))
        }
    }

    func testAPhotoThatCannotBeAlignedIsLeftOutAndThePairPickedAgain() throws {
        try writePair(retake: SimilarityTransform(dx: 20, dy: 10))
        let blank = try writeBlank("blank.jpg", date: "2025:04:01 10:00:00")
        let report = try run(", align: scene")
        XCTAssertEqual(report.failures.map(\.path), [blank.path])
        let reason = try XCTUnwrap(report.failures.first?.reason)
        XCTAssertTrue(reason.contains("left out of the then-and-now collage") && reason.contains("features"), reason)
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.appendingPathComponent("collages/then-and-now-1.png").path),
                      "made from the two photos that align")
        XCTAssertTrue((report.itemFacts ?? []).contains { $0.path == blank.path && $0.figures.isEmpty && ($0.note ?? "").contains("left out") })
    }

    func testWithUnalignedKeepThePairIsShownAsItIsWithAWarning() throws {
        try writePair(retake: SimilarityTransform(dx: 20, dy: 10), now: "unused.jpg")
        try FileManager.default.removeItem(at: inputs.appendingPathComponent("unused.jpg"))
        let blank = try writeBlank("blank.jpg", date: "2025:04:01 10:00:00")
        let report = try run(", align: scene, unaligned: keep")
        XCTAssertEqual(report.failures, [])
        let warning = try XCTUnwrap(report.warnings.first { $0.path == blank.path }, "\(report.warnings)")
        XCTAssertTrue(warning.reason.contains("shown unaligned") && warning.reason.contains("features"), warning.reason)
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.appendingPathComponent("collages/then-and-now-1.png").path))
    }

    func testAlignIsRefusedForATemplateThatDoesNotPickAPair() throws {
        XCTAssertThrowsError(try PipelineLoader(registry: BuiltInStages.registry).load(yaml: """
            steps:
              - exif-date
              - collage: { template: grid, align: scene }
            """, file: "test.yaml")) { error in
            XCTAssertTrue("\(error)".contains("align only for a then-and-now template"), "\(error)")
        }
    }
}
