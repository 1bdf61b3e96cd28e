import DarkroomTestSupport
import DarkroomXMP
import Foundation
import XCTest

/// Writing packets: what is written reads back the same with `XMPPacket` and with exiftool, and
/// no text or name can break the XML.
final class XMPPacketWritingTests: XCTestCase {
    private let dc = XMPNamespace.dc, xmp = XMPNamespace.xmp

    /// A packet with every kind of value, built through the public API.
    private func everyKindOfValue() -> XMPPacket {
        var packet = XMPPacket()
        packet[XMPName(xmp, "Rating")] = .text("5")
        packet[XMPName(xmp, "Label")] = .text("Red")
        packet[XMPName(dc, "title")] = .array(.alt, [.text("Ma plage", language: "x-default"), .text("My beach", language: "en")])
        packet[XMPName(dc, "subject")] = .array(.bag, [.text("beach"), .text("<sand> & \"sun\"")])
        packet[XMPName(XMPNamespace.lightroom, "hierarchicalSubject")] = .array(.bag, [.text("Places|Beach")])
        packet[XMPName(XMPNamespace.xmpRights, "WebStatement")] = .uri("https://example.com/?a=1&b=2")
        let area = XMPValue.structure([XMPProperty(XMPName(XMPNamespace.mwgArea, "x"), .text("0.5")),
                                       XMPProperty(XMPName(XMPNamespace.mwgArea, "y"), .text("0.4"))])
        let region = XMPValue.structure([XMPProperty(XMPName(XMPNamespace.mwgRegions, "Name"), .text("Alice")),
                                         XMPProperty(XMPName(XMPNamespace.mwgRegions, "Type"), .text("Face")),
                                         XMPProperty(XMPName(XMPNamespace.mwgRegions, "Area"), area)])
        packet[XMPName(XMPNamespace.mwgRegions, "Regions")] = .structure([
            XMPProperty(XMPName(XMPNamespace.mwgRegions, "RegionList"), .array(.bag, [region])),
        ])
        packet[XMPName(XMPNamespace.iptcExtension, "PersonInImage")] = .array(.bag, [.text("Alice")])
        packet[XMPName("http://example.com/empty/", "Nothing")] = .structure([])
        return packet
    }

    func testWrittenPacketReadsBackTheSame() throws {
        let packet = everyKindOfValue()
        let reread = try XMPPacket(data: packet.serialized())
        XCTAssertEqual(reread.properties, packet.properties)
        XCTAssertEqual(reread.prefixes[XMPNamespace.mwgRegions], "mwg-rs", "customary prefixes are used")
        XCTAssertEqual(reread.prefixes["http://example.com/empty/"], "ns", "an unknown namespace gets a neutral prefix")
    }

    func testExiftoolReadsTheWrittenPacket() throws {
        let folder = try TemporaryFolder("xmp-writing")
        let url = folder.path("written.xmp")
        try everyKindOfValue().serialized().write(to: url)
        let json = try Fixtures.run("exiftool", ["-j", "-struct", "-XMP:all", url.path])
        let object = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])?.first)
        XCTAssertEqual(object["Rating"] as? Int, 5)
        XCTAssertEqual(object["Label"] as? String, "Red")
        XCTAssertEqual(object["Title"] as? String, "Ma plage")
        XCTAssertEqual(object["Subject"] as? [String], ["beach", "<sand> & \"sun\""])
        XCTAssertEqual(object["HierarchicalSubject"] as? [String], ["Places|Beach"])
        XCTAssertEqual(object["WebStatement"] as? String, "https://example.com/?a=1&b=2")
        XCTAssertEqual(object["PersonInImage"] as? [String], ["Alice"])
        let regions = try XCTUnwrap(object["RegionInfo"] as? [String: Any])
        let list = try XCTUnwrap(regions["RegionList"] as? [[String: Any]])
        XCTAssertEqual(list.first?["Name"] as? String, "Alice")
        XCTAssertEqual((list.first?["Area"] as? [String: Any])?["Y"] as? Double, 0.4)
    }

    func testHostileTextAndPrefixesCannotBreakTheXML() throws {
        let weird = "a\u{0}b\u{1B}c]]><!-- \"' \r\n\t & é 😀"
        var packet = try XMPPacket(data: Data(XMPSamples.wrap(
            "<rdf:Description a:One='1' b:Two='2'/>",
            namespaces: "xmlns:a='http://example.com/one/' xmlns:b='http://example.com/two/?q=\"x\"&amp;y'").utf8))
        packet[XMPName("http://example.com/three/", "Text")] = .text(weird, language: "x\"y")
        packet[XMPName(XMPNamespace.xmp, "Rating")] = .text("2")
        let reread = try XMPPacket(data: packet.serialized())
        XCTAssertEqual(reread["http://example.com/one/", "One"]?.text, "1")
        XCTAssertEqual(reread["http://example.com/two/?q=\"x\"&y", "Two"]?.text, "2")
        XCTAssertEqual(reread["http://example.com/three/", "Text"], .text("a\u{FFFD}b\u{FFFD}c]]><!-- \"' \r\n\t & é 😀", language: "x\"y"),
                       "control characters XML cannot hold become U+FFFD; everything else survives")
        XCTAssertEqual(reread[XMPNamespace.xmp, "Rating"]?.text, "2")
    }

    func testPrefixClaimedByTwoNamespacesIsRenumbered() throws {
        let one = try XMPPacket(data: Data(XMPSamples.wrap("<rdf:Description p:A='1'/>", namespaces: "xmlns:p='http://example.com/one/'").utf8))
        let two = try XMPPacket(data: Data(XMPSamples.wrap("<rdf:Description p:B='2'/>", namespaces: "xmlns:p='http://example.com/two/'").utf8))
        let merged = one.merging(two)
        let text = String(decoding: merged.serialized(), as: UTF8.self)
        XCTAssertTrue(text.contains("xmlns:p=\"http://example.com/one/\"") && text.contains("xmlns:p1=\"http://example.com/two/\""), text)
        let reread = try XMPPacket(data: merged.serialized())
        XCTAssertEqual(reread["http://example.com/one/", "A"]?.text, "1")
        XCTAssertEqual(reread["http://example.com/two/", "B"]?.text, "2")
    }
}
