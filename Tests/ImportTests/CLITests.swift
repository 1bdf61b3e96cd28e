import DarkroomTestSupport
import Foundation
import XCTest

/// The `darkroom` command as a user runs it: exit codes, messages, JSON.
final class CLITests: XCTestCase {
    var command: DarkroomCommand!

    override func setUpWithError() throws {
        command = try DarkroomCommand(workingDirectory: ImportTests.root)
    }

    func darkroom(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try command.run(arguments)
    }

    func testBrokenPipelinePrintsCompilerStyleErrorsAndExits2() throws {
        let folder = try TemporaryFolder("cli")
        let file = folder.path("broken.yaml")
        try Data("steps:\n  - exif-date\n  - resise: { long-edge: 100 }\n".utf8).write(to: file)
        let result = try darkroom(["validate", file.path])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.err, "\(file.path):3:5: error: steps[1]: unknown stage 'resise' (did you mean 'resize'?)\n  - resise: { long-edge: 100 }\n    ^\n")
    }

    func testShippedPipelinesValidate() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: ImportTests.root.appendingPathComponent("pipelines").path)
        where name.hasSuffix(".yaml") {
            let result = try darkroom(["validate", "pipelines/\(name)"])
            XCTAssertEqual(result.status, 0, "\(name): \(result.err)")
        }
    }

    func testRunExitCodeSaysWhetherAnythingFailed() throws {
        let folder = try TemporaryFolder("cli-run")
        let input = folder.path("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ImportTests.samples.appendingPathComponent("Phone/garden.webp"),
                                         to: input.appendingPathComponent("garden.webp"))
        let pipeline = folder.path("p.yaml")
        try Data("steps:\n  - exif-date\n  - thumbnail\n".utf8).write(to: pipeline)
        var result = try darkroom(["run", pipeline.path, "--input", input.path, "--library", folder.path("lib").path, "--json"])
        XCTAssertEqual(result.status, 0, result.err)
        let report = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        XCTAssertEqual(report?["processed"] as? Int, 1)

        try Data([0xFF, 0xD8, 0xFF]).write(to: input.appendingPathComponent("broken.jpg"))
        result = try darkroom(["run", pipeline.path, "--input", input.path, "--library", folder.path("lib").path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.out.contains("1 failed"), result.out)
        XCTAssertTrue(result.out.contains("failed: \(input.appendingPathComponent("broken.jpg").path) [exif-date]: cannot read image"), result.out)

        result = try darkroom(["run", pipeline.path, "--input", input.path, "--library", folder.path("lib").path, "--dry-run"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.out.contains("skip       \(input.appendingPathComponent("garden.webp").path)"), result.out)
    }

    func testStagesListsEveryStageWithItsOptions() throws {
        let result = try darkroom(["stages"])
        XCTAssertEqual(result.status, 0)
        for name in ["exif-date", "resize", "heic-encode", "thumbnail"] { XCTAssertTrue(result.out.contains("\(name) ("), name) }
        XCTAssertTrue(result.out.contains("long-edge: Longest side in pixels; smaller photos are left as they are. [default: 2048]"))
    }
}
