import DarkroomModel
import Foundation
import XCTest

/// Dates and paths are zero-padded without `String(format:)`, and read exactly as it wrote them.
final class ZeroPaddedTests: XCTestCase {
    func testZeroPaddedWritesWhatTheCFormatWrites() {
        for value in [0, 1, 7, 9, 10, 59, 99, 100, 999, 1000, 2024, 9999, 12345, 123_456_789, -1, -42] {
            for width in [1, 2, 3, 4] {
                XCTAssertEqual(value.zeroPadded(width), String(format: "%0\(width)d", value), "\(value) in \(width)")
            }
        }
    }

    func testALocalDateTimeIsWrittenAsBefore() throws {
        let date = try XCTUnwrap(LocalDateTime(year: 7, month: 3, day: 9, hour: 0, minute: 5, second: 59, nanosecond: 4_000_000))
        XCTAssertEqual(date.description, "0007-03-09T00:05:59.004")
        XCTAssertEqual(try XCTUnwrap(LocalDateTime(year: 2024, month: 12, day: 31, hour: 23, minute: 59, second: 0)).description,
                       "2024-12-31T23:59:00")
    }
}
