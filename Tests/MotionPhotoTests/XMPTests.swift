@testable import DarkroomMotionPhoto
@testable import DarkroomXMP
import DarkroomISOBMFF
import DarkroomTestSupport
import Foundation
import XCTest

/// The XMP reading behind Google's markers: both RDF forms, any prefix, hostile packets.
final class XMPTests: XCTestCase {
    private func parse(_ xml: String) -> MotionPhotoXMP { MotionPhotoXMP(parsing: Array(xml.utf8)) }

    private let namespaces = """
        xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" \
        xmlns:cam="http://ns.google.com/photos/1.0/camera/" \
        xmlns:box="http://ns.google.com/photos/1.0/container/" \
        xmlns:it="http://ns.google.com/photos/1.0/container/item/"
        """

    func testElementFormsAndOtherPrefixes() {
        let xmp = parse("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF \(namespaces)><rdf:Description rdf:about="">
              <cam:MotionPhoto>1</cam:MotionPhoto>
              <!-- a comment with <cam:MotionPhoto>0</cam:MotionPhoto> inside -->
              <box:Directory><rdf:Seq>
                <rdf:li rdf:parseType="Resource"><box:Item rdf:parseType="Resource">
                  <it:Mime>image/jpeg</it:Mime><it:Semantic>Primary</it:Semantic><it:Length>0</it:Length>
                </box:Item></rdf:li>
                <rdf:li><box:Item><rdf:Description it:Mime="video/mp4" it:Semantic="MotionPhoto" it:Length=' 42 '/></box:Item></rdf:li>
              </rdf:Seq></box:Directory>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """)
        XCTAssertTrue(xmp.motionPhoto)
        XCTAssertEqual(xmp.items, [.init(mime: "image/jpeg", semantic: "Primary", length: 0, padding: nil),
                                   .init(mime: "video/mp4", semantic: "MotionPhoto", length: nil, padding: nil)],
                       "an attribute value with spaces is not a number")
        XCTAssertEqual(xmp.claims(fileSize: 1000).map(\.extent), [.unusable("a Container:Item after the primary image has no Item:Length")])
    }

    func testNamesAreMatchedByNamespaceNotPrefix() {
        let xmp = parse("""
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:GCamera="http://example.com/not-google/">
            <rdf:Description GCamera:MotionPhoto="1" GCamera:MicroVideo="1" GCamera:MicroVideoOffset="10"/></rdf:RDF>
            """)
        XCTAssertEqual(xmp, MotionPhotoXMP())
    }

    func testUltraHDRDirectoryIsNotAMotionPhoto() throws {
        // Pixel's Ultra HDR JPEG: a Container directory with a gain map, no GCamera:MotionPhoto.
        let url = try Corpus.file("exiftool-t-images/t/images/Google.jpg")
        let file = try ByteFile(path: url.path)
        let xmp = MotionPhotoXMP(parsing: try XCTUnwrap(try JPEGSegments.xmpPacket(in: file)))
        XCTAssertEqual(xmp.items.map(\.semantic), ["Primary", "GainMap"])
        XCTAssertEqual(xmp.items.map(\.length), [nil, 52666])
        XCTAssertFalse(xmp.motionPhoto)
        XCTAssertEqual(xmp.claims(fileSize: file.size), [])
    }

    func testEntitiesAndMalformedPackets() {
        XCTAssertEqual(XMLTokens.scan(Array("<a b=\"&lt;&#x41;&#66;&bogus;&\">t&amp;</a>".utf8)),
                       [.start(name: "a", attributes: [.init(name: "b", value: "<AB&bogus;&")]), .text("t&"), .end(name: "a")])
        // Scanning stops at the broken tag and keeps what came before it.
        XCTAssertEqual(XMLTokens.scan(Array("<a x='1'><b y=2></b></a>".utf8)), [.start(name: "a", attributes: [.init(name: "x", value: "1")])])
        // Invalid UTF-8 in a name (Foundation's XMLParser traps on this on Linux).
        var bytes = Array("<rdf:Description \(namespaces) cam:MotionPhoto=\"1\"/>".utf8)
        bytes[bytes.count - 8] = 0xD5
        _ = MotionPhotoXMP(parsing: bytes)
        var generator = SeededGenerator(seed: 0x7E57)
        let packet = Array(MotionPhotoFixtures.googleXMP(videoLength: 1234).utf8)
        for length in stride(from: 0, through: packet.count, by: 7) { _ = MotionPhotoXMP(parsing: Array(packet.prefix(length))) }
        for _ in 0..<2000 {
            var mutated = packet
            for _ in 0..<6 { mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            _ = MotionPhotoXMP(parsing: mutated)
        }
        XCTAssertEqual(MotionPhotoXMP(parsing: packet).claims(fileSize: 5000).map(\.extent), [.bytes(offset: 3766, length: 1234)])
    }
}
