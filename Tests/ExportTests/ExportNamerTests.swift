@testable import DarkroomExport
import DarkroomLibrary
import DarkroomModel
import Foundation
import XCTest

/// Names of exported files: by capture time, by the original's name, by sequence; collisions.
final class ExportNamerTests: XCTestCase {
    private func asset(_ path: String, _ local: LocalDateTime?) -> AssetFacts {
        AssetFacts(contentHash: ContentHash.of(path), id: UUID(), originalPath: path, fileSize: 1,
                   captureDate: local.map { CaptureDate(local: $0, utcOffsetSeconds: 7200, source: .exifOriginal, timeZoneSource: .metadata,
                                                        confidence: .high) },
                   width: 10, height: 10, orientation: 1, camera: nil)
    }

    func testDateNamesCountCollisionsAndAvoidTakenNamesIgnoringCase() {
        let time = LocalDateTime(year: 2024, month: 5, day: 1, hour: 18, minute: 30, second: 12)
        var namer = ExportNamer(naming: .date, taken: ["2024-05-01 18.30.12-2.JPG"], count: 3)
        XCTAssertEqual(namer.name(for: asset("/a/IMG_1.JPG", time), extensions: ["jpg"]), "2024-05-01 18.30.12")
        XCTAssertEqual(namer.name(for: asset("/a/IMG_2.JPG", time), extensions: ["jpg"]), "2024-05-01 18.30.12-3",
                       "-2 is taken by a file already there (FAT compares names ignoring case)")
        XCTAssertEqual(namer.name(for: asset("/a/IMG 3.PNG", nil), extensions: ["jpg"]), "IMG 3", "undated: the original's name")
    }

    func testOriginalNamesAreMadeSafeAndSequencesSkipTakenNumbers() {
        var namer = ExportNamer(naming: .original, taken: [], count: 2)
        XCTAssertEqual(namer.name(for: asset("/a/..evil:name\u{1b}.jpg", nil), extensions: ["jpg", "jpg.xmp"]), "evil_name_")
        XCTAssertEqual(namer.name(for: asset("/b/..evil:name\u{1b}.heic", nil), extensions: ["jpg", "jpg.xmp"]), "evil_name_-2")
        var sequence = ExportNamer(naming: .sequence, taken: ["0001.jpg"], count: 12_000)
        XCTAssertEqual(sequence.name(for: asset("/a/x.jpg", nil), extensions: ["jpg"]), "00002", "five digits for 12,000 photos")
        XCTAssertEqual(sequence.name(for: asset("/a/y.jpg", nil), extensions: ["jpg"]), "00003")
    }

    func testAPhotoExportedAgainKeepsItsNameWhenFree() {
        var namer = ExportNamer(naming: .date, taken: ["2024-05-01 18.30.12.jpg"], count: 1)
        let time = LocalDateTime(year: 2024, month: 5, day: 1, hour: 18, minute: 30, second: 12)
        XCTAssertEqual(namer.name(for: asset("/a/IMG_1.JPG", time), extensions: ["jpg"], preferring: "2024-05-01 18.30.12",
                                  ownNames: ["2024-05-01 18.30.12.jpg"]), "2024-05-01 18.30.12")
    }
}
