import DarkroomCore
import Foundation
import XCTest
import DarkroomCorrection
import DarkroomModel

/// What `set-date` accepts as a date or a shift, and the dates it makes from them.
final class DateChangeTests: XCTestCase {
    let found = CaptureDate(local: LocalDateTime(year: 2024, month: 5, day: 31, hour: 23, minute: 10, second: 5, nanosecond: 250_000_000)!,
                            utcOffsetSeconds: 7200, source: .exifOriginal, timeZoneSource: .metadata, confidence: .high)

    func testDatesWithAndWithoutSecondsAndOffsets() throws {
        XCTAssertEqual(try DateChange.parseDate("2019-06-15T12:00"), .set(LocalDateTime(year: 2019, month: 6, day: 15, hour: 12)!, utcOffsetSeconds: nil))
        XCTAssertEqual(try DateChange.parseDate("2019-06-15 12:00:30+02:00"),
                       .set(LocalDateTime(year: 2019, month: 6, day: 15, hour: 12, second: 30)!, utcOffsetSeconds: 7200))
        XCTAssertEqual(try DateChange.parseDate("2019-06-15T12:00-0530"), .set(LocalDateTime(year: 2019, month: 6, day: 15, hour: 12)!,
                                                                               utcOffsetSeconds: -19800))
        XCTAssertEqual(try DateChange.parseDate("2020-02-29T23:59:59Z"),
                       .set(LocalDateTime(year: 2020, month: 2, day: 29, hour: 23, minute: 59, second: 59)!, utcOffsetSeconds: 0))
    }

    func testImpossibleDatesAreRefusedSayingWhy() {
        let cases = [
            ("2019-02-29T12:00", "'2019-02-29T12:00' is not a real date and time"),
            ("2019-06-15T24:00", "'2019-06-15T24:00' is not a real date and time"),
            ("2019-06-15T12:00:60", "'2019-06-15T12:00:60' is not a real date and time"),
            ("2019-06-15T12:00+15:00", "the UTC offset +15:00 in '2019-06-15T12:00+15:00' is out of range (-12:00 to +14:00)"),
            ("2019-06-15T12:00+02:75", "the UTC offset +02:75 in '2019-06-15T12:00+02:75' is out of range (-12:00 to +14:00)"),
            ("15/06/2019 12:00", "expected a date written YYYY-MM-DDTHH:MM[:SS][+HH:MM]"),
            ("2019-06-15", "expected a date written YYYY-MM-DDTHH:MM[:SS][+HH:MM]"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try DateChange.parseDate(text), text) { XCTAssertTrue("\($0)".hasPrefix(message), "\($0)") }
        }
    }

    func testShiftsOfDaysHoursMinutesAndSeconds() throws {
        XCTAssertEqual(try DateChange.parseShift("+1h30m"), .shift(seconds: 5400))
        XCTAssertEqual(try DateChange.parseShift("-45m"), .shift(seconds: -2700))
        XCTAssertEqual(try DateChange.parseShift("+2d"), .shift(seconds: 172_800))
        XCTAssertEqual(try DateChange.parseShift("-1d2h3m4s"), .shift(seconds: -(86_400 + 7200 + 180 + 4)))
        XCTAssertEqual(try DateChange.parseShift("+90m").description, "+1h30m")
        for bad in ["1h", "+", "+1x", "+1m1h", "+1h 30m", "+0h", "-0d0m", "+40000d", "++1h", "+1.5h"] {
            XCTAssertThrowsError(try DateChange.parseShift(bad), bad)
        }
        XCTAssertThrowsError(try DateChange.parseShift("+0m")) { XCTAssertEqual("\($0)", "a shift of zero changes nothing: '+0m'") }
    }

    func testASetDateKeepsThePhotosOffsetUnlessOneIsGivenAndRemembersTheFoundDate() throws {
        let kept = try XCTUnwrap(DateChange.set(LocalDateTime(year: 2019, month: 6, day: 15, hour: 12)!, utcOffsetSeconds: nil).date(for: found))
        XCTAssertEqual(kept.description, "2019-06-15T12:00:00+02:00 (user, tz: metadata; overrides 2024-05-31T23:10:05.250+02:00 from exif:DateTimeOriginal)")
        let given = try XCTUnwrap(DateChange.set(LocalDateTime(year: 2019, month: 6, day: 15, hour: 12)!, utcOffsetSeconds: -3600).date(for: found))
        XCTAssertEqual([given.stamp, given.timeZoneSource.rawValue], ["2019-06-15T12:00:00-01:00", "user"])
        // Corrected again: what it overrides is still what the files said.
        let again = try XCTUnwrap(DateChange.set(LocalDateTime(year: 2018, month: 1, day: 1)!, utcOffsetSeconds: nil).date(for: given))
        XCTAssertEqual(again.overrides, FoundDate(found))
        XCTAssertEqual(again.utcOffsetSeconds, -3600)
        // A photo that had no date gets one, overriding nothing.
        let fresh = try XCTUnwrap(DateChange.set(LocalDateTime(year: 2018, month: 1, day: 1)!, utcOffsetSeconds: nil).date(for: nil))
        XCTAssertEqual([fresh.stamp, fresh.timeZoneSource.rawValue, "\(fresh.overrides == nil)"], ["2018-01-01T00:00:00", "unknown", "true"])
    }

    func testAShiftMovesTheFoundDateSoRepeatingItChangesNothing() throws {
        let shift = DateChange.shift(seconds: 5400)
        let once = try XCTUnwrap(shift.date(for: found))
        XCTAssertEqual(once.stamp, "2024-06-01T00:40:05.250+02:00", "across midnight and the month's end; the fraction kept")
        XCTAssertEqual(once.overrides, FoundDate(found))
        XCTAssertEqual(shift.date(for: once), once, "the same shift again is the same date")
        XCTAssertEqual(DateChange.shift(seconds: -5400).date(for: once)?.stamp, "2024-05-31T21:40:05.250+02:00")
        XCTAssertNil(shift.date(for: nil), "no date, nothing to shift")
    }

    func testCalendarArithmeticWithoutTimeZones() {
        let leap = LocalDateTime(year: 2024, month: 2, day: 28, hour: 23, minute: 30)!
        XCTAssertEqual(leap.adding(seconds: 3600)?.description, "2024-02-29T00:30:00")
        XCTAssertEqual(leap.adding(seconds: 86_400 * 2)?.description, "2024-03-01T23:30:00")
        XCTAssertEqual(LocalDateTime(year: 2023, month: 12, day: 31, hour: 23)!.adding(seconds: 3600)?.description, "2024-01-01T00:00:00")
        XCTAssertEqual(LocalDateTime(year: 2024, month: 3, day: 31, hour: 1, minute: 30)!.adding(seconds: 3600)?.description,
                       "2024-03-31T02:30:00", "a time that a DST jump skips in Europe still exists as a wall-clock reading")
        XCTAssertNil(LocalDateTime(year: 9999, month: 12, day: 31, hour: 23)!.adding(seconds: 3600))
    }
}
