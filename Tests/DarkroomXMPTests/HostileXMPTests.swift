import DarkroomTestSupport
import DarkroomXMP
import Foundation
import XCTest

/// Hostile packets: entity tricks expand nothing, deep nesting and invalid UTF-8 are reported
/// rather than crashing, huge values are read whole, random damage never traps.
final class HostileXMPTests: XCTestCase {
    func testEntityDeclarationsAreNeverExpanded() throws {
        let laughs = (1...9).map { level in
            "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }.joined(separator: "\n")
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [
              <!ENTITY lol0 "lol">
            \(laughs)
              <!ENTITY xxe SYSTEM "file:///etc/passwd">
            ]>
            """ + XMPSamples.wrap("<rdf:Description><dc:title>&lol9;</dc:title><dc:source>&xxe;</dc:source></rdf:Description>",
                                  namespaces: "")
        let packet = try XMPPacket(data: Data(text.utf8))
        XCTAssertEqual(packet[XMPNamespace.dc, "title"]?.text, "&lol9;", "an undeclared-by-XMP entity stays as written")
        XCTAssertEqual(packet[XMPNamespace.dc, "source"]?.text, "&xxe;", "no external entity is read")
    }

    func testDeepNestingIsRefused() {
        let depth = 100_000
        let text = XMPSamples.wrap("<rdf:Description>" + String(repeating: "<dc:a>", count: depth) + String(repeating: "</dc:a>", count: depth)
                                   + "</rdf:Description>", namespaces: "")
        XCTAssertThrowsError(try XMPPacket(data: Data(text.utf8))) { error in
            XCTAssertEqual((error as? XMPError)?.reason, "elements nested deeper than 64 levels")
        }
        XCTAssertEqual(XMPPacket(lenient: Array(text.utf8)).properties.count, 1, "lenient reading keeps the shallow part")
    }

    func testInvalidUTF8IsReplacedAndReported() throws {
        var bytes = Array(XMPSamples.wrap("<rdf:Description dc:format='image/jpeg' xmp:Label='R^d'/>", namespaces: "").utf8)
        bytes[try XCTUnwrap(bytes.firstIndex(of: UInt8(ascii: "^")))] = 0xC3  // a lead byte with no continuation
        let packet = try XMPPacket(data: Data(bytes))
        XCTAssertEqual(packet[XMPNamespace.xmp, "Label"]?.text, "R\u{FFFD}d")
        XCTAssertEqual(packet.repairs, ["bytes that are not UTF-8 were replaced with U+FFFD"])
        XCTAssertEqual(packet[XMPNamespace.dc, "format"]?.text, "image/jpeg")
    }

    func testHugeValueIsReadWhole() throws {
        let description = String(repeating: "long ", count: 200_000)
        let packet = try XMPPacket(data: Data(XMPSamples.wrap("<rdf:Description><dc:description>\(description)</dc:description></rdf:Description>",
                                                              namespaces: "").utf8))
        XCTAssertEqual(packet[XMPNamespace.dc, "description"]?.text?.utf8.count, 1_000_000)
        XCTAssertEqual(try XMPPacket(data: packet.serialized()), packet)
    }

    func testRandomDamageNeverTraps() throws {
        let original = Array(try Data(contentsOf: try Corpus.file("immich-test-assets/problems/xmp/iso-value-array/iso-value-array.xmp")))
        var generator = SeededGenerator(seed: 0x5EED)
        var readable = 0
        for round in 0..<500 {
            var bytes = original
            for _ in 0..<(1 + round % 3) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if round % 10 == 0 { bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator))) }
            _ = XMPPacket(lenient: bytes)
            if let packet = try? XMPPacket(data: Data(bytes)) {
                readable += 1
                XCTAssertNoThrow(try XMPPacket(data: packet.serialized()), "what was read can be written and read again")
            }
        }
        XCTAssertGreaterThan(readable, 50, "many damaged packets still read")
        XCTAssertLessThan(readable, 450, "and many do not")
        print("of 500 damaged packets, \(readable) still read")
    }
}
