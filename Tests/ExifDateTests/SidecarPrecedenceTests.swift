import DarkroomCore
import DarkroomExif
import DarkroomSidecars
import ExifDateStage
import Foundation
import XCTest
import DarkroomModel

/// How sidecars weigh against the file's own dates: an XMP sidecar first (the user's latest word);
/// Google Takeout's instant winning only when it disagrees with the file by over 14 hours; every
/// candidate listed with its outcome.
final class SidecarPrecedenceTests: XCTestCase {
    let now = utc(2025, 6, 1, 12)
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    func resolve(_ evidence: CaptureDateEvidence, chosenZone: Bool = true) -> CaptureDateDecision {
        CaptureDateResolver(timeZone: TimeZone(identifier: "UTC")!, timeZoneIsChosen: chosenZone, now: now).resolve(evidence)
    }

    func takeout(_ json: String, name: String = "IMG_1.jpg.json") throws -> NamedSidecar<TakeoutMetadata> {
        NamedSidecar(name: name, content: try TakeoutMetadata(data: Data(json.utf8), now: now))
    }

    func xmpSidecar(_ body: String, name: String = "IMG_1.jpg.xmp") throws -> NamedSidecar<XMPSidecar> {
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" \(body)/>
            </rdf:RDF></x:xmpmeta>
            """
        return NamedSidecar(name: name, content: try XMPSidecar(data: Data(packet.utf8)))
    }

    func outcomes(_ decision: CaptureDateDecision) -> [String] {
        decision.considered.map { "\($0.source.rawValue): \($0.outcome)" }
    }

    // MARK: XMP sidecar

    func testTheXMPSidecarsDateComesBeforeTheFilesOwn() throws {
        let decision = resolve(.init(exif: ExifTags(dateTimeOriginal: "2019:03:01 19:00:00", offsetTimeOriginal: "+09:00"),
                                     fileName: "IMG_1.jpg", modificationDate: utc(2024, 6, 1),
                                     xmpSidecar: try xmpSidecar(#"exif:DateTimeOriginal="2018-05-06T07:08:09+02:00""#)))
        let date = try XCTUnwrap(decision.date)
        XCTAssertEqual(date.source, .xmpSidecar)
        XCTAssertEqual(date.local, local(2018, 5, 6, 7, 8, 9))
        XCTAssertEqual(date.utcOffsetSeconds, 7200)
        XCTAssertEqual(outcomes(decision), [
            "xmp-sidecar: chosen",
            "exif:DateTimeOriginal: overridden by the XMP sidecar, the user's latest word",
            "file-mtime: not needed: a more trusted source decided",
        ])
        XCTAssertEqual(decision.considered[0].field, "IMG_1.jpg.xmp exif:DateTimeOriginal")
    }

    func testInTheSidecarADateWithATimeBeatsADateAlone() throws {
        let decision = resolve(.init(xmpSidecar: try xmpSidecar(
            #"exif:DateTimeOriginal="2018-05-06" xmp:CreateDate="2018-05-07T07:08:09+02:00""#)))
        XCTAssertEqual(decision.date?.local, local(2018, 5, 7, 7, 8, 9))
        XCTAssertEqual(decision.considered.map(\.field), ["IMG_1.jpg.xmp xmp:CreateDate", "IMG_1.jpg.xmp exif:DateTimeOriginal"])
    }

    func testAnImpossibleSidecarDateIsRejectedAndTheFileDecides() throws {
        let decision = resolve(.init(exif: ExifTags(dateTimeOriginal: "2019:03:01 19:00:00"),
                                     xmpSidecar: try xmpSidecar(#"exif:DateTimeOriginal="2019-02-30T10:00:00""#)))
        XCTAssertEqual(decision.date?.source, .exifOriginal)
        XCTAssertEqual(decision.considered.first?.outcome, .rejected(.invalidCalendar))
        XCTAssertEqual(decision.rejected.map(\.field), ["IMG_1.jpg.xmp exif:DateTimeOriginal"])
    }

    // MARK: Google Takeout

    func testTakeoutWinsWhenItDisagreesByMoreThanATimeZonesWorth() throws {
        // Google Photos says 2019-03-01T10:00Z (the user corrected it); the camera said 2015.
        let decision = resolve(.init(exif: ExifTags(dateTimeOriginal: "2015:01:01 10:00:00"), fileName: "IMG_1.jpg",
                                     modificationDate: utc(2024, 6, 1),
                                     takeout: try takeout(#"{"photoTakenTime": {"timestamp": "1551434400"}}"#), locationZone: nil))
        let date = try XCTUnwrap(decision.date)
        XCTAssertEqual(date.source, .takeout)
        XCTAssertEqual(date.local, local(2019, 3, 1, 10), "the instant in the run's zone (UTC here)")
        XCTAssertEqual(date.timeZoneSource, .configured)
        XCTAssertEqual(date.notes?.first,
                       "DateTimeOriginal 2015-01-01T10:00:00+00:00 disagrees with Google Takeout's date by 1520 days: the JSON decided "
                       + "(a date corrected in Google Photos lives only there)")
        XCTAssertEqual(outcomes(decision), [
            "exif:DateTimeOriginal: overridden by Google Takeout's date, 1520 days away: a date corrected in Google Photos lives only in the JSON",
            "takeout:photoTakenTime: chosen",
            "file-mtime: not needed: a more trusted source decided",
        ])
    }

    func testWhenTheyAgreeTheFilesWallClockAndOffsetAreKept() throws {
        // 19:00 in Tokyo is 10:00Z: nine hours apart as wall clocks, the same moment.
        let decision = resolve(.init(exif: ExifTags(dateTimeOriginal: "2019:03:01 19:00:00"),
                                     takeout: try takeout(#"{"photoTakenTime": {"timestamp": "1551434400"}}"#)), chosenZone: false)
        let date = try XCTUnwrap(decision.date)
        XCTAssertEqual(date.source, .exifOriginal)
        XCTAssertEqual(date.local, local(2019, 3, 1, 19))
        XCTAssertNil(date.utcOffsetSeconds, "the JSON has no local time: the file's stands as it is")
        XCTAssertEqual(date.notes, ["Google Takeout's date 2019-03-01T10:00:00Z agrees (within 14 h): the file's wall-clock time and offset are kept"])
        XCTAssertEqual(decision.considered[1].outcome, .agreed("within 14 h of DateTimeOriginal; the file's wall-clock time is kept"))
    }

    func testATakeoutFileWithoutADateOfItsOwnTakesTheJSONsNotTheExportDay() throws {
        for exif in [nil, ExifTags(dateTimeOriginal: "0000:00:00 00:00:00")] {
            let decision = resolve(.init(exif: exif, fileName: "IMG_1.jpg", modificationDate: utc(2024, 6, 1, 8),
                                         takeout: try takeout(#"{"photoTakenTime": {"timestamp": "1551434400"}, "geoData": {"latitude": 35.68, "longitude": 139.69}}"#),
                                         location: GeoLocation(latitude: 35.68, longitude: 139.69), locationZone: tokyo))
            let date = try XCTUnwrap(decision.date)
            XCTAssertEqual(date.source, .takeout)
            XCTAssertEqual(date.local, local(2019, 3, 1, 19), "the JSON's instant in the zone at its geoData")
            XCTAssertEqual(date.utcOffsetSeconds, 9 * 3600)
            XCTAssertEqual(date.timeZoneSource, .gps)
            XCTAssertEqual(decision.considered.last?.outcome, .unused, "the modification time (the export day) is never used")
        }
    }

    func testAnXMPSidecarOverridesTakeoutToo() throws {
        let decision = resolve(.init(xmpSidecar: try xmpSidecar(#"xmp:CreateDate="2010-09-27T14:35:33+02:00""#),
                                     takeout: try takeout(#"{"photoTakenTime": {"timestamp": "1551434400"}}"#)))
        XCTAssertEqual(decision.date?.source, .xmpSidecar)
        XCTAssertEqual(decision.considered.map(\.outcome).last, .overridden("by the XMP sidecar, the user's latest word"))
    }

    func testAJSONWithoutAUsableTimestampIsListedAndPassedBy() throws {
        let decision = resolve(.init(fileName: "IMG_20190301_101010.jpg",
                                     takeout: try takeout(#"{"photoTakenTime": {"timestamp": "0"}}"#)))
        XCTAssertEqual(decision.date?.source, .filename)
        XCTAssertEqual(decision.considered.last?.outcome, .unusable("photoTakenTime.timestamp is 0, which Takeout writes for no date"))
    }
}
