import DarkroomCore
import DarkroomExif
import ExifDateStage
import Foundation
import XCTest
import DarkroomModel

/// Which source decides the capture date, and what each one yields.
final class CaptureDatePrecedenceTests: XCTestCase {
    let now = utc(2025, 6, 1, 12)
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// Resolved with `timeZone` (Berlin) as the run's `--time-zone`, or (`chosen: false`) as this machine's zone.
    func resolve(_ evidence: CaptureDateEvidence, sources: [ExifDateOptions.Source] = ExifDateOptions.Source.allCases,
                 fallback: Bool = true, timeZone: TimeZone? = nil, chosen: Bool = true) -> CaptureDateDecision {
        CaptureDateResolver(sources: sources, fallbackToFileTime: fallback, timeZone: timeZone ?? berlin, timeZoneIsChosen: chosen, now: now)
            .resolve(evidence)
    }

    func date(_ evidence: CaptureDateEvidence, timeZone: TimeZone? = nil, chosen: Bool = true) throws -> CaptureDate {
        try XCTUnwrap(resolve(evidence, timeZone: timeZone, chosen: chosen).date)
    }

    // MARK: EXIF DateTimeOriginal

    func testDateTimeOriginalWithOffsetIsHighConfidenceWithMetadataZone() throws {
        let d = try date(.init(exif: ExifTags(dateTimeOriginal: "2024:01:31 12:34:56", offsetTimeOriginal: "+01:00",
                                              dateTimeDigitized: "2020:01:01 00:00:00")))
        XCTAssertEqual(d.local, local(2024, 1, 31, 12, 34, 56))
        XCTAssertEqual(d.utcOffsetSeconds, 3600)
        XCTAssertEqual(d.source, .exifOriginal)
        XCTAssertEqual(d.timeZoneSource, .metadata)
        XCTAssertEqual(d.confidence, .high)
        XCTAssertEqual(d.instant, utc(2024, 1, 31, 11, 34, 56))
    }

    func testDateTimeOriginalWithoutOffsetKeepsWallClockAndUnknownZone() throws {
        let d = try date(.init(exif: ExifTags(dateTimeOriginal: "2015:12:05 00:59:26")), chosen: false)
        XCTAssertEqual(d.local, local(2015, 12, 5, 0, 59, 26))
        XCTAssertNil(d.utcOffsetSeconds)
        XCTAssertEqual(d.timeZoneSource, .unknown)
        XCTAssertEqual(d.confidence, .high)
    }

    func testNegativeAndHalfHourAndNepalOffsets() throws {
        for (text, seconds) in [("-08:00", -28800), ("+05:30", 19800), ("-03:30", -12600), ("+05:45", 20700), ("+0900", 32400)] {
            let d = try date(.init(exif: ExifTags(dateTimeOriginal: "2024:07:01 09:00:00", offsetTimeOriginal: text)))
            XCTAssertEqual(d.utcOffsetSeconds, seconds, text)
            XCTAssertEqual(d.local, local(2024, 7, 1, 9), "the wall clock is not shifted by the offset (\(text))")
        }
    }

    func testUnreadableOffsetIsIgnoredButTheDateStands() throws {
        for text in ["+25:00", "garbage", "   :  "] {
            let d = try date(.init(exif: ExifTags(dateTimeOriginal: "2024:07:01 09:00:00", offsetTimeOriginal: text)), chosen: false)
            XCTAssertEqual(d.source, .exifOriginal, text)
            XCTAssertNil(d.utcOffsetSeconds, text)
            XCTAssertEqual(d.timeZoneSource, .unknown, text)
        }
    }

    func testSubSecondsRefineTheTime() throws {
        let d = try date(.init(exif: ExifTags(dateTimeOriginal: "2024:01:31 12:34:56", subSecTimeOriginal: "042")))
        XCTAssertEqual(d.local, local(2024, 1, 31, 12, 34, 56, nanosecond: 42_000_000))
        XCTAssertEqual(d.local.description, "2024-01-31T12:34:56.042")
        let half = try date(.init(exif: ExifTags(dateTimeOriginal: "2024:01:31 12:34:56", subSecTimeOriginal: "5")))
        XCTAssertEqual(half.local.nanosecond, 500_000_000)
    }

    func testLenientFormsAreAccepted() throws {
        let forms = ["2024:01:31 12:34:56", "2024-01-31 12:34:56", "2024:01:31 12:34:56\0\0", " 2024:01:31 12:34:56 ",
                     "2024:01:31T12:34:56"]
        for form in forms {
            XCTAssertEqual(try date(.init(exif: ExifTags(dateTimeOriginal: form))).local, local(2024, 1, 31, 12, 34, 56), form)
        }
        XCTAssertEqual(try date(.init(exif: ExifTags(dateTimeOriginal: "2024:01:31 12:34"))).local, local(2024, 1, 31, 12, 34),
                       "missing seconds read as :00")
    }

    // MARK: Rejections fall through to the next source

    func testImplausibleOriginalsFallThroughToCreateDate() throws {
        let cases: [(String, DateRejection)] = [
            ("0000:00:00 00:00:00", .zero), ("    :  :     :  :  ", .malformed), ("", .blank),
            ("2023:02:30 10:00:00", .invalidCalendar), ("2024:13:01 10:00:00", .invalidCalendar),
            ("2024:01:01 24:00:00", .invalidCalendar), ("1899:12:31 23:59:59", .tooOld),
            ("2038:05:05 01:29:24", .inFuture), ("yesterday", .malformed), ("2024:01:01", .malformed),
        ]
        for (text, reason) in cases {
            let decision = resolve(.init(exif: ExifTags(dateTimeOriginal: text, dateTimeDigitized: "2010:04:13 09:37:22",
                                                        offsetTimeDigitized: "+02:00")))
            XCTAssertEqual(decision.date?.source, .exifDigitized, text)
            XCTAssertEqual(decision.date?.local, local(2010, 4, 13, 9, 37, 22), text)
            XCTAssertEqual(decision.date?.utcOffsetSeconds, 7200, text)
            XCTAssertEqual(decision.date?.timeZoneSource, .metadata, text)
            XCTAssertEqual(decision.rejected.first?.reason, reason, text)
            XCTAssertEqual(decision.rejected.first?.field, "DateTimeOriginal", text)
        }
    }

    func testADateWithinADayOfNowIsAcceptedButNotBeyond() throws {
        // now is 2025-06-01 12:00 UTC; Berlin is UTC+2.
        let soon = try date(.init(exif: ExifTags(dateTimeOriginal: "2025:06:02 13:00:00")))
        XCTAssertEqual(soon.source, .exifOriginal)
        let decision = resolve(.init(exif: ExifTags(dateTimeOriginal: "2025:06:02 15:00:00")))
        XCTAssertEqual(decision.rejected.first?.reason, .inFuture)
        let decisionWithOffset = resolve(.init(exif: ExifTags(dateTimeOriginal: "2025:06:02 13:00:00", offsetTimeOriginal: "-10:00")))
        XCTAssertEqual(decisionWithOffset.rejected.first?.reason, .inFuture, "the offset decides the instant when given")
    }

    // MARK: GPS

    func testGPSIsAUTCInstantShownInTheChosenZone() throws {
        let tags = ExifTags(gpsDateStamp: "2024:07:01", gpsTimeStamp: .init(hour: 10, minute: 15, second: 30.25))
        let d = try date(.init(exif: tags))
        XCTAssertEqual(d.local, local(2024, 7, 1, 12, 15, 30, nanosecond: 250_000_000))
        XCTAssertEqual(d.utcOffsetSeconds, 7200)
        XCTAssertEqual(d.source, .gps)
        XCTAssertEqual(d.timeZoneSource, .configured)
        XCTAssertEqual(d.confidence, .medium)
    }

    func testGPSJustAfterUTCMidnightIsThePreviousLocalDayWestOfGreenwich() throws {
        let tags = ExifTags(gpsDateStamp: "2024:01:01", gpsTimeStamp: .init(hour: 3, minute: 0, second: 0))
        let d = try date(.init(exif: tags), timeZone: TimeZone(identifier: "America/New_York")!)
        XCTAssertEqual(d.local, local(2023, 12, 31, 22))
        XCTAssertEqual(d.utcOffsetSeconds, -18000)
    }

    func testCreateDateBeatsGPSAndGPSBeatsXMP() throws {
        let gps = ExifTags(dateTimeDigitized: "2020:05:04 18:39:11", gpsDateStamp: "2020:05:04",
                           gpsTimeStamp: .init(hour: 22, minute: 39, second: 11))
        XCTAssertEqual(try date(.init(exif: gps)).source, .exifDigitized)
        var gpsOnly = gps
        gpsOnly.dateTimeDigitized = nil
        XCTAssertEqual(try date(.init(exif: gpsOnly, xmp: #"<x photoshop:DateCreated="2001-01-01T00:00:00"/>"#)).source, .gps)
    }

    func testBrokenGPSFallsThrough() throws {
        for time in [ExifTags.GPSTime(hour: 25, minute: 0, second: 0), .init(hour: 10, minute: 61, second: 0),
                     .init(hour: 10.5, minute: 0, second: 0), .init(hour: .nan, minute: 0, second: 0)] {
            let decision = resolve(.init(exif: ExifTags(gpsDateStamp: "2024:01:01", gpsTimeStamp: time),
                                         fileName: "IMG_20240101_123456.jpg"))
            XCTAssertEqual(decision.date?.source, .filename, "\(time)")
            XCTAssertEqual(decision.rejected.first?.source, .gps)
        }
        let noTime = resolve(.init(exif: ExifTags(gpsDateStamp: "2024:01:01"), fileName: "IMG_20240101_123456.jpg"))
        XCTAssertEqual(noTime.date?.source, .filename)
        let zeroDate = resolve(.init(exif: ExifTags(gpsDateStamp: "0000:00:00", gpsTimeStamp: .init(hour: 1, minute: 0, second: 0))))
        XCTAssertEqual(zeroDate.rejected.first?.reason, .zero)
    }

    // MARK: Last resorts

    func testModificationTimeIsTheLowConfidenceLastResort() throws {
        let d = try date(.init(fileName: "holiday.jpg", modificationDate: utc(2024, 12, 31, 23, 30)))
        XCTAssertEqual(d.local, local(2025, 1, 1, 0, 30), "converted with the run's zone")
        XCTAssertEqual(d.utcOffsetSeconds, 3600)
        XCTAssertEqual(d.source, .fileModified)
        XCTAssertEqual(d.timeZoneSource, .configured)
        XCTAssertEqual(d.confidence, .low)
    }

    func testWithoutFallbackAPhotoWithNoDateHasNone() {
        let decision = resolve(.init(exif: ExifTags(dateTimeOriginal: "0000:00:00 00:00:00"), fileName: "holiday.jpg",
                                     modificationDate: utc(2024, 1, 1)), fallback: false)
        XCTAssertNil(decision.date)
        XCTAssertEqual(decision.rejected.map(\.description), ["DateTimeOriginal '0000:00:00 00:00:00': all zeros (clock never set)"])
    }

    func testSourcesOptionReordersAndRestricts() throws {
        let evidence = CaptureDateEvidence(exif: ExifTags(dateTimeOriginal: "2024:01:31 12:34:56"),
                                           fileName: "IMG_20200101_101010.jpg", modificationDate: utc(2024, 1, 1))
        XCTAssertEqual(resolve(evidence, sources: [.filename, .exifOriginal]).date?.source, .filename)
        XCTAssertEqual(resolve(evidence, sources: [.xmp]).date?.source, .fileModified)
        XCTAssertNil(resolve(evidence, sources: [.xmp], fallback: false).date)
    }
}
