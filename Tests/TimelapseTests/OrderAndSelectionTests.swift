import DarkroomCore
import Foundation
import XCTest

/// Which photos go in, and in what order.
final class OrderAndSelectionTests: XCTestCase {
    /// The mean luma of the middle frame of each photo's span (9 frames a photo at 0.3 s and 30 fps).
    private func photoBrightness(_ video: VideoInspection, photos: Int) throws -> [Double] {
        let means = try video.lumaMeans(width: 320, height: 240)
        XCTAssertEqual(means.count, photos * 9)
        return (0..<photos).map { means[min(means.count - 1, $0 * 9 + 4)] }
    }

    func testOrderFollowsCaptureDatesNotFileNames() throws {
        let fixture = try TimelapseFixture()
        // Brighter each day; the names sort in a different order (z, a, m, b, x).
        let photos: [(prefix: String, day: Int, grey: Double)] = [("z", 1, 40), ("a", 2, 80), ("m", 3, 120), ("b", 4, 160), ("x", 5, 200)]
        for p in photos { try fixture.photo(TimelapseFixture.name(p.prefix, day: p.day), grey: p.grey) }
        let brightness = try photoBrightness(try fixture.render(), photos: 5)
        for (shown, expected) in zip(brightness, photos.map(\.grey)) {
            XCTAssertEqual(shown, expected, accuracy: 6, "frames in capture-date order: \(brightness)")
        }
    }

    func testOnePerDayPicksFirstMiddleOrLast() throws {
        let fixture = try TimelapseFixture()
        try fixture.photo(TimelapseFixture.name("a", day: 3, hour: 7), grey: 50)
        try fixture.photo(TimelapseFixture.name("b", day: 3, hour: 12), grey: 110)
        try fixture.photo(TimelapseFixture.name("c", day: 3, hour: 19), grey: 170)
        try fixture.photo(TimelapseFixture.name("d", day: 4, hour: 9), grey: 230)
        for (pick, expected) in [("first", 50.0), ("middle", 110), ("last", 170)] {
            try? FileManager.default.removeItem(at: fixture.library)
            let brightness = try photoBrightness(try fixture.render(["one-per-day": pick]), photos: 2)
            XCTAssertEqual(brightness[0], expected, accuracy: 6, "one-per-day: \(pick)")
            XCTAssertEqual(brightness[1], 230, accuracy: 6, "the next day's only photo")
        }
        let all = try photoBrightness(try fixture.render(["one-per-day": "all", "output": "all.mp4"]), photos: 4)
        XCTAssertEqual(all.count, 4)
    }

    func testDateRangeIsInclusive() throws {
        let fixture = try TimelapseFixture()
        for day in 1...6 { try fixture.photo(TimelapseFixture.name("p", day: day), grey: Double(day * 35)) }
        let brightness = try photoBrightness(try fixture.render(["from": "2024-01-02", "to": "2024-01-04"]), photos: 3)
        XCTAssertEqual(brightness[0], 70, accuracy: 6)
        XCTAssertEqual(brightness[2], 140, accuracy: 6)
    }

    func testPhotosWithoutACaptureDateAreReportedNotPlaced() throws {
        let fixture = try TimelapseFixture()
        try fixture.photo(TimelapseFixture.name("dated", day: 1), grey: 60)
        try fixture.photo(TimelapseFixture.name("undated", day: 2), grey: 250)
        try fixture.photo(TimelapseFixture.name("dated", day: 3), grey: 120)
        let (report, video) = try fixture.run(forgettingDates: true)
        let brightness = try photoBrightness(VideoInspection(url: try XCTUnwrap(video, "\(report.failures)")), photos: 2)
        XCTAssertEqual(brightness[0], 60, accuracy: 6)
        XCTAssertEqual(brightness[1], 120, accuracy: 6, "the undated photo is not placed anywhere")
        XCTAssertEqual(report.failures.map(\.step), ["timelapse"], "\(report.failures)")
        XCTAssertTrue(report.failures[0].path.hasSuffix("undated 2024-01-02 08.00.00.jpg"))
        XCTAssertTrue(report.failures[0].reason.contains("no capture date"), report.failures[0].reason)
    }

    func testOnlyUndatedPhotosIsAClearError() throws {
        let fixture = try TimelapseFixture()
        for day in 1...3 { try fixture.photo(TimelapseFixture.name("undated", day: day), grey: Double(day * 50)) }
        let (report, video) = try fixture.run(forgettingDates: true)
        XCTAssertNil(video)
        XCTAssertEqual(report.failures.filter { $0.reason.contains("no capture date") }.count, 3, "\(report.failures)")
        XCTAssertTrue(report.failures.contains { $0.reason.contains("no photos to render") && $0.reason.contains("3 without a capture date") },
                      "\(report.failures)")
    }
}
