import DarkroomModel
import DarkroomPhotoMetadata
import DarkroomTestSupport
import DarkroomXMP
import Foundation
import XCTest

/// The library copy's XMP: IPTC-IIM under the photo's XMP under its sidecar, the original file's
/// structure left out, faces turned with the pixels, the catalog's date set.
final class LibraryXMPTests: XCTestCase {
    let xmp = XMPNamespace.xmp, dc = XMPNamespace.dc

    func packet(_ body: String) -> Data {
        Data("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
              xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" \(body)</rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """.utf8)
    }

    /// Bare IIM: keywords Frost and Yard, caption "From IIM", by-line Ann, coded as UTF-8.
    let iim: Data = {
        func dataset(_ record: UInt8, _ number: UInt8, _ value: [UInt8]) -> [UInt8] { [0x1C, record, number, 0, UInt8(value.count)] + value }
        let datasets: [[UInt8]] = [dataset(1, 90, [0x1B, 0x25, 0x47]), dataset(2, 25, Array("Frost".utf8)), dataset(2, 25, Array("Yard".utf8)),
                                   dataset(2, 120, Array("From IIM".utf8)), dataset(2, 80, Array("Ann ".utf8))]
        return Data(datasets.joined())
    }()

    func testEachSourceWinsOverTheOneBeforeAndFileStructureIsLeftOut() throws {
        let own = packet("""
            xmp:Rating="2" tiff:Orientation="6" GCamera:MotionPhoto="1" GCamera:MicroVideoOffset="100" GCamera:BurstID="b1">
            <dc:description><rdf:Alt><rdf:li xml:lang="x-default">From XMP</rdf:li></rdf:Alt></dc:description>
            """)
        let sidecar = try XMPPacket(data: packet("xmp:Rating=\"5\">"))
        let date = CaptureDate(local: LocalDateTime(year: 2023, month: 12, day: 24, hour: 16, minute: 20)!, utcOffsetSeconds: 3600,
                               source: .xmp, timeZoneSource: .metadata, confidence: .high)
        let result = try XCTUnwrap(LibraryXMP(own: own, iptc: iim, sidecar: sidecar, captureDate: date, orientation: 1, width: 10, height: 10).packet())
        XCTAssertEqual(result[xmp, "Rating"]?.text, "5", "the sidecar wins")
        XCTAssertEqual(result[dc, "description"]?.text, "From XMP", "the photo's XMP wins over its IIM")
        XCTAssertEqual(result[dc, "subject"]?.texts, ["Frost", "Yard"], "IIM fills what XMP lacks")
        XCTAssertEqual(result[dc, "creator"]?.texts, ["Ann"])
        XCTAssertNil(result[XMPNamespace.tiff, "Orientation"])
        XCTAssertNil(result[XMPNamespace.googleCamera, "MotionPhoto"], "the copy has no video appended")
        XCTAssertNil(result[XMPNamespace.googleCamera, "MicroVideoOffset"])
        XCTAssertEqual(result[XMPNamespace.googleCamera, "BurstID"]?.text, "b1")
        for name in XMPPacket.captureDateProperties { XCTAssertEqual(result[name]?.text, "2023-12-24T16:20:00+01:00") }
        XCTAssertNil(LibraryXMP(own: nil, iptc: nil, sidecar: nil, captureDate: nil, orientation: 1, width: 1, height: 1).packet(),
                     "nothing to say: no packet")
    }

    /// Photoshop's APP13 form (what libvips gives for JPEGs), Latin text without a coded character
    /// set, and cut blocks.
    func testIIMIsReadFromAPhotoshopResourceBlockAndDamageIsSurvived() throws {
        let latin = Data([0x1C, 2, 25, 0, 4, 0x43, 0x61, 0x66, 0xE9])  // "Café" in Windows-1252
        let resource = Array("8BIM".utf8) + [0x04, 0x04, 0, 0] + [0, 0, 0, UInt8(latin.count)] + [UInt8](latin) + [0]
        let block = Data(Array("Photoshop 3.0\0".utf8) + resource)
        XCTAssertEqual(IPTCRecord(block)?.keywords, ["Café"])
        XCTAssertEqual(IPTCRecord(iim)?.caption, "From IIM")
        for cut in 0..<iim.count { _ = IPTCRecord(iim.prefix(cut)) }
        for cut in 0..<block.count { _ = IPTCRecord(block.prefix(cut)) }
        XCTAssertNil(IPTCRecord(Data("not iim".utf8)))
    }

    /// A face's region at each EXIF orientation lands where the upright pixels put it.
    func testRegionsTurnWithEachOrientation() throws {
        // The stored image is 4x2 pixels with the face in the top-left pixel: centre (0.125, 0.25), size (0.25, 0.5).
        let expected: [Int: (Double, Double, Double, Double)] = [
            1: (0.125, 0.25, 0.25, 0.5), 2: (0.875, 0.25, 0.25, 0.5), 3: (0.875, 0.75, 0.25, 0.5), 4: (0.125, 0.75, 0.25, 0.5),
            5: (0.25, 0.125, 0.5, 0.25), 6: (0.75, 0.125, 0.5, 0.25), 7: (0.75, 0.875, 0.5, 0.25), 8: (0.25, 0.875, 0.5, 0.25),
        ]
        for (orientation, area) in expected {
            let own = packet("""
                xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/" xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#"
                xmlns:stDim="http://ns.adobe.com/xap/1.0/sType/Dimensions#">
                <mwg-rs:Regions rdf:parseType="Resource"><mwg-rs:AppliedToDimensions stDim:w="4" stDim:h="2" stDim:unit="pixel"/>
                <mwg-rs:RegionList><rdf:Bag><rdf:li rdf:parseType="Resource"><mwg-rs:Name>Ann</mwg-rs:Name>
                <mwg-rs:Area stArea:x="0.125" stArea:y="0.25" stArea:w="0.25" stArea:h="0.5" stArea:unit="normalized"/>
                </rdf:li></rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions>
                """)
            let turned = orientation >= 5
            let result = try XCTUnwrap(LibraryXMP(own: own, iptc: nil, sidecar: nil, captureDate: nil, orientation: orientation,
                                                  width: turned ? 2 : 4, height: turned ? 4 : 2).packet())
            let regions = try XCTUnwrap(result[XMPNamespace.mwgRegions, "Regions"])
            let region = try XCTUnwrap(regions[XMPName(XMPNamespace.mwgRegions, "RegionList")]?.items.first)
            let box = try XCTUnwrap(region[XMPName(XMPNamespace.mwgRegions, "Area")])
            let values = ["x", "y", "w", "h"].map { box[XMPName(XMPNamespace.mwgArea, $0)]?.text.flatMap(Double.init) }
            XCTAssertEqual(values, [area.0, area.1, area.2, area.3], "orientation \(orientation)")
            let applied = regions[XMPName(XMPNamespace.mwgRegions, "AppliedToDimensions")]
            XCTAssertEqual(applied?[XMPName(XMPNamespace.mwgDimensions, "w")]?.text, turned ? "2" : "4")
            XCTAssertEqual(region[XMPName(XMPNamespace.mwgRegions, "Name")]?.text, "Ann")
        }
    }

    /// A date from a file's modification time has nanoseconds; the catalog records milliseconds, and
    /// the HEIC carries what the catalog holds (exiftool read 09:29:39.341660499 where the catalog said .341).
    func testTheFractionIsTheCatalogsMilliseconds() throws {
        let local = try XCTUnwrap(LocalDateTime(year: 2026, month: 11, day: 28, hour: 9, minute: 29, second: 39, nanosecond: 341_660_499))
        let date = CaptureDate(local: local, utcOffsetSeconds: 0, source: .fileModified, timeZoneSource: .metadata, confidence: .low)
        XCTAssertEqual(date.exifTags.subSeconds, "341")
        XCTAssertEqual(date.xmpText, "2026-11-28T09:29:39.341+00:00")
        let half = CaptureDate(local: try XCTUnwrap(LocalDateTime(year: 2026, month: 1, day: 2, nanosecond: 500_000_000)), utcOffsetSeconds: nil,
                               source: .exifOriginal, timeZoneSource: .metadata, confidence: .high)
        XCTAssertEqual(half.exifTags.subSeconds, "5")
        XCTAssertEqual(half.xmpText, "2026-01-02T00:00:00.5")
        let underAMillisecond = CaptureDate(local: try XCTUnwrap(LocalDateTime(year: 2026, month: 1, day: 2, nanosecond: 999_999)),
                                            utcOffsetSeconds: nil, source: .exifOriginal, timeZoneSource: .metadata, confidence: .high)
        XCTAssertNil(underAMillisecond.exifTags.subSeconds)
    }
}
