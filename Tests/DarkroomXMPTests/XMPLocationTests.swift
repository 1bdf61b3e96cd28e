import DarkroomTestSupport
import DarkroomXMP
import Foundation
import XCTest

/// `XMPPacket.removingLocation()`: exiftool finds no place in what is left, and the rating,
/// keywords, title, description and dates are still there.
final class XMPLocationTests: XCTestCase {
    /// exiftool's XMP tags that locate a photo.
    static let locationTag = try! NSRegularExpression(
        pattern: "^(GPS|Gps|EarthPos)|City$|^(State|ProvinceState)$|Country|Location|WorldRegion|Latitude$|Longitude$|Altitude$|^Coverage$")
    /// Tags that must survive where the original has them.
    static let keptTags = ["XMP-xmp:Rating", "XMP-dc:Subject", "XMP-dc:Title", "XMP-dc:Description", "XMP-photoshop:DateCreated",
                           "XMP-xmp:CreateDate", "XMP-exif:DateTimeOriginal", "XMP-lr:HierarchicalSubject", "XMP-tiff:Make"]

    /// Real packets with `photoshop:City`/`State`/`Country` and `exif:GPS*`, from the corpus.
    func testCorpusPacketsLoseTheirPlaceAndKeepTheRest() throws {
        let folder = try TemporaryFolder("xmp-location")
        for path in ["exiftool-t-images/t/images/XMP.jpg", "exiftool-t-images/t/images/MWG.jpg",
                     "immich-test-assets/metadata/gps-position/thompson-springs.jpg", "metadata-extractor-images/jpg/Nokia Lumia 800.jpg"] {
            let original = folder.path("original.xmp")
            // Through a shell: the packet's bytes as stored (UTF-16 in XMP.jpg), not decoded as UTF-8.
            try Fixtures.run("sh", ["-c", "exiftool -b -xmp \"$1\" > \"$2\"", "sh", try Corpus.file(path).path, original.path])
            try check(original, in: folder, label: path)
        }
    }

    /// Every location field exiftool names, IPTC's location structures and the schemas of drones
    /// and phones, in one packet.
    func testEveryKnownLocationFieldIsRemoved() throws {
        let folder = try TemporaryFolder("xmp-location-all")
        let original = folder.path("all.xmp")
        try Data(Self.packetWithEveryLocationField.utf8).write(to: original)
        let before = try exiftool(original)
        XCTAssertGreaterThanOrEqual(before.keys.filter { matchesLocation($0) }.count, 20, "\(before.keys.sorted())")
        let cleaned = try check(original, in: folder, label: "all")
        XCTAssertNotNil(cleaned["XMP-exif:SubjectLocation"], "a pixel position in the frame is not a place")
        XCTAssertNotNil(cleaned["XMP-exifEX:ISOSpeedLatitudeyyy"], "ISO speed latitude is exposure, not a place")
        XCTAssertTrue(XMPPacket.isLocation(XMPName("http://example.com/phone/1.0/", "GPSLatitude")), "unknown schemas too")
        XCTAssertFalse(XMPPacket.isLocation(XMPName(XMPNamespace.xmp, "Rating")))
    }

    /// Removes the location of the packet in `original`, writes it, and compares exiftool's view.
    @discardableResult
    private func check(_ original: URL, in folder: TemporaryFolder, label: String) throws -> [String: String] {
        let packet = try XMPPacket(data: try Data(contentsOf: original))
        let cleanedURL = folder.path("cleaned.xmp")
        try packet.removingLocation().serialized().write(to: cleanedURL)
        let before = try exiftool(original), after = try exiftool(cleanedURL)
        XCTAssertTrue(before.keys.contains(where: matchesLocation), "\(label) has a location to remove")
        XCTAssertEqual(after.keys.filter(matchesLocation).sorted(), [], label)
        for tag in Self.keptTags where before[tag] != nil {
            XCTAssertEqual(after[tag], before[tag], "\(label): \(tag)")
        }
        XCTAssertTrue(Self.keptTags.contains { after[$0] != nil }, "\(label) keeps something")
        return after
    }

    private func matchesLocation(_ tag: String) -> Bool {
        let name = String(tag.split(separator: ":").last ?? "")
        guard !name.hasPrefix("ISOSpeedLatitude"), name != "SubjectLocation" else { return false }
        return Self.locationTag.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
    }

    private func exiftool(_ url: URL) throws -> [String: String] {
        let json = try Fixtures.run("exiftool", ["-j", "-a", "-G1", "-struct", "-xmp:all", url.path])
        let objects = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        return (objects.first ?? [:]).filter { $0.key.hasPrefix("XMP-") }.reduce(into: [:]) { $0[$1.key] = "\($1.value)" }
    }

    static let packetWithEveryLocationField = """
    <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
     <rdf:Description rdf:about=""
       xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
       xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:exifEX="http://cipa.jp/exif/1.0/"
       xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
       xmlns:Iptc4xmpCore="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
       xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"
       xmlns:xmpDM="http://ns.adobe.com/xmp/1.0/DynamicMedia/" xmlns:mediapro="http://ns.iview-multimedia.com/mediapro/1.0/"
       xmlns:drone-dji="http://www.dji.com/drone-dji/1.0/" xmlns:cell="http://developer.sonyericsson.com/cell/1.0/"
       xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/"
       xmp:Rating="4" xmp:CreateDate="2023-07-14T18:02:11+02:00"
       exif:GPSLatitude="48,51.4N" exif:GPSLongitude="2,17.7E" exif:GPSAltitude="35/1" exif:GPSAltitudeRef="0"
       exif:GPSTimeStamp="2023-07-14T16:02:11Z" exif:GPSImgDirection="120/1" exif:GPSMapDatum="WGS-84"
       exif:GPSAreaInformation="Paris" exif:GPSDestLatitude="48,51.5N" exif:DateTimeOriginal="2023-07-14T18:02:11+02:00"
       exif:SubjectLocation="" exifEX:ISOSpeedLatitudeyyy="100"
       photoshop:City="Paris" photoshop:State="Île-de-France" photoshop:Country="France"
       photoshop:DateCreated="2023-07-14T18:02:11+02:00"
       Iptc4xmpCore:Location="Champ de Mars" Iptc4xmpCore:CountryCode="FR"
       xmpDM:shotLocation="Tour Eiffel" mediapro:Location="Trocadéro" mediapro:City="Paris"
       drone-dji:GpsLatitude="48.8582" drone-dji:GpsLongitude="2.2945" drone-dji:AbsoluteAltitude="+100.00"
       drone-dji:RelativeAltitude="+60.00" cell:mcc="208" cell:lac="117" prism:location="Paris">
      <exif:SubjectLocation><rdf:Seq><rdf:li>10</rdf:li><rdf:li>20</rdf:li></rdf:Seq></exif:SubjectLocation>
      <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Quatorze juillet</rdf:li></rdf:Alt></dc:title>
      <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Fireworks</rdf:li></rdf:Alt></dc:description>
      <dc:subject><rdf:Bag><rdf:li>fireworks</rdf:li><rdf:li>summer</rdf:li></rdf:Bag></dc:subject>
      <dc:coverage>Paris, France</dc:coverage>
      <lr:hierarchicalSubject><rdf:Bag><rdf:li>Events|Fireworks</rdf:li></rdf:Bag></lr:hierarchicalSubject>
      <Iptc4xmpExt:LocationCreated><rdf:Bag><rdf:li rdf:parseType="Resource">
        <Iptc4xmpExt:City>Paris</Iptc4xmpExt:City><Iptc4xmpExt:ProvinceState>IDF</Iptc4xmpExt:ProvinceState>
        <Iptc4xmpExt:CountryName>France</Iptc4xmpExt:CountryName><Iptc4xmpExt:CountryCode>FR</Iptc4xmpExt:CountryCode>
        <Iptc4xmpExt:Sublocation>Champ de Mars</Iptc4xmpExt:Sublocation><Iptc4xmpExt:WorldRegion>Europe</Iptc4xmpExt:WorldRegion>
        <exif:GPSLatitude>48,51.4N</exif:GPSLatitude>
      </rdf:li></rdf:Bag></Iptc4xmpExt:LocationCreated>
      <Iptc4xmpExt:LocationShown><rdf:Bag><rdf:li rdf:parseType="Resource">
        <Iptc4xmpExt:City>Paris</Iptc4xmpExt:City><Iptc4xmpExt:LocationName>Tour Eiffel</Iptc4xmpExt:LocationName>
      </rdf:li></rdf:Bag></Iptc4xmpExt:LocationShown>
     </rdf:Description>
    </rdf:RDF></x:xmpmeta>
    """
}
