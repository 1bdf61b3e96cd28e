import DarkroomExif
import DarkroomSimilarity
import DarkroomTestSupport
import DarkroomVips
import DarkroomXMP
import Foundation
import XCTest

/// The burst marks cameras write: Apple's maker-note burst identifier, Google Camera's XMP.
final class CameraBurstMarksTests: XCTestCase {
    static let burst = "6A3F2C91-0E53-4C4B-9B57-1A1D2E3F4A5B"
    static let livePhoto = "570F1469-09C7-4E50-9875-05F21D5BD166"

    /// An iPhone-style maker note (big-endian): tag 0x0001 (an integer), 0x000B BurstUUID and
    /// 0x0011 MediaGroupUUID, the strings stored after the IFD, offsets from the note's start.
    static func appleMakerNote() -> Data {
        let strings = [burst, livePhoto].map { Array($0.utf8) + [0] }
        var note = Array("Apple iOS\0".utf8) + [0, 1] + Array("MM".utf8)
        let big = { (value: Int, bytes: Int) in (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        note += big(3, 2)
        var dataOffset = note.count + 3 * 12 + 4
        note += big(0x0001, 2) + big(9, 2) + big(1, 4) + big(12, 4)
        for (tag, string) in zip([0x000B, 0x0011], strings) {
            note += big(tag, 2) + big(2, 2) + big(string.count, 4) + big(dataOffset, 4)
            dataOffset += string.count
        }
        note += big(0, 4)
        return Data(note + strings.flatMap { $0 })
    }

    func testAppleBurstIdentifierFromTheMakerNote() throws {
        let note = try XCTUnwrap(AppleMakerNote(Self.appleMakerNote()))
        XCTAssertEqual(note.burstIdentifier, Self.burst)
        XCTAssertEqual(note.contentIdentifier, Self.livePhoto)
    }

    func testAppleBurstIdentifierThroughAJPEGAndLibvips() throws {
        // exiftool, an independent reader, writes the maker note into a JPEG and reads it back.
        try Prerequisite.require(tool: "exiftool")
        try Prerequisite.require(tool: "vips")
        let folder = try TemporaryFolder("apple-burst")
        let (jpeg, noteFile) = (folder.path("IMG_0001.JPG"), folder.path("makernote.bin"))
        try Self.appleMakerNote().write(to: noteFile)
        try Fixtures.run("vips", ["black", jpeg.path, "64", "48"])
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-Make=Apple", "-Model=iPhone 15", "-MakerNotes<=\(noteFile.path)", jpeg.path])
        XCTAssertEqual(try Fixtures.run("exiftool", ["-s3", "-BurstUUID", jpeg.path]), Self.burst + "\n")
        try Vips.start()
        let tags = try ExifTags(parsing: try XCTUnwrap(try Image.open(jpeg.path).exifData))
        XCTAssertEqual(tags.burstIdentifier, Self.burst)
        XCTAssertEqual(tags.contentIdentifier, Self.livePhoto)
    }

    func testAnIPhoneStillOutsideABurstHasNoBurstIdentifier() throws {
        // A real iPhone 11 Pro Max maker note (a Live Photo, not a burst), as exiftool extracts it.
        try Prerequisite.require(tool: "exiftool")
        let source = try Corpus.file("exif-samples/heic/IMG_5195.HEIC")
        let folder = try TemporaryFolder("apple-still")
        let noteFile = folder.path("makernote.bin")
        try Fixtures.run("sh", ["-c", "exiftool -b -MakerNotes \"$1\" > \"$2\"", "sh", source.path, noteFile.path])
        let note = try XCTUnwrap(AppleMakerNote(try Data(contentsOf: noteFile)))
        XCTAssertEqual(note.contentIdentifier, Self.livePhoto)
        XCTAssertNil(note.burstIdentifier)
    }

    func testGoogleBurstIDAndPrimaryAsAttributes() throws {
        // As Google Camera writes them (nextcloud/photos issue 298 shows the exiftool view).
        let packet = try XMPPacket(data: Data("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
              GCamera:BurstID="b9b16484-0edd-4836-b95b-9230a77d2139" GCamera:BurstPrimary="1"/>
            </rdf:RDF></x:xmpmeta>
            """.utf8))
        let marks = try XCTUnwrap(MakerBurstID.google(in: packet))
        XCTAssertEqual(marks.id, MakerBurstID(source: .google, value: "b9b16484-0edd-4836-b95b-9230a77d2139"))
        XCTAssertTrue(marks.isPrimary)
    }

    func testGoogleBurstIDAsElementUnderAnotherPrefixWithoutPrimary() throws {
        let packet = try XMPPacket(data: Data("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:cam="http://ns.google.com/photos/1.0/camera/">
            <cam:BurstID>frame-set-7</cam:BurstID></rdf:Description></rdf:RDF></x:xmpmeta>
            """.utf8))
        let marks = try XCTUnwrap(MakerBurstID.google(in: packet))
        XCTAssertEqual(marks.id.value, "frame-set-7")
        XCTAssertFalse(marks.isPrimary)
        XCTAssertNil(MakerBurstID.google(in: XMPPacket()))
    }
}
