import DarkroomCatalog
import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// Collections are keyed by their photos' dates: a corrected photo makes them stale.
final class CollectionTests: XCTestCase {
    func testAMonthlyCollageWithThePhotoIsRemadeOnTheNextRun() throws {
        let fixture = try LibraryFixture("set-date-collage", pipeline: """
            steps:
              - exif-date
              - collage: { template: grid, group-by: month, size: 320x320, output: "collages/{yyyy}-{MM}-grid.jpg" }
            """)
        let moving = try fixture.photo("a.jpg", date: "2024:05:03 12:30:00", seed: 21)
        try fixture.photo("b.jpg", date: "2024:05:20 09:00:00", seed: 22)
        var report = try fixture.run()
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.published, ["collages/2024-05-grid.jpg"])
        let before = try XCTUnwrap(try fixture.catalog.output(at: "collages/2024-05-grid.jpg"))
        XCTAssertEqual(try fixture.run().published, [], "up to date")

        let result = try fixture.setDate([moving.path, "2019-06-15T12:00"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.hasSuffix("1 photo re-dated, 0 already so, 0 failed; 0 files moved\n"), result.out)

        report = try fixture.run()
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed, 0, "no photo's own work is redone")
        XCTAssertEqual(report.published.sorted(), ["collages/2019-06-grid.jpg", "collages/2024-05-grid.jpg"],
                       "June 2019 gets the photo, May 2024 is made again without it")
        XCTAssertNotEqual(try fixture.catalog.output(at: "collages/2024-05-grid.jpg")?.sha256, before.sha256)
        XCTAssertEqual(try fixture.libraryFiles(), ["collages/2019-06-grid.jpg", "collages/2024-05-grid.jpg"])
        XCTAssertTrue(try fixture.catalog.verify(library: fixture.library).isClean)
    }
}
