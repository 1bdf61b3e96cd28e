import DarkroomCore
import DarkroomSidecars
import DarkroomTestSupport
import Foundation
import XCTest

/// Reading an XMP sidecar's dates (raw text, in the order a resolver trusts them) and GPS, from the
/// corpus's real sidecars and from sidecars exiftool writes; a malformed one is an error with the reason.
final class XMPSidecarTests: XCTestCase {
    private func dates(_ sidecar: XMPSidecar) -> [String] { sidecar.dates.map { "\($0.property)=\($0.text)" } }

    func testLightroomSidecarsOfTheCorpus() throws {
        for year in ["2000", "2010", "2020"] {
            let sidecar = try XMPSidecar(contentsOf: try Corpus.file("immich-test-assets/metadata/xmp/dates/\(year).xmp"))
            XCTAssertEqual(dates(sidecar), ["xmp:CreateDate=\(year)-09-27T14:35:33+02:00"], "UTF-16 sidecar of \(year)")
            XCTAssertNil(sidecar.location)
            XCTAssertEqual(sidecar.ignored, [])
        }
    }

    func testExiv2SidecarWithGPSAndDatesWithoutOffset() throws {
        let sidecar = try XMPSidecar(contentsOf: try Corpus.file("immich-test-assets/problems/xmp/iso-value-array/iso-value-array.xmp"))
        XCTAssertEqual(dates(sidecar), ["xmp:CreateDate=2009-11-28T13:42:39", "photoshop:DateCreated=2009-11-28T13:42:39"])
        let location = try XCTUnwrap(sidecar.location)
        XCTAssertEqual(location.latitude, 40 + 14.0786450 / 60, accuracy: 1e-9, "40,14.0786450N")
        XCTAssertEqual(location.longitude, -(76 + 17.2284900 / 60), accuracy: 1e-9, "76,17.2284900W")
        XCTAssertNil(location.altitude)
    }

    func testSidecarWrittenByExiftool() throws {
        let folder = try TemporaryFolder("xmp-sidecar")
        let url = folder.path("IMG_1.xmp")
        try Fixtures.run("exiftool", ["-q", "-XMP-exif:DateTimeOriginal=2021:03:04 05:06:07.25+09:00", "-XMP-xmp:CreateDate=2021:03:04 05:06:09",
                                      "-XMP-exif:GPSLatitude=35 39 30.96 S", "-XMP-exif:GPSLongitude=139 44 43.44 W",
                                      "-XMP-exif:GPSAltitude=12.5", "-XMP-exif:GPSAltitudeRef#=1", url.path])
        let sidecar = try XMPSidecar(contentsOf: url)
        XCTAssertEqual(dates(sidecar), ["exif:DateTimeOriginal=2021-03-04T05:06:07.25+09:00", "xmp:CreateDate=2021-03-04T05:06:09"],
                       "DateTimeOriginal first, offsets as written")
        let location = try XCTUnwrap(sidecar.location)
        XCTAssertEqual(location.latitude, -(35 + 39.516 / 60), accuracy: 1e-9)
        XCTAssertEqual(location.longitude, -(139 + 44.724 / 60), accuracy: 1e-9)
        XCTAssertEqual(location.altitude, -12.5, "GPSAltitudeRef 1 is below sea level")
    }

    func testCoordinateForms() throws {
        func location(_ latitude: String, _ longitude: String) throws -> XMPSidecar {
            try XMPSidecar(data: Data(XMPSidecarSamples.packet("exif:GPSLatitude='\(latitude)' exif:GPSLongitude='\(longitude)'").utf8))
        }
        XCTAssertEqual(try location("48,51,24N", "2,21,3E").location?.latitude ?? 0, 48 + 51 / 60.0 + 24 / 3600.0, accuracy: 1e-9)
        XCTAssertEqual(try location("-33.8688", "151.2093").location?.longitude, 151.2093, "a signed decimal")
        let wrongAxis = try location("40,14.0N", "76,17.2N")
        XCTAssertNil(wrongAxis.location)
        XCTAssertEqual(wrongAxis.ignored, ["exif:GPSLongitude \"76,17.2N\" is not a coordinate"])
        XCTAssertEqual(try location("91,0.0N", "10,0.0E").ignored, ["exif:GPSLatitude \"91,0.0N\" is not a coordinate"])
        XCTAssertEqual(try location("40,75.0N", "10,0.0E").ignored, ["exif:GPSLatitude \"40,75.0N\" is not a coordinate"], "minutes under 60")
        let half = try XMPSidecar(data: Data(XMPSidecarSamples.packet("exif:GPSLatitude='40,14.0N'").utf8))
        XCTAssertNil(half.location)
        XCTAssertEqual(half.ignored, ["exif:GPSLongitude is missing, so the other coordinate is unused"])
    }

    func testEmptyDateIsNotedAndSkipped() throws {
        let sidecar = try XMPSidecar(data: Data(XMPSidecarSamples.packet("exif:DateTimeOriginal='  ' xmp:CreateDate='2020-01-02T03:04:05Z'").utf8))
        XCTAssertEqual(dates(sidecar), ["xmp:CreateDate=2020-01-02T03:04:05Z"])
        XCTAssertEqual(sidecar.ignored, ["exif:DateTimeOriginal is empty"])
    }

    func testMalformedSidecarsAreErrorsWithTheFileAndReason() throws {
        let folder = try TemporaryFolder("xmp-sidecar-bad")
        let cases: [(String, Data, String)] = [
            ("cut.xmp", Data(XMPSidecarSamples.packet("xmp:Rating='5'").utf8.prefix(150)), "XMP sidecar is not a readable XMP packet: "),
            ("html.xmp", Data("<html><body>Lightroom export</body></html>".utf8), "XMP sidecar is not a readable XMP packet: no rdf:RDF element"),
            ("empty.xmp", Data(), "XMP sidecar is not a readable XMP packet: no rdf:RDF element"),
            ("huge.xmp", Data(count: (16 << 20) + 1), "larger than 16 MiB: not a sidecar"),
        ]
        for (name, data, reason) in cases {
            let url = folder.path(name)
            try data.write(to: url)
            XCTAssertThrowsError(try XMPSidecar(contentsOf: url), name) { error in
                let error = error as? SidecarError
                XCTAssertEqual(error?.file, url.path, name)
                XCTAssertTrue(error?.reason.hasPrefix(reason) ?? false, "\(name): \(error?.reason ?? "not a SidecarError")")
            }
        }
    }
}

/// Small sidecars for the tests: `attributes` on one `rdf:Description`.
enum XMPSidecarSamples {
    static func packet(_ attributes: String) -> String {
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmlns:dc="http://purl.org/dc/elements/1.1/" \(attributes)/>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """
    }
}
