import DarkroomCore
import ExifDateStage
import Foundation
import XCTest
import DarkroomModel

/// Dates read from phone, camera and messenger file names, when the file has no metadata date.
final class FileNameDateTests: XCTestCase {
    let resolver = CaptureDateResolver(fallbackToFileTime: false, timeZone: TimeZone(identifier: "UTC")!, timeZoneIsChosen: false,
                                       now: utc(2025, 6, 1))

    func dated(_ name: String) -> CaptureDate? { resolver.resolve(.init(fileName: name)).date }

    func testFullDateTimePatternsAreMediumConfidence() throws {
        let cases: [(String, LocalDateTime)] = [
            ("IMG_20240101_123456.jpg", local(2024, 1, 1, 12, 34, 56)),
            ("IMG_20240101_123456_1.jpg", local(2024, 1, 1, 12, 34, 56)),
            ("VID_20231224_180000.mp4", local(2023, 12, 24, 18)),
            ("PXL_20240101_123456789.jpg", local(2024, 1, 1, 12, 34, 56, nanosecond: 789_000_000)),
            ("PXL_20240101_123456789.PORTRAIT.jpg", local(2024, 1, 1, 12, 34, 56, nanosecond: 789_000_000)),
            ("2024-01-01 12.34.56.jpg", local(2024, 1, 1, 12, 34, 56)),
            ("2024-01-01_12-34-56.heic", local(2024, 1, 1, 12, 34, 56)),
            ("Screenshot_20240101-123456.png", local(2024, 1, 1, 12, 34, 56)),
            ("Screenshot_20240101-123456_Chrome.jpg", local(2024, 1, 1, 12, 34, 56)),
            ("date_20170101_010101.jpg", local(2017, 1, 1, 1, 1, 1)),
            ("/some/folder/IMG_20240101_123456.jpg", local(2024, 1, 1, 12, 34, 56)),
        ]
        for (name, expected) in cases {
            let d = try XCTUnwrap(dated(name), name)
            XCTAssertEqual(d.local, expected, name)
            XCTAssertEqual(d.source, .filename, name)
            XCTAssertEqual(d.confidence, .medium, name)
            XCTAssertEqual(d.timeZoneSource, .unknown, name)
            XCTAssertNil(d.utcOffsetSeconds, name)
        }
    }

    func testWhatsAppNamesGiveTheDayAtNoonWithLowConfidence() throws {
        for name in ["IMG-20240101-WA0001.jpg", "VID-20240101-WA0012.mp4"] {
            let d = try XCTUnwrap(dated(name), name)
            XCTAssertEqual(d.local, local(2024, 1, 1, 12), name)
            XCTAssertEqual(d.confidence, .low, name)
        }
    }

    func testNamesWithoutADateOrWithAnImpossibleOneGiveNothing() {
        for name in ["holiday.jpg", "IMG_1234.JPG", "DSC_0001.NEF", "IMG_20241301_123456.jpg", "IMG_20240101_256000.jpg",
                     "IMG_00000000_000000.jpg", "IMG_18000101_120000.jpg", "IMG_20990101_120000.jpg",
                     "a1b2c3d4e5f60718_20240101_1234567.jpg", "1234567890123456.jpg"] {
            XCTAssertNil(dated(name), name)
        }
    }
}
