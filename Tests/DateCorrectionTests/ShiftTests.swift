import DarkroomCatalog
import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// `--shift` with `--camera` and `--folder`: exactly the selected photos move, by exactly the shift.
final class ShiftTests: XCTestCase {
    func testAShiftAppliesToExactlyTheSelectedPhotosByExactlyTheShift() throws {
        let fixture = try LibraryFixture("set-date-shift")
        let lateNight = try fixture.photo("card1/a.jpg", date: "2024:05:31 23:00:00", seed: 11)
        let morning = try fixture.photo("card1/b.jpg", date: "2024:05:10 10:00:00", seed: 12)
        let otherCard = try fixture.photo("card2/c.jpg", date: "2024:05:11 10:00:00", seed: 13)
        let phone = try fixture.photo("card1/d.jpg", date: "2024:05:31 23:30:00", camera: ("Google", "Pixel 8"), seed: 14)
        XCTAssertEqual(try fixture.run().failures, [])
        func dates() throws -> [String] {
            try [lateNight, morning, otherCard, phone].map { original in
                let date = try XCTUnwrap(try fixture.asset(original).captureDate)
                return "\(date.local) \(date.source.rawValue)"
            }
        }

        // The Canon of card 1 was 1 h 30 min slow: its two photos move, not card 2's Canon nor card 1's Pixel.
        var result = try fixture.setDate(["--shift", "+1h30m", "--camera", "canon eos 5d", "--folder", "roll/card1"])
        XCTAssertEqual(result.status, 0, result.err + result.out)
        XCTAssertEqual(try dates(), ["2024-06-01T00:30:00 user", "2024-05-10T11:30:00 user",
                                     "2024-05-11T10:00:00 exif:DateTimeOriginal", "2024-05-31T23:30:00 exif:DateTimeOriginal"])
        XCTAssertEqual(try fixture.outputs(of: lateNight), try fixture.expectedOutputs(of: lateNight, month: "2024/06"),
                       "past midnight at the month's end: the files move to June")
        for original in [morning, otherCard, phone] {
            XCTAssertEqual(try fixture.outputs(of: original), try fixture.expectedOutputs(of: original, month: "2024/05"))
        }
        XCTAssertTrue(result.out.hasSuffix("2 photos re-dated, 0 already so, 0 failed; 2 files moved\n"), result.out)

        // The same shift for every photo of that camera: card 1's are already shifted (not twice), card 2's moves.
        result = try fixture.setDate(["--shift", "+1h30m", "--camera", "Canon EOS 5D"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.hasSuffix("1 photo re-dated, 2 already so, 0 failed; 0 files moved\n"), result.out)
        XCTAssertEqual(try dates(), ["2024-06-01T00:30:00 user", "2024-05-10T11:30:00 user",
                                     "2024-05-11T11:30:00 user", "2024-05-31T23:30:00 exif:DateTimeOriginal"])

        // A shift starts from the date the files gave, not from an earlier correction.
        result = try fixture.setDate(["--shift", "-2d", "--folder", fixture.roll.appendingPathComponent("card1").path + "/"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(try dates(), ["2024-05-29T23:00:00 user", "2024-05-08T10:00:00 user",
                                     "2024-05-11T11:30:00 user", "2024-05-29T23:30:00 user"])
        for original in [lateNight, morning, otherCard, phone] {
            XCTAssertEqual(try fixture.outputs(of: original), try fixture.expectedOutputs(of: original, month: "2024/05"))
            XCTAssertEqual(try fixture.asset(original).captureDate?.utcOffsetSeconds, 7200, "the offset stays")
        }
        XCTAssertTrue(try fixture.catalog.verify(library: fixture.library).isClean)
    }

    func testSelectorsThatPickNothingAreReported() throws {
        let fixture = try LibraryFixture("set-date-selectors")
        try fixture.photo("card1/a.jpg", date: "2024:05:31 23:00:00", seed: 15)
        XCTAssertEqual(try fixture.run().failures, [])
        let result = try fixture.setDate(["--shift", "+1h", "--camera", "Nikon D70", "--folder", "roll/card9"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.out, """
            failed: --camera Nikon D70: no photo in the catalog was taken with this camera
            failed: --folder roll/card9: no photo in the catalog was imported from under this folder
            0 photos re-dated, 0 already so, 2 failed; 0 files moved

            """)
    }
}
