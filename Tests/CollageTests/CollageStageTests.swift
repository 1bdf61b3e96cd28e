import DarkroomCore
import DarkroomCatalog
import DarkroomStages
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest
import DarkroomModel
import DarkroomOptions
import DarkroomReport

/// The stage end to end through the runner: grouping, names, formats, a photo that fails to decode.
final class CollageStageTests: XCTestCase {
    var folder: TemporaryFolder!
    var inputs: URL { folder.path("in") }
    var library: URL { folder.path("library") }

    override func setUpWithError() throws {
        try NativeLibraries.start()
        folder = try TemporaryFolder("collage")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
    }

    func run(_ collage: String) throws -> RunReport {
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(yaml: """
            inputs: { include: ["**/*.jpg"] }
            steps:
              - exif-date
              - collage: \(collage)
            """, file: "test.yaml")
        return try Runner(pipeline: pipeline, settings: RunSettings(library: library, jobs: 2)).run(inputs: [inputs])
    }

    func files(under path: String) -> [String] {
        let base = library.appendingPathComponent(path)
        return ((try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []).sorted()
    }

    func testGroupByMonthMakesOneCollagePerMonthWithTheirNames() throws {
        try Fixtures.makePhoto("a.jpg", in: inputs, date: "2024:01:05 10:00:00", colour: "red")
        try Fixtures.makePhoto("b.jpg", in: inputs, date: "2024:01:20 10:00:00", colour: "green")
        try Fixtures.makePhoto("c.jpg", in: inputs, date: "2024:02:02 10:00:00", colour: "blue")
        try Fixtures.makePhoto("d.jpg", in: inputs, date: "2024:03:30 10:00:00", colour: "orange")
        try Fixtures.makePhoto("e.jpg", in: inputs, date: "2024:03:31 10:00:00", colour: "purple")
        let report = try run("{ template: grid, group-by: month, size: 400x400, title: '{first-date:MMMM yyyy}' }")
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(files(under: "collages"), ["2024-01-grid.jpg", "2024-02-grid.jpg", "2024-03-grid.jpg"])
        let january = try Image.open(library.appendingPathComponent("collages/2024-01-grid.jpg").path)
        XCTAssertEqual([january.width, january.height], [400, 400])
    }

    func testAGroupLargerThanOneCollageIsNumbered() throws {
        for day in 1...5 {
            try Fixtures.makePhoto("p\(day).jpg", in: inputs, date: "2024:05:0\(day) 08:00:00", colour: "grey")
        }
        let report = try run("{ template: grid, grid: 2x2, group-by: week, size: 200x200, format: png, output: 'c/{week}-{n}.png' }")
        XCTAssertEqual(report.failures, [])
        // 1-5 May 2024 are Wednesday to Sunday of ISO week 18: one group, a full 2x2 then one photo.
        XCTAssertEqual(files(under: "c"), ["2024-W18-1.png", "2024-W18-2.png"])
    }

    func testACorruptPhotoIsReportedAndTheCollageMadeFromTheRest() throws {
        try Fixtures.makePhoto("a.jpg", in: inputs, date: "2024:06:01 10:00:00", colour: "red")
        try Fixtures.makePhoto("b.jpg", in: inputs, date: "2024:06:02 10:00:00", colour: "green")
        try Fixtures.makePhoto("whole.jpg", in: folder.url, date: "2024:06:03 10:00:00", colour: "blue", size: "1200x900")
        try Fixtures.makeTruncated(from: folder.path("whole.jpg"), named: "c-truncated.jpg", in: inputs)
        let report = try run("{ template: polaroid, photos-per-collage: 3, size: 300x300 }")
        XCTAssertEqual(report.failures.map(\.step), ["collage"])
        XCTAssertEqual(report.failures.map { URL(fileURLWithPath: $0.path).lastPathComponent }, ["c-truncated.jpg"])
        XCTAssertTrue(report.failures[0].reason.contains("left out of the collage"), report.failures[0].reason)
        XCTAssertEqual(files(under: "collages"), ["polaroid-1.jpg"])
    }

    /// One group that cannot be made does not cost the others: they are published and recorded, and
    /// the next run keeps them (before, recovery removed them as unrecorded on every run).
    func testAGroupThatCannotBeMadeLeavesTheOtherGroupsCollages() throws {
        try Fixtures.makePhoto("a.jpg", in: inputs, date: "2024:01:05 10:00:00", colour: "red")
        try Fixtures.makePhoto("b.jpg", in: inputs, date: "2024:01:20 10:00:00", colour: "green")
        try Fixtures.makePhoto("whole.jpg", in: folder.url, date: "2024:02:03 10:00:00", colour: "blue", size: "1200x900")
        try Fixtures.makeTruncated(from: folder.path("whole.jpg"), named: "c-truncated.jpg", in: inputs)
        let collage = "{ template: grid, group-by: month, size: 300x300 }"
        let report = try run(collage)
        XCTAssertFalse(report.succeeded)
        XCTAssertEqual(report.failed, 1, "one group failed")
        XCTAssertTrue(report.failures.contains { $0.reason.contains("none of its photos could be decoded") }, "\(report.failures)")
        XCTAssertEqual(files(under: "collages"), ["2024-01-grid.jpg"])
        XCTAssertEqual(report.published, ["collages/2024-01-grid.jpg"])
        XCTAssertEqual(try Catalog(library: library).allOutputs().map(\.path), ["collages/2024-01-grid.jpg"],
                       "the collage that was made is recorded")

        let january = library.appendingPathComponent("collages/2024-01-grid.jpg")
        let made = try XCTUnwrap(FileInfo(path: january.path))
        let again = try run(collage)
        XCTAssertEqual(again.failed, 1, "the failed group is tried again")
        XCTAssertEqual(again.published, [], "the group made before is left alone: nothing is written again")
        let kept = try XCTUnwrap(FileInfo(path: january.path))
        XCTAssertEqual([kept.id.inode, UInt64(kept.modificationNanoseconds)], [made.id.inode, UInt64(made.modificationNanoseconds)],
                       "the same file, not a copy written again")
        XCTAssertEqual(files(under: "collages"), ["2024-01-grid.jpg"])
        XCTAssertEqual(try Catalog(library: library).allOutputs().map(\.path), ["collages/2024-01-grid.jpg"])

        // The broken photo mended: February is made, January still left alone, and the step is done.
        try FileManager.default.removeItem(at: inputs.appendingPathComponent("c-truncated.jpg"))
        try FileManager.default.copyItem(at: folder.path("whole.jpg"), to: inputs.appendingPathComponent("c.jpg"))
        let mended = try run(collage)
        XCTAssertTrue(mended.succeeded, "\(mended.failures)")
        XCTAssertEqual(mended.published, ["collages/2024-02-grid.jpg"])
        XCTAssertEqual(try XCTUnwrap(FileInfo(path: january.path)).id.inode, made.id.inode)
        XCTAssertEqual(try run(collage).published, [], "up to date")
    }

    /// A group that no longer exists (its only photo gone) loses its collage; the others stay as they are.
    func testAGroupThatNoLongerExistsLosesItsCollage() throws {
        try Fixtures.makePhoto("a.jpg", in: inputs, date: "2024:01:05 10:00:00", colour: "red")
        try Fixtures.makePhoto("b.jpg", in: inputs, date: "2024:02:05 10:00:00", colour: "green")
        let collage = "{ template: grid, group-by: month, size: 200x200 }"
        XCTAssertEqual(try run(collage).published.sorted(), ["collages/2024-01-grid.jpg", "collages/2024-02-grid.jpg"])
        let january = try XCTUnwrap(FileInfo(path: library.appendingPathComponent("collages/2024-01-grid.jpg").path))
        try FileManager.default.removeItem(at: inputs.appendingPathComponent("b.jpg"))
        let report = try run(collage)
        XCTAssertTrue(report.succeeded, "\(report.failures)")
        XCTAssertEqual(report.published, [])
        XCTAssertEqual(files(under: "collages"), ["2024-01-grid.jpg"])
        XCTAssertEqual(try Catalog(library: library).allOutputs().map(\.path), ["collages/2024-01-grid.jpg"])
        XCTAssertEqual(try XCTUnwrap(FileInfo(path: library.appendingPathComponent("collages/2024-01-grid.jpg").path)).id.inode,
                       january.id.inode)
    }

    func testThenAndNowTooFewPhotosIsAClearError() throws {
        try Fixtures.makePhoto("a.jpg", in: inputs, date: "2024:06:01 10:00:00", colour: "red")
        let report = try run("{ template: then-and-now, size: 200x200 }")
        XCTAssertEqual(report.failures.count, 1)
        XCTAssertTrue(report.failures[0].reason.contains("then-and-now needs two photos with capture dates, found 1"), report.failures[0].reason)
        XCTAssertEqual(files(under: "collages"), [])
    }

    func testFewerPhotosErrorLeavesOutTheShortCollage() throws {
        for day in 1...3 {
            try Fixtures.makePhoto("p\(day).jpg", in: inputs, date: "2024:07:0\(day) 08:00:00", colour: "grey")
        }
        let report = try run("{ template: grid, grid: 2x2, fewer-photos: error, size: 200x200, format: webp, output: 'g/{n}.webp' }")
        XCTAssertEqual(report.failures.count, 1)
        XCTAssertTrue(report.failures[0].reason.contains("3 photo(s), but grid takes 4"), report.failures[0].reason)
    }

    func testHEICOutput() throws {
        try Fixtures.makePhoto("a.jpg", in: inputs, date: "2023:06:01 10:00:00", colour: "red")
        try Fixtures.makePhoto("b.jpg", in: inputs, date: "2024:06:01 10:00:00", colour: "green")
        let report = try run("{ template: then-and-now, pairing: year-apart, size: 320x240, format: heic, preset: ultrafast, output: 'tn/{yyyy}.heic' }")
        XCTAssertEqual(report.failures, [])
        let image = try Image.open(library.appendingPathComponent("tn/2023.heic").path)
        XCTAssertEqual([image.width, image.height], [320, 240])
        let profile = try XCTUnwrap(image.iccProfile, "a HEIC collage says it is sRGB")
        let srgb = try Image.solid(width: 2, height: 2, colour: .white).converted(toProfile: "srgb").iccProfile
        XCTAssertEqual(profile, srgb)
    }

    /// A photo without a colour profile is sRGB: its colours reach the collage as they are (libvips'
    /// thumbnail, asked for sRGB with nothing to convert from, turned this blue into 78,47,221).
    func testAnUntaggedPhotoKeepsItsColoursInAGrid() throws {
        try makeUntaggedBluePair()
        XCTAssertEqual(try run("{ template: grid, grid: 1x1, size: 200x200, format: png, output: 'grid/{n}.png' }").failures, [])
        try assertUntaggedBlue(in: "grid/1.png", at: [(100, 100)])
    }

    func testAnUntaggedPhotoKeepsItsColoursInThenAndNow() throws {
        try makeUntaggedBluePair()
        XCTAssertEqual(try run("{ template: then-and-now, pairing: year-apart, size: 320x240, format: png, output: 'tn/{yyyy}.png' }").failures, [])
        try assertUntaggedBlue(in: "tn/2023.png", at: [(80, 120), (240, 120)])
    }

    private static let untaggedBlue = [30.0, 60, 220]

    private func makeUntaggedBluePair() throws {
        try Fixtures.makeUntaggedPhoto("then.jpg", in: inputs, date: "2023:06:01 10:00:00", rgb: "30,60,220")
        try Fixtures.makeUntaggedPhoto("now.jpg", in: inputs, date: "2024:06:01 10:00:00", rgb: "30,60,220")
    }

    private func assertUntaggedBlue(in collage: String, at points: [(Int, Int)], file: StaticString = #filePath, line: UInt = #line) throws {
        let image = try Image.open(library.appendingPathComponent(collage).path)
        for (x, y) in points {
            let pixel = try image.pixel(x: x, y: y)
            for (channel, expected) in Self.untaggedBlue.enumerated() {
                XCTAssertEqual(pixel[channel], expected, accuracy: 3, "\(collage) at \(x),\(y): \(pixel)", file: file, line: line)
            }
        }
    }

    func testOptionMistakesAreReportedAgainstThePipeline() {
        let cases: [(String, String)] = [
            ("{ template: grid, size: squar }", "steps[1].collage.size: expected square, portrait, story, landscape or WxH (16 to 8000 each), got 'squar' (did you mean 'square'?)"),
            ("{ template: grid, group-by: months }", "steps[1].collage.group-by: expected one of none, day, week, month, got 'months' (did you mean 'month'?)"),
            ("{ template: polaroid, grid: 3x3 }", "steps[1].collage.grid: expected a template laid out as a grid (such as 'grid'), got '3x3' for polaroid"),
            ("{ template: grid, output: 'c/{yyyy}.png' }", "steps[1].collage.output: expected a file name ending in .jpg for format jpeg, got 'c/{yyyy}.png'"),
            ("{ template: grid, output: 'c/{wek}.jpg' }", "steps[1].collage.output: unknown field '{wek}' in 'c/{wek}.jpg' (did you mean '{week}'?)"),
            ("{ template: grid, titel: x }", "steps[1].collage: unknown key 'titel' (did you mean 'title'?)"),
            ("{ template: grid, preset: fast }", "steps[1].collage.preset: expected a preset only for format heic, got 'fast' for jpeg"),
            ("{ template: grid, format: heic, output: 'c/{n}.heic', preset: medum }",
             "steps[1].collage.preset: expected one of ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, got 'medum' (did you mean 'medium'?)"),
            ("{ template: grid, format: png, output: 'c/{n}.png', quality: 50 }",
             "steps[1].collage.quality: expected no quality for png, which is lossless (use jpeg, webp or heic), got 50"),
        ]
        for (options, expected) in cases {
            let yaml = "steps:\n  - exif-date\n  - collage: \(options)\n"
            XCTAssertThrowsError(try PipelineLoader(registry: BuiltInStages.registry).load(yaml: yaml, file: "p.yaml")) { error in
                let headline = (error as? Diagnostics)?.items.first?.headline ?? "\(error)"
                XCTAssertTrue(headline.hasSuffix(expected), "\(headline)\n  expected …\(expected)")
                XCTAssertTrue(headline.hasPrefix("p.yaml:3:"), headline)
            }
        }
    }

    /// `grid: auto`, the documented default, may be written out: it loads and keys as leaving it out.
    func testGridAutoWrittenOutIsTheDefault() throws {
        let loader = PipelineLoader(registry: BuiltInStages.registry)
        func key(_ options: String) throws -> String {
            try loader.load(yaml: "steps:\n  - exif-date\n  - collage: \(options)\n", file: "p.yaml").steps[1].configured.optionsDigest
        }
        XCTAssertEqual(try key("{ template: grid, grid: auto }"), try key("{ template: grid }"))
        XCTAssertEqual(try key("{ template: grid, grid: AUTO }"), try key("{ template: grid }"))
        XCTAssertNotEqual(try key("{ template: grid, grid: 2x2 }"), try key("{ template: grid }"))
    }

    func testShippedPipelinesLoad() throws {
        let folder = Fixtures.root.appendingPathComponent("pipelines")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }
        for name in ["monthly-grid.yaml", "then-and-now.yaml"] { XCTAssertTrue(names.contains(name), name) }
        let loader = PipelineLoader(registry: BuiltInStages.registry)
        for name in names where try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).contains("collage") {
            XCTAssertNoThrow(try loader.load(path: folder.appendingPathComponent(name).path), name)
        }
    }
}
