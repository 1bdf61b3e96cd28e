import DarkroomTestSupport
import DarkroomXMP
import Foundation
import XCTest

/// Reading packets: both RDF forms give the same properties, arrays and structures keep their
/// shape, names are matched by namespace URI, and a malformed packet is an error with the reason.
final class XMPPacketReadingTests: XCTestCase {
    private let dc = XMPNamespace.dc, xmp = XMPNamespace.xmp

    private func packet(_ body: String, namespaces: String = "") throws -> XMPPacket {
        try XMPPacket(data: Data(XMPSamples.wrap(body, namespaces: namespaces).utf8))
    }

    func testAttributeAndElementFormsReadTheSame() throws {
        let attributes = try packet("<rdf:Description rdf:about='' xmp:Rating='4' xmp:CreateDate='2019-05-04T10:11:12+02:00'/>")
        let elements = try packet("""
            <rdf:Description rdf:about=''>
              <xmp:Rating>4</xmp:Rating>
              <xmp:CreateDate>2019-05-04T10:11:12+02:00</xmp:CreateDate>
            </rdf:Description>
            """)
        XCTAssertEqual(attributes.properties, elements.properties)
        XCTAssertEqual(attributes[xmp, "Rating"], .text("4"))
        XCTAssertEqual(elements[xmp, "CreateDate"]?.text, "2019-05-04T10:11:12+02:00")
    }

    func testPrefixesDoNotMatterNamespacesDo() throws {
        let read = try packet("<rdf:Description a:Rating='5' b:Rating='1'/>",
                              namespaces: "xmlns:a='\(xmp)' xmlns:b='http://example.com/not-xmp/'")
        XCTAssertEqual(read[xmp, "Rating"]?.text, "5")
        XCTAssertEqual(read["http://example.com/not-xmp/", "Rating"]?.text, "1")
        XCTAssertEqual(read.prefixes[xmp], "a", "the prefix is kept for writing")
    }

    func testArraysLanguagesStructuresAndURIs() throws {
        let read = try packet("""
            <rdf:Description>
              <dc:title><rdf:Alt><rdf:li xml:lang="de">Strand</rdf:li><rdf:li xml:lang="x-default">Beach</rdf:li></rdf:Alt></dc:title>
              <dc:subject><rdf:Bag><rdf:li>sea</rdf:li><rdf:li>sand &amp; sun</rdf:li></rdf:Bag></dc:subject>
              <xmpRights:WebStatement rdf:resource="https://example.com/licence"/>
              <mwg-rs:Regions rdf:parseType="Resource">
                <mwg-rs:RegionList><rdf:Bag>
                  <rdf:li><rdf:Description mwg-rs:Name="Alice" mwg-rs:Type="Face">
                    <mwg-rs:Area stArea:x="0.5" stArea:y="0.25" stArea:w="0.1" stArea:h="0.2"/>
                  </rdf:Description></rdf:li>
                </rdf:Bag></mwg-rs:RegionList>
              </mwg-rs:Regions>
              <dc:creator><rdf:Seq><rdf:li rdf:parseType="Resource"><rdf:value>Bob</rdf:value><ex:role>photographer</ex:role></rdf:li></rdf:Seq></dc:creator>
            </rdf:Description>
            """, namespaces: """
            xmlns:xmpRights='\(XMPNamespace.xmpRights)' xmlns:mwg-rs='\(XMPNamespace.mwgRegions)' \
            xmlns:stArea='\(XMPNamespace.mwgArea)' xmlns:ex='http://example.com/ns/'
            """)
        XCTAssertEqual(read[dc, "title"]?.text, "Beach", "an Alt's text is its x-default item")
        XCTAssertEqual(read[dc, "title"]?.items.map(\.language), ["de", "x-default"])
        XCTAssertEqual(read[dc, "subject"], .array(.bag, [.text("sea"), .text("sand & sun")]))
        XCTAssertEqual(read[XMPNamespace.xmpRights, "WebStatement"], .uri("https://example.com/licence"))
        let region = read[XMPNamespace.mwgRegions, "Regions"]?[XMPName(XMPNamespace.mwgRegions, "RegionList")]?.items.first
        XCTAssertEqual(region?[XMPName(XMPNamespace.mwgRegions, "Name")]?.text, "Alice")
        XCTAssertEqual(region?[XMPName(XMPNamespace.mwgRegions, "Area")]?[XMPName(XMPNamespace.mwgArea, "y")]?.text, "0.25")
        XCTAssertEqual(read[dc, "creator"]?.texts, ["Bob"], "a qualified value's text is its rdf:value")
    }

    func testUTF16SidecarFromLightroom() throws {
        // The corpus sidecar is UTF-16 little-endian with a byte order mark, as Lightroom writes on Windows.
        let data = try Data(contentsOf: try Corpus.file("immich-test-assets/metadata/xmp/dates/2010.xmp"))
        XCTAssertEqual(Array(data.prefix(2)), [0xFF, 0xFE])
        let read = try XMPPacket(data: data)
        XCTAssertEqual(read[xmp, "CreateDate"]?.text, "2010-09-27T14:35:33+02:00")
        XCTAssertEqual(read[xmp, "CreatorTool"]?.text, "Adobe Photoshop Lightroom 4.1 (Macintosh)")
        XCTAssertEqual(read.repairs, [])
    }

    func testExiv2SidecarWithShorthandStructures() throws {
        let data = try Data(contentsOf: try Corpus.file("immich-test-assets/problems/xmp/iso-value-array/iso-value-array.xmp"))
        let read = try XMPPacket(data: data)
        let exif = XMPNamespace.exif
        XCTAssertEqual(read[exif, "ISOSpeedRatings"], .array(.seq, [.text("160")]))
        XCTAssertEqual(read[exif, "Flash"]?[XMPName(exif, "Fired")]?.text, "False", "attributes on a property element are a structure")
        XCTAssertEqual(read[exif, "GPSLatitude"]?.text, "40,14.0786450N")
        XCTAssertEqual(read[XMPNamespace.photoshop, "DateCreated"]?.text, "2009-11-28T13:42:39")
        let description = try XCTUnwrap(read[dc, "description"]?.text)
        XCTAssertTrue(description.count > 1 && description.allSatisfy { $0 == " " }, "text is kept as written, spaces and all")
    }

    func testMalformedPacketsAreErrorsWithTheirReason() {
        let cases: [(String, String)] = [
            ("<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='\(XMPNamespace.rdf)'><rdf:Description",
             "unterminated start tag <rdf:Description"),
            ("<rdf:RDF xmlns:rdf='\(XMPNamespace.rdf)'><rdf:Description></rdf:RDF>",
             "</rdf:RDF> closes <rdf:RDF> while <rdf:Description> is still open"),
            ("<rdf:RDF xmlns:rdf='\(XMPNamespace.rdf)'><rdf:Description><foo:Bar>1</foo:Bar></rdf:Description></rdf:RDF>",
             "the prefix foo of foo:Bar is not declared"),
            ("<rdf:RDF xmlns:rdf='\(XMPNamespace.rdf)'><rdf:Description>", "the packet ends inside <rdf:Description> (truncated?)"),
            ("<html><body>not xmp</body></html>", "no rdf:RDF element: not an XMP packet"),
            ("<rdf:RDF xmlns:rdf='\(XMPNamespace.rdf)'><rdf:Description xmp:Rating=5/></rdf:RDF>",
             "in <rdf:Description>, the value of xmp:Rating is not in quotes"),
            ("<rdf:RDF xmlns:rdf='\(XMPNamespace.rdf)'><!-- never closed", "unterminated comment"),
            ("", "no rdf:RDF element: not an XMP packet"),
        ]
        for (text, reason) in cases {
            XCTAssertThrowsError(try XMPPacket(data: Data(text.utf8)), text) { error in
                XCTAssertEqual((error as? XMPError)?.reason, reason, text)
            }
        }
    }

    func testLenientReadingKeepsWhatCameBeforeTheDamage() {
        let text = XMPSamples.wrap("<rdf:Description xmp:Rating='3'><dc:title>cut here", namespaces: "")
        let cut = Array(text.utf8.prefix(text.utf8.count - 40))
        XCTAssertThrowsError(try XMPPacket(data: Data(cut)))
        XCTAssertEqual(XMPPacket(lenient: cut)[xmp, "Rating"]?.text, "3")
    }
}

/// Packets for the tests: a body inside `x:xmpmeta` and `rdf:RDF` with the common namespaces.
enum XMPSamples {
    static func wrap(_ body: String, namespaces: String) -> String {
        let standard = namespaces.contains("xmlns:a=") ? "" : "xmlns:xmp='\(XMPNamespace.xmp)' xmlns:dc='\(XMPNamespace.dc)'"
        return """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="\(XMPNamespace.rdf)" \(standard) \(namespaces)>
            \(body)
            </rdf:RDF></x:xmpmeta>
            <?xpacket end="w"?>
            """
    }
}
