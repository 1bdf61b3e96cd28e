import DarkroomCore
import ExifDateStage
import Foundation
import XCTest
import DarkroomModel

/// Dates read from XMP packets when EXIF has none.
final class XMPDateTests: XCTestCase {
    let resolver = CaptureDateResolver(fallbackToFileTime: false, timeZone: TimeZone(identifier: "UTC")!, timeZoneIsChosen: false,
                                       now: utc(2025, 6, 1))

    func dated(_ xmp: String) -> CaptureDate? { resolver.resolve(.init(xmp: xmp)).date }

    func packet(_ body: String) -> String {
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        \(body)
        </rdf:RDF></x:xmpmeta><?xpacket end="w"?>
        """
    }

    func testAttributeFormWithOffset() throws {
        let d = try XCTUnwrap(dated(packet(#"<rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:DateCreated="2005-09-07T15:07:40-07:00"/>"#)))
        XCTAssertEqual(d.local, local(2005, 9, 7, 15, 7, 40))
        XCTAssertEqual(d.utcOffsetSeconds, -25200)
        XCTAssertEqual(d.source, .xmp)
        XCTAssertEqual(d.timeZoneSource, .metadata)
        XCTAssertEqual(d.confidence, .medium)
    }

    func testElementFormWithZuluAndFraction() throws {
        let d = try XCTUnwrap(dated(packet("<rdf:Description><exif:DateTimeOriginal>2013-07-05T03:18:27.25Z</exif:DateTimeOriginal></rdf:Description>")))
        XCTAssertEqual(d.local, local(2013, 7, 5, 3, 18, 27, nanosecond: 250_000_000))
        XCTAssertEqual(d.utcOffsetSeconds, 0)
        XCTAssertEqual(d.timeZoneSource, .metadata)
    }

    func testWithoutOffsetTheZoneIsUnknown() throws {
        let d = try XCTUnwrap(dated(packet(#"<rdf:Description xmp:CreateDate = '2017-01-01T01:01:01'/>"#)))
        XCTAssertEqual(d.local, local(2017, 1, 1, 1, 1, 1))
        XCTAssertNil(d.utcOffsetSeconds)
        XCTAssertEqual(d.timeZoneSource, .unknown)
    }

    func testPhotoshopDateCreatedWinsOverExifAndXmpWhateverTheirOrder() throws {
        let body = """
        <rdf:Description xmp:CreateDate="2001-01-01T00:00:00" exif:DateTimeOriginal="2002-02-02T00:00:00">
        <photoshop:DateCreated>2003-03-03T03:03:03+01:00</photoshop:DateCreated></rdf:Description>
        """
        XCTAssertEqual(dated(packet(body))?.local, local(2003, 3, 3, 3, 3, 3))
    }

    /// Within one packet a date with a time beats a date alone, whatever property holds it: Lightroom
    /// and others write a day-only `photoshop:DateCreated` beside the camera's full `exif:DateTimeOriginal`.
    func testADateWithATimeBeatsADateAloneInOnePacket() throws {
        let decision = resolver.resolve(.init(xmp: packet(
            #"<rdf:Description photoshop:DateCreated="2002-06-20" exif:DateTimeOriginal="2002-07-13T15:58:28Z"/>"#)))
        let date = try XCTUnwrap(decision.date)
        XCTAssertEqual(date.local, local(2002, 7, 13, 15, 58, 28))
        XCTAssertEqual(date.utcOffsetSeconds, 0)
        XCTAssertEqual(date.confidence, .medium)
        XCTAssertEqual(decision.considered.map { "\($0.field): \($0.outcome)" }, [
            "exif:DateTimeOriginal: chosen",
            "photoshop:DateCreated: not needed: a more trusted source decided",
        ])
    }

    /// A date alone still dates a photo whose packet has nothing better (its times are all unusable).
    func testADateAloneDecidesWhenNoTimeIsUsable() throws {
        let decision = resolver.resolve(.init(xmp: packet(
            #"<rdf:Description photoshop:DateCreated="2002-06-20" exif:DateTimeOriginal="0000-00-00T00:00:00"/>"#)))
        XCTAssertEqual(decision.date?.local, local(2002, 6, 20, 12))
        XCTAssertEqual(decision.date?.confidence, .low)
        XCTAssertEqual(decision.rejected.map(\.field), ["exif:DateTimeOriginal"])
    }

    func testAnInvalidPreferredValueFallsToTheNextProperty() throws {
        let decision = resolver.resolve(.init(xmp: packet(#"<rdf:Description photoshop:DateCreated="0000-00-00T00:00:00" xmp:CreateDate="2009-08-04T10:35:03Z"/>"#)))
        XCTAssertEqual(decision.date?.local, local(2009, 8, 4, 10, 35, 3))
        XCTAssertEqual(decision.rejected.first?.field, "photoshop:DateCreated")
        XCTAssertEqual(decision.rejected.first?.reason, .zero)
    }

    func testDateOnlyIsLowConfidenceAtNoon() throws {
        let d = try XCTUnwrap(dated(packet(#"<rdf:Description photoshop:DateCreated="2005-09-07"/>"#)))
        XCTAssertEqual(d.local, local(2005, 9, 7, 12))
        XCTAssertEqual(d.confidence, .low)
    }

    func testLookalikeNamesAndEmptyElementsAreIgnored() {
        XCTAssertNil(dated(packet(#"<rdf:Description myxmp:CreateDate="2001-01-01T00:00:00" xmp:CreateDateX="2001-01-01T00:00:00"/>"#)))
        XCTAssertNil(dated(packet("<rdf:Description><xmp:CreateDate/></rdf:Description>")))
        XCTAssertNil(dated("xmp:CreateDate"))
        XCTAssertNil(dated("<xmp:CreateDate>"))
        XCTAssertNil(dated(#"xmp:CreateDate=""#))
    }
}
