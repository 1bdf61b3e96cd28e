@testable import DarkroomCore
@testable import DarkroomCatalog
import DarkroomTestSupport
import Foundation
import XCTest
@testable import DarkroomLibrary
@testable import DarkroomModel
@testable import DarkroomReport

/// The runner with stages defined in this test module: a third-party stage runs without editing the core.
final class RunnerTests: XCTestCase {
    var folder: TemporaryFolder!
    var inputs: URL { folder.path("in") }
    var library: URL { folder.path("library") }

    override func setUpWithError() throws {
        folder = try TemporaryFolder("runner")
        Invocations.shared.reset()
        try write("2024-03-05 spring", to: "in/a.txt")
        try write("2023-12-24 winter", to: "in/sub/b.txt")
        try write("2024-01-10 january", to: "in/c.txt")
    }

    func write(_ text: String, to path: String) throws {
        let url = folder.path(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func pipeline(suffix: String = "!", extraSteps: String = "") throws -> Pipeline {
        try PipelineLoader(registry: testRegistry).load(yaml: """
            inputs:
              include: ["**/*.txt"]
            steps:
              - text-date
              - shout:
                  suffix: "\(suffix)"
              \(extraSteps)
            """, file: "test.yaml")
    }

    /// Outputs named after the input file, so two inputs or a foreign file can collide.
    func pipelineByName() throws -> Pipeline {
        try PipelineLoader(registry: testRegistry).load(yaml: """
            inputs: { include: ["**/*.txt"] }
            steps: [text-date, { shout: { output: "shouts/{name}.txt" } }]
            """, file: "test.yaml")
    }

    func run(_ pipeline: Pipeline, force: Bool = false) throws -> RunReport {
        try Runner(pipeline: pipeline, settings: RunSettings(library: library, jobs: 2, force: force)).run(inputs: [inputs])
    }

    func testEachStepTakesOnlyItsKindsOfMedia() throws {
        try write("2024-02-01 a clip", to: "in/clip.mov")
        let pipeline = try PipelineLoader(registry: testRegistry).load(yaml: """
            inputs: { include: ["**/*.{txt,mov}"] }
            steps: [text-date, shout, clip, roll]
            """, file: "test.yaml")
        let report = try run(pipeline)
        XCTAssertEqual(report.processed, 4)
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(Invocations.shared.count("shout"), 3, "shout takes photos only")
        XCTAssertEqual(Invocations.shared.count("clip"), 1, "clip takes videos only")
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.appendingPathComponent("clips/clip.mov.txt").path))
        let roll = try String(contentsOf: library.appendingPathComponent("roll.txt"), encoding: .utf8)
        XCTAssertFalse(roll.contains("clip.mov"), "a collection takes photos: \(roll)")
        XCTAssertEqual(roll.split(separator: "\n").count, 3)

        // Nothing to do on a second run, for the video as for the photos.
        let again = try run(pipeline)
        XCTAssertEqual([again.processed, again.skipped], [0, 4])
    }

    func testAVideoNoStepTakesIsPassedOverWithTheReason() throws {
        try write("2024-02-01 a clip", to: "in/clip.mov")
        let pipeline = try PipelineLoader(registry: testRegistry).load(yaml: """
            inputs: { include: ["**/*.{txt,mov}"] }
            steps: [text-date, shout]
            """, file: "test.yaml")
        let report = try run(pipeline)
        XCTAssertEqual(report.processed, 3)
        XCTAssertEqual(report.passedOver.map(\.reason), ["video (.mov): no step of this pipeline takes videos"])
    }

    func testPublishesByCaptureDateAndRecordsTheCatalog() throws {
        let report = try run(try pipeline())
        XCTAssertEqual(report.processed, 3)
        XCTAssertEqual(report.failures, [])
        let a = try ContentHash.ofFile(folder.path("in/a.txt"))
        let id = ContentHash.uuid(fromHex: a).uuidString.lowercased()
        let text = try String(contentsOf: library.appendingPathComponent("shouts/2024/03/\(id).txt"), encoding: .utf8)
        XCTAssertEqual(text, "2024-03-05 SPRING!")
        let catalog = try Catalog(library: library)
        XCTAssertEqual(try catalog.assets().map(\.captureLocal), ["2023-12-24T00:00:00", "2024-01-10T00:00:00", "2024-03-05T00:00:00"])
        XCTAssertEqual(try catalog.allOutputs().count, 3)
    }

    func testSecondRunDoesNoWork() throws {
        _ = try run(try pipeline())
        Invocations.shared.reset()
        let report = try run(try pipeline())
        XCTAssertEqual(report.skipped, 3)
        XCTAssertEqual(report.processed, 0)
        XCTAssertEqual(report.published, [])
        XCTAssertEqual(Invocations.shared.count("text-date"), 0, "a re-run must not even read the files' content")
        XCTAssertEqual(Invocations.shared.count("shout"), 0)
    }

    func testChangedOptionRedoesOnlyThatStepAndReplacesItsOutputs() throws {
        _ = try run(try pipeline(suffix: "!"))
        Invocations.shared.reset()
        let report = try run(try pipeline(suffix: "?"))
        XCTAssertEqual(report.processed, 3)
        XCTAssertEqual(Invocations.shared.count("shout"), 3)
        // text-date runs again only because shout reads its capture date; its unit was not stale.
        XCTAssertEqual(Invocations.shared.count("text-date"), 3)
        let outputs = try Catalog(library: library).allOutputs()
        XCTAssertEqual(outputs.count, 3)
        for output in outputs {
            let text = try String(contentsOf: library.appendingPathComponent(output.path), encoding: .utf8)
            XCTAssertTrue(text.hasSuffix("?"), "\(output.path) was not rebuilt: \(text)")
        }
    }

    func testChangedLayoutMovesOutputsAndRemovesTheOldOnes() throws {
        _ = try run(try pipeline())
        let moved = try PipelineLoader(registry: testRegistry).load(yaml: """
            inputs: { include: ["**/*.txt"] }
            steps:
              - text-date
              - shout: { output: "by-day/{yyyy}-{MM}-{dd}/{name}.txt" }
            """, file: "test.yaml")
        let report = try run(moved)
        XCTAssertEqual(report.failures, [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.appendingPathComponent("by-day/2024-03-05/a.txt").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.appendingPathComponent("shouts").path + "/2024/03"),
                       "stale outputs of the old layout must be removed")
        XCTAssertEqual(try Catalog(library: library).allOutputs().map(\.path).sorted(),
                       ["by-day/2023-12-24/b.txt", "by-day/2024-01-10/c.txt", "by-day/2024-03-05/a.txt"])
    }

    func testDeletedOutputIsRebuilt() throws {
        _ = try run(try pipeline())
        let output = try Catalog(library: library).allOutputs()[0]
        try FileManager.default.removeItem(at: library.appendingPathComponent(output.path))
        let report = try run(try pipeline())
        XCTAssertEqual(report.processed, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.appendingPathComponent(output.path).path))
    }

    func testDuplicateContentIsImportedOnce() throws {
        try write("2024-03-05 spring", to: "in/copy of a.txt")
        let report = try run(try pipeline())
        XCTAssertEqual(report.processed, 3)
        XCTAssertEqual(report.duplicates, 1)
        XCTAssertEqual(report.duplicateFiles.first?.path.hasSuffix("in/copy of a.txt"), true)
    }

    func testOneBadFileFailsAloneWithItsPathAndReason() throws {
        try write("2024-02-02 broken", to: "in/bad.txt")
        let report = try run(try pipeline())
        XCTAssertEqual(report.processed, 3)
        XCTAssertEqual(report.failed, 1)
        XCTAssertFalse(report.succeeded)
        let failure = try XCTUnwrap(report.failures.first)
        XCTAssertTrue(failure.path.hasSuffix("in/bad.txt"))
        XCTAssertEqual(failure.step, "text-date")
        XCTAssertEqual(failure.reason, "unreadable test file")
        XCTAssertTrue(report.summary.contains("failed: \(failure.path) [text-date]: unreadable test file"))
    }

    func testCollectionStageGetsItemsInCaptureOrderIncludingSkippedOnes() throws {
        let steps = try pipeline(extraSteps: "- roll")
        _ = try run(steps)
        try write("2024-01-01 new year", to: "in/d.txt")
        let report = try run(steps)
        XCTAssertEqual(report.processed, 1)
        XCTAssertEqual(report.skipped, 3)
        let roll = try String(contentsOf: library.appendingPathComponent("roll.txt"), encoding: .utf8)
        XCTAssertEqual(roll.split(separator: "\n").map { String($0.split(separator: " ").last!) },
                       ["b.txt", "d.txt", "c.txt", "a.txt"])
        Invocations.shared.reset()
        _ = try run(steps)
        XCTAssertEqual(Invocations.shared.count("roll"), 0, "an unchanged collection is not rebuilt")
    }

    func testDryRunSaysWhetherACollectionWouldBeRemade() throws {
        let steps = try pipeline(extraSteps: "- roll")
        let runner = Runner(pipeline: steps, settings: RunSettings(library: library))
        XCTAssertEqual(try runner.plan(inputs: [inputs]).collections.map(\.action), [.process], "nothing made yet")
        _ = try run(steps)
        XCTAssertEqual(try runner.plan(inputs: [inputs]).collections.map(\.action), [.skip], "up to date")
        try write("2024-01-01 new year", to: "in/d.txt")
        XCTAssertEqual(try runner.plan(inputs: [inputs]).collections.map(\.action), [.process], "a new photo changes it")
    }

    /// A full disk is told by the error's code (or by the filesystem itself), never by matching text.
    func testAFullDiskIsToldByTheErrorCodeNotItsText() throws {
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        XCTAssertTrue(DiskSpace.isFull(SystemCallError(action: "cannot publish x", errno: .noSpace), library: library))
        XCTAssertTrue(DiskSpace.isFull(SystemCallError(action: "cannot publish x", errno: .diskQuotaExceeded), library: library))
        XCTAssertGreaterThan(try XCTUnwrap(DiskSpace.freeBytes(library)), DiskSpace.lowWater, "this test needs a disk with room")
        XCTAssertFalse(DiskSpace.isFull(StageError("cannot write: No space left on device"), library: library),
                       "text alone is not a full disk when the filesystem has room")
        XCTAssertFalse(DiskSpace.isFull(SystemCallError(action: "cannot publish x", errno: .permissionDenied), library: library))
    }

    func testSQLiteIsRefusedOnANetworkFilesystem() throws {
        XCTAssertNil(NetworkFilesystem.kind(of: folder.url.path), "a local disk (statfs)")
        XCTAssertNil(NetworkFilesystem.kind(of: "/proc"))
        XCTAssertEqual(NetworkFilesystem.networkMagics[0x6969], "nfs")
        XCTAssertThrowsError(try Catalog(library: library, networkFilesystem: { _ in "nfs" })) { error in
            XCTAssertTrue("\(error)".contains("is on a network filesystem (nfs), where SQLite's locking is not safe"), "\(error)")
            XCTAssertTrue("\(error)".contains("--catalog postgres://"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.appendingPathComponent(".darkroom/catalog.sqlite").path))
    }

    func testSecondRunOnALockedLibraryStopsAtOnce() throws {
        _ = try run(try pipeline())
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [library.appendingPathComponent(".darkroom/lock").path, "sleep", "5"]
        try holder.run()
        defer { holder.terminate() }
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertThrowsError(try run(try pipeline())) { error in
            XCTAssertTrue("\(error)".contains("another darkroom run"), "\(error)")
        }
    }

    func testCrashLeftoversAreCleanedAndTheRunConverges() throws {
        _ = try run(try pipeline())
        // Simulate a crash after a rename but before the catalog recorded it, and a stray temp file.
        let catalog = try Catalog(library: library)
        try write("half", to: "library/shouts/2024/03/orphan.txt")
        try write("partial", to: "library/.darkroom/tmp/partial.heic")
        try catalog.markPending(["shouts/2024/03/orphan.txt"], run: 1)
        let report = try run(try pipeline())
        XCTAssertEqual(report.skipped, 3)
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.appendingPathComponent("shouts/2024/03/orphan.txt").path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: library.appendingPathComponent(".darkroom/tmp").path), [])
    }

    func testForeignFileInTheWayIsNeverOverwritten() throws {
        try write("mine", to: "library/shouts/a.txt")
        let report = try run(try pipelineByName())
        XCTAssertEqual(report.failed, 1)
        XCTAssertEqual(report.failures.first?.reason, "shouts/a.txt already exists in the library and was not made by Darkroom; left untouched")
        XCTAssertEqual(try String(contentsOf: library.appendingPathComponent("shouts/a.txt"), encoding: .utf8), "mine")
    }

    func testTwoInputsMappingToOneOutputPathAreReported() throws {
        try write("2024-03-05 another a", to: "in/sub/a.txt")
        let report = try run(try pipelineByName())
        XCTAssertEqual(report.failed, 1)
        XCTAssertTrue(report.failures.first?.reason.contains("two inputs map to the same output path") == true, "\(report.failures)")
        let kept = try String(contentsOf: library.appendingPathComponent("shouts/a.txt"), encoding: .utf8)

        // The next run must not hand the path to the other photo: it fails again, the first keeps its output.
        let again = try run(try pipelineByName())
        XCTAssertEqual(again.failed, 1)
        XCTAssertTrue(again.failures.first?.reason.contains("two inputs map to the same output path") == true, "\(again.failures)")
        XCTAssertEqual(again.failures.map(\.path), report.failures.map(\.path), "the same photo fails again")
        XCTAssertEqual(try String(contentsOf: library.appendingPathComponent("shouts/a.txt"), encoding: .utf8), kept)
    }

    func testAnEditedPhotoReplacesItsOwnOutputsAtTheSamePath() throws {
        _ = try run(try pipelineByName())
        try write("2024-03-05 spring, edited", to: "in/a.txt")
        let report = try run(try pipelineByName())
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed, 1)
        XCTAssertEqual(try String(contentsOf: library.appendingPathComponent("shouts/a.txt"), encoding: .utf8), "2024-03-05 SPRING, EDITED!")
    }

    func testDryRunPlansWithoutWriting() throws {
        let plan = try Runner(pipeline: try pipeline(), settings: RunSettings(library: library)).plan(inputs: [inputs])
        XCTAssertEqual(plan.entries.map(\.action), [.process, .process, .process])
        XCTAssertEqual(plan.entries[0].steps, ["text-date", "shout"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.path))
    }

    func testAFileThatChangesWhileBeingImportedIsReportedNotRecorded() throws {
        let pipeline = try PipelineLoader(registry: testRegistry).load(yaml: """
            inputs: { include: ["**/a.txt"] }
            steps: [text-date, shout, tamper]
            """, file: "test.yaml")
        let report = try run(pipeline)
        XCTAssertEqual(report.failed, 1)
        XCTAssertEqual(report.failures.first?.reason, "the file changed while it was being imported; run again to import the new version")
        XCTAssertEqual(try Catalog(library: library).assets(), [], "nothing half old, half new is recorded")
    }

    func testNothingIsWrittenThroughASymlinkInTheLibrary() throws {
        let elsewhere = folder.path("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: library.appendingPathComponent("shouts"), withDestinationURL: elsewhere)
        let report = try run(try pipeline())
        XCTAssertEqual(report.failed, 3)
        XCTAssertTrue(report.failures.allSatisfy { $0.reason.hasPrefix("refusing to write through the symbolic link") }, "\(report.failures)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
    }

    func testCatalogVerifyReportsDrift() throws {
        _ = try run(try pipeline())
        let catalog = try Catalog(library: library)
        XCTAssertTrue(try catalog.verify(library: library).isClean)
        let outputs = try catalog.allOutputs().map(\.path)
        try FileManager.default.removeItem(at: library.appendingPathComponent(outputs[0]))
        try Data("tampered".utf8).write(to: library.appendingPathComponent(outputs[1]))
        try write("stray", to: "library/stray.txt")
        let drift = try catalog.verify(library: library)
        XCTAssertEqual(drift.missing, [outputs[0]])
        XCTAssertEqual(drift.changed, [outputs[1]])
        XCTAssertEqual(drift.untracked, ["stray.txt"])
    }

    func testALostCatalogIsRebuiltByRunningAgain() throws {
        _ = try run(try pipeline())
        try FileManager.default.removeItem(at: library.appendingPathComponent(".darkroom"))
        let report = try run(try pipeline())
        XCTAssertEqual(report.failures, [], "outputs named with the photo's id are recognised as Darkroom's")
        XCTAssertEqual(report.processed, 3)
        XCTAssertTrue(try Catalog(library: library).verify(library: library).isClean)
    }
}
