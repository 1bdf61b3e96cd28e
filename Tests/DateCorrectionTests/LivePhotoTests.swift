import DarkroomCatalog
import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest
import DarkroomModel

/// A Live Photo's MOV is filed under its still's id and date: it moves with the still.
final class LivePhotoTests: XCTestCase {
    /// A real iPhone still (its maker note carries the Live Photo id), taken 2020-05-04 18:39:11 -04:00.
    static let stillPath = "metadata-extractor-images/heic/IMG_2927.HEIC"
    static let identifier = "1745E022-9712-43C7-B024-F308EC6413CB"

    func testTheMOVMovesWithItsStillAndTheNextImportHasNothingToDo() throws {
        let fixture = try LibraryFixture("set-date-live-photo", pipeline: """
            inputs:
              include: ["**/*.{heic,mov}"]
            steps:
              - exif-date
              - resize: { long-edge: 320 }
              - heic-encode: { quality: 30, preset: ultrafast, output: "Photos/{yyyy}/{MM}/{id}.heic" }
              - motion-video: { output: "Photos/{yyyy}/{MM}/{id}.{ext}" }
              - thumbnail: { size: 64, output: "Thumbnails/{yyyy}/{MM}/{id}.jpg" }
            """)
        let still = fixture.roll.appendingPathComponent("IMG_2927.HEIC")
        try FileManager.default.copyItem(at: try Corpus.file(Self.stillPath), to: still)
        let mov = fixture.roll.appendingPathComponent("IMG_2927.MOV")
        try Fixtures.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=1", "-c:v", "libx264",
                                    "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-movflags", "use_metadata_tags",
                                    "-metadata", "com.apple.quicktime.content.identifier=\(Self.identifier)",
                                    "-metadata", "com.apple.quicktime.creationdate=2020-05-04T18:39:09-0400", "-f", "mov", mov.path])
        XCTAssertEqual(try fixture.run().failures, [])
        let id = try fixture.asset(still).id.uuidString.lowercased()
        let movBytes = try ContentHash.ofFile(mov)
        let files = { (month: String) in ["Photos/\(month)/\(id).heic", "Photos/\(month)/\(id).mov", "Thumbnails/\(month)/\(id).jpg"] }
        XCTAssertEqual(try fixture.libraryFiles(), files("2020/05"))

        // Named by the MOV, the correction is the still's.
        let result = try fixture.setDate([mov.path, "2019-06-15T12:00"])
        XCTAssertEqual(result.status, 0, result.err + result.out)
        XCTAssertTrue(result.out.contains("  with its Live Photo video \(mov.path)\n"), result.out)
        XCTAssertEqual(try fixture.libraryFiles(), files("2019/06"))
        XCTAssertEqual(try ContentHash.ofFile(fixture.library.appendingPathComponent("Photos/2019/06/\(id).mov")), movBytes)
        XCTAssertEqual(try fixture.asset(still).captureDate?.stamp, "2019-06-15T12:00:00-04:00", "the still's own offset kept")
        XCTAssertEqual(try fixture.asset(mov).captureDate, try fixture.asset(still).captureDate, "the MOV carries its still's date")
        XCTAssertTrue(try fixture.catalog.verify(library: fixture.library).isClean)

        let again = try fixture.run()
        XCTAssertEqual(again.failures, [])
        XCTAssertEqual([again.processed, again.published.count], [0, 0], "the MOV's units were recorded for the new date")
        XCTAssertEqual(try fixture.libraryFiles(), files("2019/06"))
    }
}
