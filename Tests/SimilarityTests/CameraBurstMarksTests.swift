import DarkroomExif
import DarkroomModel
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

    /// An iPhone-style maker note with `burst` and `livePhoto`.
    static func appleMakerNote() -> Data { AppleMakerNoteFixture.bytes(burst: burst, contentIdentifier: livePhoto) }

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
        let mark = try XCTUnwrap(BurstMark.google(in: packet))
        XCTAssertEqual(mark, BurstMark(source: .google, identifier: "b9b16484-0edd-4836-b95b-9230a77d2139", isPrimary: true))
    }

    func testGoogleBurstIDAsElementUnderAnotherPrefixWithoutPrimary() throws {
        let packet = try XMPPacket(data: Data("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:cam="http://ns.google.com/photos/1.0/camera/">
            <cam:BurstID>frame-set-7</cam:BurstID></rdf:Description></rdf:RDF></x:xmpmeta>
            """.utf8))
        let mark = try XCTUnwrap(BurstMark.google(in: packet))
        XCTAssertEqual(mark, BurstMark(source: .google, identifier: "frame-set-7", isPrimary: false))
        XCTAssertNil(BurstMark.google(in: XMPPacket()))
    }

    func testGoogleBurstMarkFromAPhotosXMPBytes() {
        let xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
              GCamera:BurstID="burst-42" GCamera:BurstPrimary="0"/>
            </rdf:RDF></x:xmpmeta>
            """
        XCTAssertEqual(BurstMark.google(inXMP: Array(xmp.utf8)), BurstMark(source: .google, identifier: "burst-42", isPrimary: false))
        let motionOnly = xmp.replacingOccurrences(of: "GCamera:BurstID=\"burst-42\" GCamera:BurstPrimary=\"0\"", with: "GCamera:MotionPhoto=\"1\"")
        XCTAssertNil(BurstMark.google(inXMP: Array(motionOnly.utf8)), "no BurstID")
        XCTAssertNil(BurstMark.google(inXMP: Array(xmp.utf8.prefix(40))), "cut before the mark")
        XCTAssertNil(BurstMark.google(inXMP: []))
    }
}
