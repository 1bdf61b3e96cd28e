import DarkroomModel
import DarkroomTestSupport
import Foundation
import XCTest

/// The content hash is SHA-256 in lower-case hex, the same text `sha256sum` prints: a library's
/// catalog, its `{id}`s and every unit key are made of it.
final class ContentHashTests: XCTestCase {
    func testHashesAreSHA256InLowerCaseHex() throws {
        XCTAssertEqual(ContentHash.of("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(ContentHash.of(Data()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let folder = try TemporaryFolder("content-hash")
        let file = folder.path("bytes.bin")
        try Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: file)
        let printed = try Fixtures.run("sha256sum", [file.path]).prefix(64)
        XCTAssertEqual(try ContentHash.ofFile(file), String(printed))
    }

    /// A collection's key is hashed a photo at a time: the same key as of the whole text, so that
    /// the collections a library holds stay current when the build that keys them changes.
    func testHashingPiecesOneAfterAnotherIsHashingTheirText() {
        XCTAssertEqual(ContentHash.of("abc", then: []), ContentHash.of("abc"))
        XCTAssertEqual(ContentHash.of("step|options|", then: ["a1@2024-03-01T10:00:00", ",b2@-", ",c3@-~pick"]),
                       ContentHash.of("step|options|a1@2024-03-01T10:00:00,b2@-,c3@-~pick"))
    }
}
