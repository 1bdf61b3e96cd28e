import DarkroomCore
import DarkroomExif
import DarkroomSidecars
import DarkroomTestSupport
import ExifDateStage
import Foundation
import XCTest
import DarkroomModel

/// Where times without a zone are placed: the file's own offset tags, then the zone at its GPS
/// position (with the offset in force at that moment), then `--time-zone`, then this machine's
/// zone, low confidence. Each recorded as the date's time-zone source.
final class TimeZoneOrderTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    let now = utc(2025, 6, 1, 12)
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let newYork = TimeZone(identifier: "America/New_York")!
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    let gpsNoon = ExifTags(gpsDateStamp: "2024:07:01", gpsTimeStamp: .init(hour: 12, minute: 0, second: 0))

    func date(_ evidence: CaptureDateEvidence, chosen: Bool = true) throws -> CaptureDate {
        try XCTUnwrap(CaptureDateResolver(timeZone: berlin, timeZoneIsChosen: chosen, now: now).resolve(evidence).date)
    }

    func testAnInstantTakesTheFilesOwnOffsetFirst() throws {
        var tags = gpsNoon
        tags.offsetTimeOriginal = "-03:00"
        let d = try date(.init(exif: tags, locationZone: tokyo))
        XCTAssertEqual(d.local, local(2024, 7, 1, 9))
        XCTAssertEqual(d.utcOffsetSeconds, -3 * 3600)
        XCTAssertEqual(d.timeZoneSource, .metadata)
    }

    func testThenTheZoneAtItsGPSPosition() throws {
        let d = try date(.init(exif: gpsNoon, location: GeoLocation(latitude: 35.68, longitude: 139.69), locationZone: tokyo))
        XCTAssertEqual(d.local, local(2024, 7, 1, 21))
        XCTAssertEqual(d.utcOffsetSeconds, 9 * 3600)
        XCTAssertEqual(d.timeZoneSource, .gps)
        XCTAssertEqual(d.confidence, .medium)
        XCTAssertEqual(d.notes, ["time zone Asia/Tokyo from the GPS position 35.68000, 139.69000"])
    }

    func testThenTheChosenZoneThenTheMachinesAtLowConfidence() throws {
        let chosen = try date(.init(exif: gpsNoon))
        XCTAssertEqual(chosen.local, local(2024, 7, 1, 14))
        XCTAssertEqual(chosen.timeZoneSource, .configured)
        XCTAssertEqual(chosen.confidence, .medium)
        let machine = try date(.init(exif: gpsNoon), chosen: false)
        XCTAssertEqual(machine.local, local(2024, 7, 1, 14))
        XCTAssertEqual(machine.timeZoneSource, .machine)
        XCTAssertEqual(machine.confidence, .low)
        XCTAssertEqual(machine.lowConfidenceReason, "in this machine's time zone")
    }

    func testTheOffsetIsTheOneInForceAtThatMomentAcrossADaylightSavingChange() throws {
        // A camera without offset tags, in New York: -04:00 in summer, -05:00 in winter.
        let summer = try date(.init(exif: ExifTags(dateTimeOriginal: "2024:03:10 03:30:00"), locationZone: newYork))
        let winter = try date(.init(exif: ExifTags(dateTimeOriginal: "2024:03:10 01:30:00"), locationZone: newYork))
        XCTAssertEqual(summer.utcOffsetSeconds, -4 * 3600, "after 02:00 on 10 March 2024")
        XCTAssertEqual(winter.utcOffsetSeconds, -5 * 3600, "before the change")
        XCTAssertEqual(summer.local, local(2024, 3, 10, 3, 30), "the wall clock is not moved")
        XCTAssertEqual(summer.timeZoneSource, .gps)
    }

    func testAWallClockTimeWithoutAZoneKeepsAnUnknownOffsetRatherThanTheMachinesGuess() throws {
        let evidence = CaptureDateEvidence(exif: ExifTags(dateTimeOriginal: "2024:01:31 12:00:00"))
        let chosen = try date(evidence)
        XCTAssertEqual(chosen.utcOffsetSeconds, 3600, "--time-zone Europe/Berlin in winter")
        XCTAssertEqual(chosen.timeZoneSource, .configured)
        let machine = try date(evidence, chosen: false)
        XCTAssertNil(machine.utcOffsetSeconds)
        XCTAssertEqual(machine.timeZoneSource, .unknown)
        XCTAssertEqual(machine.confidence, .high, "the folder is known: only the instant is not")
    }

    func testAVideosCreationTimeIsPlacedAtItsLocation() throws {
        let video = VideoDateEvidence(creationTimes: [.init(field: "format creation_time", value: "2024-07-01T12:00:00.000000Z")])
        let d = try date(.init(video: video, location: GeoLocation(latitude: 40.71, longitude: -74.0), locationZone: newYork))
        XCTAssertEqual(d.local, local(2024, 7, 1, 8))
        XCTAssertEqual(d.timeZoneSource, .gps)
    }

    /// The stage itself: EXIF GPS coordinates in Tokyo, looked up in the shipped map; the position
    /// is kept on the item for the catalog.
    func testTheStageFindsTheZoneAtTheEXIFPositionAndKeepsThePosition() throws {
        let folder = try TemporaryFolder("tz-order")
        let url = folder.path("tokyo.jpg")
        try Fixtures.halves(url, width: 64, height: 48, exif: [
            "-GPSDateStamp=2024:07:01", "-GPSTimeStamp=12:00:00", "-GPSLatitude=35.6895", "-GPSLatitudeRef=N",
            "-GPSLongitude=139.6917", "-GPSLongitudeRef=E",
        ])
        let item = Item(source: url, relativePath: "tokyo.jpg", contentHash: String(repeating: "cd", count: 32), fileSize: 1,
                        modificationDate: utc(2025, 1, 1))
        let settings = RunSettings(library: folder.url, timeZone: TimeZone(identifier: "UTC")!)
        let explanation = try ExifDate(options: ExifDateOptions()).explain(item, settings: settings, now: now)
        XCTAssertEqual(explanation.zoneAtLocation, "Asia/Tokyo")
        XCTAssertEqual(explanation.locationSource, "EXIF GPS")
        try ExifDate(options: ExifDateOptions()).apply(to: item, settings: settings, now: now)
        XCTAssertEqual(item.captureDate?.local, local(2024, 7, 1, 21))
        XCTAssertEqual(item.captureDate?.timeZoneSource, .gps)
        XCTAssertEqual(try XCTUnwrap(item.location?.latitude), 35.6895, accuracy: 1e-4)
        XCTAssertEqual(try XCTUnwrap(item.location?.longitude), 139.6917, accuracy: 1e-4)
    }
}
