import DarkroomExif
import DarkroomHEIF
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// The Live Photo identifier of iPhone stills (Apple maker note tag 0x0011).
final class LivePhotoIdentifierTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    /// Every corpus file carrying the tag, with the value `exiftool -MediaGroupUUID` prints.
    static let expected = [
        "metadata-extractor-images/heic/IMG_2927.HEIC": "1745E022-9712-43C7-B024-F308EC6413CB",
        "metadata-extractor-images/heic/exif-at-eof.heic": "1745E022-9712-43C7-B024-F308EC6413CB",
        "metadata-extractor-images/heic/IMG_2929.HEIC": "ED69AFC7-A2EB-4FE9-88A0-54293FC2478F",
        "metadata-extractor-images/heic/Issue 263 dotnet.heic": "0FD24349-014A-423D-AE8D-35FCE43A24E7",
        "exif-samples/heic/IMG_5195.HEIC": "570F1469-09C7-4E50-9875-05F21D5BD166",
        "elodie/elodie/tests/files/photo.heic": "76C3E45A-2CCC-498B-9C1A-29C3ADD99D39",
    ]

    private func tagsOfHEIC(_ path: String) throws -> ExifTags {
        let info = try HEIFInfo.read(try Corpus.file(path).path)
        return try ExifTags(parsing: try XCTUnwrap(info.exif, path))
    }

    func testIdentifiersOfRealIPhoneHEICs() throws {
        for (path, identifier) in Self.expected {
            XCTAssertEqual(try tagsOfHEIC(path).contentIdentifier, identifier, path)
        }
    }

    func testAppleStillsWithoutTheTagHaveNone() throws {
        XCTAssertNil(try tagsOfHEIC("metadata-extractor-images/heic/IMG_1034.heic").contentIdentifier, "iPhone 8, no Live Photo")
        XCTAssertNil(try tagsOfHEIC("immich-test-assets/formats/heic/IMG_2682.heic").contentIdentifier, "iPhone 7")
        for path in ["metadata-extractor-images/jpg/Issue 508.jpg", "metadata-extractor-images/jpg/Apple iPhone 5.jpg",
                     "exif-samples/jpg/hdr/iphone_hdr_YES.jpg"] {
            let exif = try XCTUnwrap(try Image.open(try Corpus.file(path).path).exifData, path)
            let tags = try ExifTags(parsing: exif)
            XCTAssertEqual(tags.make, "Apple", path)
            XCTAssertNil(tags.contentIdentifier, path)
        }
    }

    func testIPhoneJPEGThroughLibvips() throws {
        // The corpus has no iPhone JPEG with the tag: exiftool copies an iPhone's maker note into one.
        let folder = try TemporaryFolder("live-jpeg")
        let jpeg = folder.path("IMG_5195.JPG")
        _ = try MotionPhotoFixtures.still(jpeg)
        let source = try Corpus.file("exif-samples/heic/IMG_5195.HEIC")
        try MotionPhotoFixtures.exiftool(["-TagsFromFile", source.path, "-Make", "-Model", "-MakerNotes", jpeg.path])
        XCTAssertEqual(try MotionPhotoFixtures.exiftool(["-s3", "-MediaGroupUUID", jpeg.path]), "570F1469-09C7-4E50-9875-05F21D5BD166\n")
        let exif = try XCTUnwrap(try Image.open(jpeg.path).exifData)
        XCTAssertEqual(try ExifTags(parsing: exif).contentIdentifier, "570F1469-09C7-4E50-9875-05F21D5BD166")
    }

    func testHostileMakerNotesNeverCrash() throws {
        // The raw maker note as exiftool extracts it, so the test does not rely on the code it checks.
        let source = try Corpus.file("exif-samples/heic/IMG_5195.HEIC")
        let folder = try TemporaryFolder("makernote")
        let blockFile = folder.path("makernote.bin")
        try MotionPhotoFixtures.requireTool("exiftool")
        try Fixtures.run("sh", ["-c", "exiftool -b -MakerNotes \"$1\" > \"$2\"", "sh", source.path, blockFile.path])
        let makerNote = try Data(contentsOf: blockFile)
        XCTAssertEqual(AppleMakerNote(makerNote)?.contentIdentifier, "570F1469-09C7-4E50-9875-05F21D5BD166")
        // Every truncation: the header alone is not enough, and the value is read only when whole.
        for length in 0..<makerNote.count {
            let note = AppleMakerNote(makerNote.prefix(length))
            XCTAssertEqual(note == nil, length < 14, "length \(length)")
            if let identifier = note?.contentIdentifier { XCTAssertEqual(identifier, "570F1469-09C7-4E50-9875-05F21D5BD166") }
        }
        XCTAssertNil(AppleMakerNote(Data("Apple iOS\0\0\u{1}XX".utf8)), "no byte-order mark")
        XCTAssertNil(AppleMakerNote(Data("Nikon\0\0\0\0\0\0\0MM\0\0".utf8)))
        // Seeded random corruption of the IFD: any answer but a crash.
        var generator = SeededGenerator(seed: 0xA991E)
        var found = 0
        for _ in 0..<2000 {
            var bytes = [UInt8](makerNote)
            for _ in 0..<3 { bytes[Int.random(in: 14..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            if AppleMakerNote(Data(bytes))?.contentIdentifier != nil { found += 1 }
        }
        XCTAssertGreaterThan(found, 0, "most corruptions miss the identifier's entry and value")
    }
}
