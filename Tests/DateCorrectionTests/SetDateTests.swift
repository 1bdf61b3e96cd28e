import DarkroomCatalog
import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// `darkroom catalog set-date` as a user runs it: the files move, the date sticks, nothing is lost.
final class SetDateTests: XCTestCase {
    func testMovesThePhotosFilesAndLaterImportsKeepTheDate() throws {
        let fixture = try LibraryFixture("set-date-moves")
        let wrong = try fixture.photo("DCIM/IMG_0001.JPG", date: "2024:05:03 12:30:00", seed: 1)
        let other = try fixture.photo("DCIM/IMG_0002.JPG", date: "2024:05:04 08:00:00", seed: 2)
        XCTAssertEqual(try fixture.run().failures, [])
        let originals = try fixture.rollHashes()
        let before = try fixture.expectedOutputs(of: wrong, month: "2024/05")
        XCTAssertEqual(try fixture.outputs(of: wrong), before)

        let result = try fixture.setDate([wrong.path, "2019-06-15T12:00"])
        XCTAssertEqual(result.status, 0, result.err + result.out)
        let after = try fixture.expectedOutputs(of: wrong, month: "2019/06")
        XCTAssertEqual(result.out, """
            \(wrong.path): 2024-05-03T12:30:00+02:00 (exif:DateTimeOriginal) -> 2019-06-15T12:00:00+02:00
              \(before[0]) -> \(after[0])
              \(before[1]) -> \(after[1])
            1 photo re-dated, 0 already so, 0 failed; 2 files moved

            """)
        XCTAssertEqual(try fixture.outputs(of: wrong), after)
        XCTAssertEqual(try fixture.libraryFiles(), try (after + fixture.expectedOutputs(of: other, month: "2024/05")).sorted(),
                       "the old files are gone, nothing else appeared")
        let date = try XCTUnwrap(try fixture.asset(wrong).captureDate)
        XCTAssertEqual(date.description, "2019-06-15T12:00:00+02:00 (user, tz: metadata; overrides 2024-05-03T12:30:00+02:00 from exif:DateTimeOriginal)")
        XCTAssertEqual(try fixture.asset(other).captureDate?.source, .exifOriginal, "the other photo is untouched")
        let drift = try fixture.catalog.verify(library: fixture.library)
        XCTAssertTrue(drift.isClean, drift.text)
        XCTAssertEqual(drift.checked, 4)
        XCTAssertEqual(try fixture.command.run(["catalog", "verify", "--library", fixture.library.path]).status, 0)

        // A re-import skips the photo and moves nothing back; a forced one re-reads its EXIF and keeps the user's date.
        let again = try fixture.run()
        XCTAssertEqual([again.processed, again.skipped, again.published.count], [0, 2, 0])
        let forced = try fixture.run(force: true)
        XCTAssertEqual(forced.failures, [])
        XCTAssertEqual(forced.processed, 2)
        XCTAssertEqual(Set(forced.published), Set(try after + fixture.expectedOutputs(of: other, month: "2024/05")))
        XCTAssertEqual(try fixture.asset(wrong).captureDate, date, "exif-date ran again and kept the user's date")
        XCTAssertEqual(try fixture.outputs(of: wrong), after)
        XCTAssertTrue(try fixture.catalog.verify(library: fixture.library).isClean)
        XCTAssertEqual(try fixture.rollHashes(), originals, "originals are never modified")
    }

    func testByIdOrLibraryPathAndAgainChangesNothing() throws {
        let fixture = try LibraryFixture("set-date-targets")
        let first = try fixture.photo("a.jpg", date: "2024:05:03 12:30:00", seed: 3)
        let second = try fixture.photo("b.jpg", date: "2024:05:04 12:30:00", seed: 4)
        XCTAssertEqual(try fixture.run().failures, [])
        let id = try fixture.asset(first).id.uuidString.lowercased()
        let thumbnail = try fixture.outputs(of: second)[1]

        var result = try fixture.setDate([id, thumbnail, "2019-12-31T23:59:59-05:00"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(try fixture.outputs(of: first), try fixture.expectedOutputs(of: first, month: "2019/12"))
        XCTAssertEqual(try fixture.outputs(of: second), try fixture.expectedOutputs(of: second, month: "2019/12"))
        XCTAssertEqual(try fixture.asset(second).captureDate?.stamp, "2019-12-31T23:59:59-05:00", "the offset given replaces the photo's")
        XCTAssertEqual(try fixture.asset(second).captureDate?.timeZoneSource, .user)

        result = try fixture.setDate([id, thumbnail.replacingOccurrences(of: "2024/05", with: "2019/12"), "2019-12-31T23:59:59-05:00"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.hasSuffix("0 photos re-dated, 2 already so, 0 failed; 0 files moved\n"), result.out)
        XCTAssertTrue(try fixture.catalog.verify(library: fixture.library).isClean)
    }

    func testDryRunListsTheMovesAndChangesNothing() throws {
        let fixture = try LibraryFixture("set-date-dry-run")
        let photo = try fixture.photo("a.jpg", date: "2024:05:03 12:30:00", seed: 5)
        XCTAssertEqual(try fixture.run().failures, [])
        let files = try fixture.libraryFiles()
        let catalogBytes = try Data(contentsOf: fixture.library.appendingPathComponent(".darkroom/catalog.sqlite"))
        let result = try fixture.setDate([photo.path, "2019-06-15T12:00", "--dry-run"])
        XCTAssertEqual(result.status, 0, result.err)
        let before = try fixture.expectedOutputs(of: photo, month: "2024/05"), after = try fixture.expectedOutputs(of: photo, month: "2019/06")
        XCTAssertTrue(result.out.contains("  \(before[0]) -> \(after[0])\n"), result.out)
        XCTAssertTrue(result.out.hasSuffix("dry run: 1 photo to re-date, 0 already so, 0 failed; 2 files to move\n"), result.out)
        XCTAssertEqual(try fixture.libraryFiles(), files)
        XCTAssertEqual(try Data(contentsOf: fixture.library.appendingPathComponent(".darkroom/catalog.sqlite")), catalogBytes)
        XCTAssertEqual(try fixture.asset(photo).captureDate?.source, .exifOriginal)
    }

    func testUnknownTargetsFailTheRestGoesOnAndArgumentMistakesExit2() throws {
        let fixture = try LibraryFixture("set-date-failures")
        let photo = try fixture.photo("a.jpg", date: "2024:05:03 12:30:00", seed: 6)
        XCTAssertEqual(try fixture.run().failures, [])
        let stranger = fixture.folder.path("stranger.jpg")
        try Fixtures.photo(stranger, width: 64, height: 64, seed: 99)

        var result = try fixture.setDate(["0f8fad5b-d9cb-469f-a165-70867728950e", stranger.path, photo.path, "2019-06-15T12:00"])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertTrue(result.out.contains("failed: 0f8fad5b-d9cb-469f-a165-70867728950e: unknown id: no photo in the catalog has it\n"), result.out)
        XCTAssertTrue(result.out.contains("failed: \(stranger.path): no photo in the catalog has this file's content (it was never imported)\n"), result.out)
        XCTAssertEqual(try fixture.outputs(of: photo), try fixture.expectedOutputs(of: photo, month: "2019/06"), "the named photo was corrected")

        let mistakes: [([String], String)] = [
            ([photo.path, "2019-02-30T12:00"], "'2019-02-30T12:00' is not a real date and time"),
            ([photo.path, "--shift", "+1x"], "--shift: expected a shift such as +1h"),
            ([photo.path, "--shift", "+0h"], "--shift: a shift of zero changes nothing"),
            (["2019-06-15T12:00"], "name the photos to correct"),
            (["--shift", "-45m"], "name the photos to correct"),
        ]
        for (arguments, message) in mistakes {
            result = try fixture.setDate(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.err)")
            XCTAssertTrue(result.err.contains(message), "\(arguments): \(result.err)")
        }
        XCTAssertEqual(try fixture.asset(photo).captureDate?.stamp, "2019-06-15T12:00:00+02:00", "no mistake changed anything")
    }

    func testAMissingPipelineFileIsNamedAndNothingChangesUntilItIsGiven() throws {
        let fixture = try LibraryFixture("set-date-pipeline")
        let photo = try fixture.photo("a.jpg", date: "2024:05:03 12:30:00", seed: 7)
        XCTAssertEqual(try fixture.run().failures, [])
        let moved = fixture.folder.path("elsewhere/import.yaml")
        try FileManager.default.createDirectory(at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: fixture.pipelineFile, to: moved)

        var result = try fixture.setDate([photo.path, "2019-06-15T12:00"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("the pipeline file \(fixture.pipelineFile.path) (which made Photos/2024/05/"), result.err)
        XCTAssertTrue(result.err.contains("is missing; give it with --pipeline"), result.err)
        XCTAssertEqual(try fixture.asset(photo).captureDate?.source, .exifOriginal)
        XCTAssertEqual(try fixture.outputs(of: photo), try fixture.expectedOutputs(of: photo, month: "2024/05"))

        result = try fixture.setDate([photo.path, "2019-06-15T12:00", "--pipeline", moved.path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(try fixture.outputs(of: photo), try fixture.expectedOutputs(of: photo, month: "2019/06"))
    }
}
