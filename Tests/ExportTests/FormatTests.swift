import DarkroomTestSupport
import DarkroomVips
import DarkroomXMP
import Foundation
import XCTest

/// `--format original` (the bytes as imported and an XMP sidecar of what the library knows),
/// `--format heic` (the library's HEIC), and the `--names` choices.
final class FormatTests: XCTestCase {
    func testOriginalsWithTheirSidecarNeedKeepLocation() throws {
        let fixture = try ExportFixture("export-original")
        let photo = try fixture.photo("DCIM/IMG_0001.JPG", date: "2024:05:01 18:30:12", seed: 1)
        try fixture.sidecar(of: photo, rating: 4, keywords: ["beach", "family"], title: "Dune")
        try fixture.importRoll()
        let out = fixture.folder.path("out")

        let refused = try fixture.export(["--to", out.path, "--format", "original"])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.err.contains("--format original exports the originals' bytes, which hold where each photo was taken: add --keep-location"),
                      refused.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "nothing is made")

        let result = try fixture.export(["--to", out.path, "--format", "original", "--keep-location", "--names", "original"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(try ExportFixture.files(out), ["IMG_0001.jpg", "IMG_0001.jpg.xmp"])
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("IMG_0001.jpg")), try Data(contentsOf: photo), "the original's bytes")
        let sidecar = try XMPPacket(data: try Data(contentsOf: out.appendingPathComponent("IMG_0001.jpg.xmp")))
        XCTAssertEqual(sidecar[XMPNamespace.xmp, "Rating"]?.text, "4")
        XCTAssertEqual(sidecar[XMPNamespace.dc, "subject"]?.texts, ["beach", "family"])
        XCTAssertEqual(sidecar[XMPNamespace.dc, "title"]?.text, "Dune")
        XCTAssertEqual(sidecar[XMPNamespace.exif, "DateTimeOriginal"]?.text, "2024-05-01T18:30:12+02:00")
        XCTAssertEqual(sidecar[XMPNamespace.photoshop, "DateCreated"]?.text, "2024-05-01T18:30:12+02:00")
        XCTAssertEqual(sidecar["http://darkroom.invalid/ns/1.0/", "CaptureDateSource"]?.text, "exif:DateTimeOriginal")
        XCTAssertEqual(sidecar["http://darkroom.invalid/ns/1.0/", "ContentID"]?.text, try fixture.asset(photo).id.uuidString.lowercased())
        // exiftool reads the sidecar as Immich and PhotoPrism do.
        let tags = try ExportFixture.tags(out.appendingPathComponent("IMG_0001.jpg.xmp"))
        XCTAssertEqual(tags["XMP-xmp:Rating"], "4")
        XCTAssertEqual(tags["XMP-exif:DateTimeOriginal"], "2024:05:01 18:30:12+02:00")
    }

    func testHEICIsTheLibrarysOwnWithTheLocationKeptElseEncodedWithoutIt() throws {
        try Prerequisite.require(tool: "exiftool")
        let fixture = try ExportFixture("export-heic")
        let photo = try fixture.photo("IMG_0001.JPG", date: "2024:05:01 18:30:12", size: (900, 600), seed: 2)
        try fixture.importRoll()
        let heic = try fixture.libraryFile(photo)

        let kept = fixture.folder.path("kept")
        XCTAssertEqual(try fixture.export(["--to", kept.path, "--format", "heic", "--keep-location"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: kept.appendingPathComponent("2024-05-01 18.30.12.heic")), try Data(contentsOf: heic),
                       "the library's HEIC as it is")

        let shared = fixture.folder.path("shared")
        let result = try fixture.export(["--to", shared.path, "--format", "heic", "--size", "300"])
        XCTAssertEqual(result.status, 0, result.err)
        let file = shared.appendingPathComponent("2024-05-01 18.30.12.heic")
        XCTAssertEqual(try ExportFixture.locationTags(file), [:])
        let tags = try ExportFixture.tags(file)
        XCTAssertEqual(tags["File:FileType"], "HEIC")
        XCTAssertEqual(tags["ExifIFD:DateTimeOriginal"], "2024:05:01 18:30:12")
        let image = try Image.open(file.path)
        XCTAssertEqual([image.width, image.height], [300, 200])
    }

    func testSequenceNamesFollowCaptureOrderAndContinue() throws {
        let fixture = try ExportFixture("export-sequence")
        try fixture.photo("b.jpg", date: "2024:05:02 10:00:00", seed: 3)
        try fixture.photo("a.jpg", date: "2024:05:01 10:00:00", seed: 4)
        try fixture.importRoll()
        let out = fixture.folder.path("out")
        XCTAssertEqual(try fixture.export(["--to", out.path, "--names", "sequence", "--month", "2024-05"]).status, 0)
        XCTAssertEqual(try ExportFixture.files(out), ["0001.jpg", "0002.jpg"])
        XCTAssertEqual(try ExportFixture.tags(out.appendingPathComponent("0001.jpg"))["ExifIFD:DateTimeOriginal"], "2024:05:01 10:00:00")

        try fixture.photo("c.jpg", date: "2024:04:30 10:00:00", seed: 5)
        try fixture.importRoll()
        let result = try fixture.export(["--to", out.path, "--names", "sequence"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.hasPrefix("3 selected: 1 exported, 2 already exported"), result.out)
        XCTAssertEqual(try ExportFixture.files(out), ["0001.jpg", "0002.jpg", "0003.jpg"], "a new photo takes the next free number")
        XCTAssertEqual(try ExportFixture.tags(out.appendingPathComponent("0003.jpg"))["ExifIFD:DateTimeOriginal"], "2024:04:30 10:00:00")
    }
}
