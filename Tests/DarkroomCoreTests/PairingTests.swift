@testable import DarkroomCore
import DarkroomCatalog
import DarkroomTestSupport
import Foundation
import XCTest
@testable import DarkroomLibrary
@testable import DarkroomModel
@testable import DarkroomReport

/// Live Photos: a still and a video that carry the same identifier are one asset. The video is
/// published as the still's motion part (under the still's id and date), in whichever order or run
/// the two arrive. Test files are text: a date line, then an optional `pair: KEY` line.
final class PairingTests: XCTestCase {
    var folder: TemporaryFolder!
    var library: URL { folder.path("library") }

    override func setUpWithError() throws {
        folder = try TemporaryFolder("pairing")
        Invocations.shared.reset()
    }

    func write(_ text: String, to path: String) throws {
        let url = folder.path(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func pipeline() throws -> Pipeline {
        try PipelineLoader(registry: testRegistry).load(yaml: """
            inputs: { include: ["**/*.{txt,mov}"] }
            steps: [text-date, shout, motion, clip]
            """, file: "import.yaml")
    }

    func run(_ inputs: String...) throws -> RunReport {
        try Runner(pipeline: try pipeline(), settings: RunSettings(library: library, jobs: 2)).run(inputs: inputs.map { folder.path($0) })
    }

    func id(of path: String) throws -> String {
        ContentHash.uuid(fromHex: try ContentHash.ofFile(folder.path(path))).uuidString.lowercased()
    }

    func files(under relative: String) -> [String] {
        let root = library.appendingPathComponent(relative)
        return ((FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String]) ?? [])
            .filter { !$0.hasSuffix("/") && FileInfo(path: root.appendingPathComponent($0).path)?.isRegularFile == true }.sorted()
    }

    func asset(_ hash: String) throws -> RememberedFacts? {
        try XCTUnwrap(try Catalog.openIfPresent(library: library)).rememberedFacts(contentHash: hash)
    }

    func testAStillAndItsVideoInOneRunAreOneAsset() throws {
        try write("2023-06-01 still\npair: K1", to: "roll/IMG_0001.txt")
        try write("2023-01-01 video\npair: K1", to: "roll/IMG_0001.mov")
        try write("2022-02-02 a clip of its own", to: "roll/clip.mov")
        let report = try run("roll")
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed, 3)
        // The video is filed under the still's id and the still's date, not its own.
        XCTAssertEqual(files(under: "motion"), ["2023/\(try id(of: "roll/IMG_0001.txt")).mov"])
        XCTAssertEqual(files(under: "clips"), ["clip.mov.txt"], "a paired video gets no place of its own")
        let video = try XCTUnwrap(try asset(try ContentHash.ofFile(folder.path("roll/IMG_0001.mov"))))
        XCTAssertEqual(video.motionOf, try ContentHash.ofFile(folder.path("roll/IMG_0001.txt")))
        XCTAssertEqual(video.captureDate?.local.year, 2023)
        XCTAssertEqual(video.captureDate?.local.month, 6)

        let again = try run("roll")
        XCTAssertEqual(again.processed, 0)
        XCTAssertEqual(again.skipped, 3)
        XCTAssertEqual(again.published, [])
    }

    func testPairingIsByIdentifierNotByName() throws {
        try write("2023-06-01 still\npair: K1", to: "roll/IMG_0002.txt")
        try write("2023-01-01 another moment\npair: K2", to: "roll/IMG_0002.mov")
        try write("2023-06-01 video\npair: K1", to: "roll/renamed.mov")
        let report = try run("roll")
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(files(under: "motion"), ["2023/\(try id(of: "roll/IMG_0002.txt")).mov"])
        XCTAssertEqual(try Data(contentsOf: library.appendingPathComponent("motion/2023/\(try id(of: "roll/IMG_0002.txt")).mov")),
                       try Data(contentsOf: folder.path("roll/renamed.mov")), "the video with the still's identifier, not its name")
        XCTAssertEqual(files(under: "clips"), ["IMG_0002.mov.txt"])
    }

    func testAVideoArrivingAfterItsStillJoinsIt() throws {
        try write("2023-06-01 still\npair: K1", to: "card1/IMG_0003.txt")
        try write("2023-01-01 video\npair: K1", to: "card2/IMG_0003.mov")
        _ = try run("card1")
        let report = try run("card2")
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed, 1)
        XCTAssertEqual(files(under: "motion"), ["2023/\(try id(of: "card1/IMG_0003.txt")).mov"])
        XCTAssertEqual(files(under: "clips"), [])
    }

    func testAVideoImportedOnItsOwnJoinsItsStillLater() throws {
        try write("2023-01-01 video\npair: K1", to: "card1/IMG_0004.mov")
        try write("2023-06-01 still\npair: K1", to: "card2/IMG_0004.txt")
        _ = try run("card1")
        XCTAssertEqual(files(under: "clips"), ["IMG_0004.mov.txt"], "alone, it is a video of its own")

        let report = try run("card2")
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed, 1, "the still; the video is not a file of this run")
        XCTAssertEqual(report.joinedMotionParts.map(\.path), [folder.path("card1/IMG_0004.mov").path])
        XCTAssertEqual(files(under: "motion"), ["2023/\(try id(of: "card2/IMG_0004.txt")).mov"])
        XCTAssertEqual(files(under: "clips"), [], "its own note is retracted")
        let drift = try XCTUnwrap(try Catalog.openIfPresent(library: library)).verify(library: library)
        XCTAssertTrue(drift.isClean, drift.text)

        XCTAssertEqual(try run("card1", "card2").processed, 0)
    }

    func testAVideoWhoseStillIsGoneStaysItsOwn() throws {
        try write("2023-01-01 video\npair: K1", to: "card1/IMG_0005.mov")
        try write("2023-06-01 still\npair: K1", to: "card2/IMG_0005.txt")
        _ = try run("card1")
        try FileManager.default.removeItem(at: folder.path("card1/IMG_0005.mov"))
        let report = try run("card2")
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.warnings.map(\.reason),
                       ["its Live Photo video was imported earlier from \(folder.path("card1/IMG_0005.mov").path), which is gone or has changed: it stays a separate video"])
        XCTAssertEqual(files(under: "clips"), ["IMG_0005.mov.txt"])
    }

    func testTheDryRunShowsAVideoAsItsStillsMotionPart() throws {
        try write("2023-06-01 still\npair: K1", to: "roll/IMG_0006.txt")
        try write("2023-01-01 video\npair: K1", to: "roll/IMG_0006.mov")
        let plan = try Runner(pipeline: try pipeline(), settings: RunSettings(library: library)).plan(inputs: [folder.path("roll")])
        let video = try XCTUnwrap(plan.entries.first { $0.path.hasSuffix(".mov") })
        XCTAssertEqual(video.action, .process)
        XCTAssertEqual(video.steps, ["motion"])
        XCTAssertEqual(video.note, "Live Photo video of \(folder.path("roll/IMG_0006.txt").path)")
    }
}
