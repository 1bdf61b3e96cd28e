import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// A collage template file goes with its queued pipeline: found beside the pipeline file when
/// enqueued (whatever the working directory), stored in the database, needed by no worker.
final class QueuedTemplateTests: PostgresTestCase {
    func sql(_ query: String) throws -> String {
        try PostgresTestDatabase.psql(database.url, query).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testACollageTemplateFileTravelsWithTheQueuedPipeline() throws {
        let fixture = try FleetFixture("queued-template", extra: 4)
        let library = fixture.folder.path("library")
        // A pipeline in a folder of its own, with its template beside it: not where commands run.
        let folder = fixture.folder.path("my-pipelines")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let template = """
            name: tiles
            background: "#fafafa"
            margin: 0.02
            grid: { rows: auto, columns: auto, gutter: 0.01 }

            """
        try template.write(to: folder.appendingPathComponent("tiles.yaml"), atomically: true, encoding: .utf8)
        let yaml = try String(contentsOfFile: fixture.pipeline("monthly-grid"), encoding: .utf8)
            .replacingOccurrences(of: "template: grid", with: "template: tiles.yaml")
            .replacingOccurrences(of: "\n      title: \"{first-date:MMMM yyyy}\"", with: "")
        XCTAssertTrue(yaml.contains("template: tiles.yaml"))
        XCTAssertFalse(yaml.contains("title:"))
        let pipeline = folder.appendingPathComponent("monthly-tiles.yaml")
        try yaml.write(to: pipeline, atomically: true, encoding: .utf8)
        XCTAssertNotEqual(fixture.command.workingDirectory.standardizedFileURL.path, folder.standardizedFileURL.path)

        let queued = try fixture.darkroom(["enqueue", pipeline.path, "--input", fixture.roll.path, "--library", library.path,
                                           "--queue", database.url])
        XCTAssertTrue(queued.out.hasPrefix("queued 12 jobs"), queued.out)
        XCTAssertEqual(try sql("SELECT templates_json FROM pipelines"),
                       String(decoding: try JSONEncoder().encode(["tiles.yaml": template]), as: UTF8.self))

        // The workers see neither file.
        try FileManager.default.removeItem(at: folder)
        let worker = try fixture.darkroom(["worker", "--queue", database.url, "--poll", "0.1", "--jobs", "1", "--exit-when-done"])
        XCTAssertEqual(try sql("SELECT state || ' ' || count(*) FROM jobs GROUP BY state"), "done 12", worker.err)
        let collages = try FleetFixture.files(of: library).keys.filter { $0.hasPrefix("collages/") }
        XCTAssertEqual(collages.count, 10, "one collage per month: \(collages.sorted())")
    }
}
