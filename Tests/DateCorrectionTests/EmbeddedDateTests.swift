import DarkroomCatalog
import DarkroomCore
import DarkroomModel
import DarkroomPhotoMetadata
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// Issue 26 item 2: after `set-date`, the library's HEIC carries the date the catalog holds (EXIF
/// and XMP), rewritten without re-encoding, through the publisher; where the file does not move,
/// it is rewritten where it is, and a correction killed after that converges when run again.
final class EmbeddedDateTests: XCTestCase {
    static let dateTags = ["-EXIF:DateTimeOriginal", "-EXIF:OffsetTimeOriginal", "-XMP-exif:DateTimeOriginal", "-XMP-xmp:CreateDate",
                           "-XMP-photoshop:DateCreated"]

    /// exiftool's `-s -s` reading of the date tags (the XMP ones prefixed `XMP-`), and its warnings.
    func dates(_ url: URL) throws -> [String] {
        try Fixtures.run("exiftool", ["-s", "-s", "-G0", "-a", "-warning"] + Self.dateTags + [url.path])
            .split(separator: "\n").map { $0.replacingOccurrences(of: "[", with: "").replacingOccurrences(of: "]", with: "") }
    }

    func testTheMovedHEICCarriesTheNewDateAndKeepsItsPixels() throws {
        let fixture = try LibraryFixture("embedded-date-move")
        let photo = try fixture.photo("DCIM/IMG_0001.JPG", date: "2024:05:03 12:30:00", seed: 41)
        XCTAssertEqual(try fixture.run().failures, [])
        let old = fixture.library.appendingPathComponent(try fixture.expectedOutputs(of: photo, month: "2024/05")[0])
        XCTAssertEqual(try dates(old), ["EXIF DateTimeOriginal: 2024:05:03 12:30:00", "EXIF OffsetTimeOriginal: +02:00",
                                        "XMP DateTimeOriginal: 2024:05:03 12:30:00+02:00", "XMP CreateDate: 2024:05:03 12:30:00+02:00",
                                        "XMP DateCreated: 2024:05:03 12:30:00+02:00"])
        let pixels = try Image.open(old.path).pixelBytes()

        let result = try fixture.setDate([photo.path, "2020-05-01T10:00"])
        XCTAssertEqual(result.status, 0, result.err + result.out)
        let moved = fixture.library.appendingPathComponent(try fixture.expectedOutputs(of: photo, month: "2020/05")[0])
        XCTAssertEqual(try dates(moved), ["EXIF DateTimeOriginal: 2020:05:01 10:00:00", "EXIF OffsetTimeOriginal: +02:00",
                                          "XMP DateTimeOriginal: 2020:05:01 10:00:00+02:00", "XMP CreateDate: 2020:05:01 10:00:00+02:00",
                                          "XMP DateCreated: 2020:05:01 10:00:00+02:00"])
        XCTAssertEqual(try Image.open(moved.path).pixelBytes(), pixels, "libheif decodes the same pixels: nothing was re-encoded")
        XCTAssertEqual(try Fixtures.run("exiftool", ["-s", "-s", "-s", "-Make", "-Model", moved.path]), "Canon\nCanon EOS 5D\n",
                       "the rest of the EXIF is kept")
        let drift = try fixture.catalog.verify(library: fixture.library)
        XCTAssertTrue(drift.isClean, drift.text)
    }

    /// A clock an hour and a half slow: the files stay in May, and the HEIC's dates are rewritten
    /// where it is (the dry run says so first, changing nothing).
    func testAShiftWithinTheMonthRewritesTheHEICWhereItIs() throws {
        let fixture = try LibraryFixture("embedded-date-in-place")
        let photo = try fixture.photo("a.jpg", date: "2024:05:03 12:30:00", seed: 42)
        XCTAssertEqual(try fixture.run().failures, [])
        let paths = try fixture.expectedOutputs(of: photo, month: "2024/05")
        let heic = fixture.library.appendingPathComponent(paths[0])
        let before = try Data(contentsOf: heic)

        let dryRun = try fixture.setDate(["--shift", "+1h30m", photo.path, "--dry-run"])
        XCTAssertEqual(dryRun.out, """
            \(photo.path): 2024-05-03T12:30:00+02:00 (exif:DateTimeOriginal) -> 2024-05-03T14:00:00+02:00
              \(paths[0]): its date set inside the file
            dry run: 1 photo to re-date, 0 already so, 0 failed; 0 files to move

            """)
        XCTAssertEqual(try Data(contentsOf: heic), before)

        let result = try fixture.setDate(["--shift", "+1h30m", photo.path])
        XCTAssertEqual(result.status, 0, result.err + result.out)
        XCTAssertEqual(try fixture.outputs(of: photo), paths)
        XCTAssertEqual(try dates(heic), ["EXIF DateTimeOriginal: 2024:05:03 14:00:00", "EXIF OffsetTimeOriginal: +02:00",
                                         "XMP DateTimeOriginal: 2024:05:03 14:00:00+02:00", "XMP CreateDate: 2024:05:03 14:00:00+02:00",
                                         "XMP DateCreated: 2024:05:03 14:00:00+02:00"])
        let drift = try fixture.catalog.verify(library: fixture.library)
        XCTAssertTrue(drift.isClean, drift.text)
        XCTAssertEqual(try fixture.libraryFiles(), paths)
    }

    /// Killed after the rewritten HEIC replaced the old one and before the catalog recorded it: the
    /// catalog still has the old SHA-256, and the next correction takes the file as rewritten.
    func testACorrectionKilledAfterRewritingInPlaceConverges() throws {
        let fixture = try LibraryFixture("embedded-date-killed")
        let photo = try fixture.photo("a.jpg", date: "2024:05:03 12:30:00", seed: 43)
        XCTAssertEqual(try fixture.run().failures, [])
        let path = try fixture.expectedOutputs(of: photo, month: "2024/05")[0]
        let heic = fixture.library.appendingPathComponent(path)
        let date = CaptureDate(local: LocalDateTime(year: 2024, month: 5, day: 3, hour: 18)!, utcOffsetSeconds: 7200, source: .user,
                               timeZoneSource: .metadata, confidence: .high)
        let rewritten = try LibraryFileDates.rewriting([UInt8](try Data(contentsOf: heic)), path: path, to: date)
        try Data(rewritten).write(to: heic)
        XCTAssertEqual(try fixture.catalog.verify(library: fixture.library).changed.count, 1, "the state the kill left")

        let result = try fixture.setDate([photo.path, "2024-05-03T18:00"])
        XCTAssertEqual(result.status, 0, result.err + result.out)
        XCTAssertEqual([UInt8](try Data(contentsOf: heic)), rewritten, "rewriting the date it carries changes nothing")
        let drift = try fixture.catalog.verify(library: fixture.library)
        XCTAssertTrue(drift.isClean, drift.text)
        XCTAssertEqual(try fixture.asset(photo).captureDate?.stamp, "2024-05-03T18:00:00+02:00")
    }
}
