import DarkroomTestSupport
import Foundation
import XCTest

/// Each selection flag of `darkroom export` picks exactly what it says, alone and combined (AND),
/// on one library (the dry run's plan, as JSON, names the originals picked, in capture order).
final class SelectionTests: XCTestCase {
    nonisolated(unsafe) private static var shared: ExportFixture?

    /// Six photos: two cameras, dates either side of month ends, ratings and keywords in XMP
    /// sidecars (embedded in the library's HEICs by the import), one rated only by a sidecar
    /// written after the import (read from beside the original).
    private func fixture() throws -> ExportFixture {
        if let fixture = Self.shared { return fixture }
        let fixture = try ExportFixture("export-selection")
        let iPhone = (make: "Apple", model: "iPhone 12")
        try fixture.sidecar(of: try fixture.photo("a.jpg", date: "2024:05:03 12:30:00", seed: 1), rating: 5, keywords: ["beach", "family"], title: "Dune")
        try fixture.sidecar(of: try fixture.photo("b.jpg", date: "2024:05:31 23:59:59", camera: iPhone, seed: 2), rating: 3, keywords: ["Beach"])
        try fixture.sidecar(of: try fixture.photo("c.jpg", date: "2024:06:01 00:00:10", camera: iPhone, seed: 3), rating: 4, keywords: ["city"])
        try fixture.photo("d.jpg", date: "2024:04:30 10:00:00", seed: 4)
        let late = try fixture.photo("f.jpg", date: "2024:06:15 08:00:00", seed: 5)
        try fixture.importRoll()
        try fixture.sidecar(of: late, rating: 1, keywords: ["late"])
        Self.shared = fixture
        return fixture
    }

    override class func tearDown() {
        shared = nil
        super.tearDown()
    }

    func testEverythingWithoutCriteriaInCaptureOrder() throws {
        XCTAssertEqual(try fixture().selected([]), ["d.jpg", "a.jpg", "b.jpg", "c.jpg", "f.jpg"])
    }

    func testMonthPicksItsDaysByLocalTime() throws {
        XCTAssertEqual(try fixture().selected(["--month", "2024-05"]), ["a.jpg", "b.jpg"], "23:59:59 on the 31st is still May")
        XCTAssertEqual(try fixture().selected(["--month", "2023-05"]), [])
        let wrong = try fixture().export(["--to", "x", "--month", "2024-13"])
        XCTAssertEqual(wrong.status, 2)
        XCTAssertTrue(wrong.err.contains("--month: '2024-13' is not a month"), wrong.err)
    }

    func testFromAndUntilAreInclusiveDays() throws {
        XCTAssertEqual(try fixture().selected(["--from", "2024-05-31", "--until", "2024-06-01"]), ["b.jpg", "c.jpg"])
        XCTAssertEqual(try fixture().selected(["--from", "2024-06-01"]), ["c.jpg", "f.jpg"])
        XCTAssertEqual(try fixture().selected(["--until", "2024-04-30"]), ["d.jpg"])
        let backwards = try fixture().export(["--to", "x", "--from", "2024-06-01", "--until", "2024-05-01"])
        XCTAssertEqual(backwards.status, 2)
        XCTAssertTrue(backwards.err.contains("--until 2024-05-01 is before --from 2024-06-01"), backwards.err)
    }

    func testRatingIsAtLeastFromTheLibraryFileOrTheOriginalsSidecar() throws {
        XCTAssertEqual(try fixture().selected(["--rating", "4"]), ["a.jpg", "c.jpg"])
        XCTAssertEqual(try fixture().selected(["--rating", "1"]), ["a.jpg", "b.jpg", "c.jpg", "f.jpg"],
                       "f.jpg's rating is only in the sidecar written after its import")
        XCTAssertEqual(try fixture().export(["--to", "x", "--rating", "6"]).status, 2)
    }

    func testKeywordsIgnoreCaseAndAllMustMatch() throws {
        XCTAssertEqual(try fixture().selected(["--keyword", "beach"]), ["a.jpg", "b.jpg"])
        XCTAssertEqual(try fixture().selected(["--keyword", "BEACH", "--keyword", "family"]), ["a.jpg"])
        XCTAssertEqual(try fixture().selected(["--keyword", "late"]), ["f.jpg"])
        XCTAssertEqual(try fixture().selected(["--keyword", "mountain"]), [])
    }

    func testCameraAsTheCatalogRecordsItIgnoringCase() throws {
        XCTAssertEqual(try fixture().selected(["--camera", "apple iphone 12"]), ["b.jpg", "c.jpg"])
        XCTAssertEqual(try fixture().selected(["--camera", "Canon EOS 5D"]), ["d.jpg", "a.jpg", "f.jpg"])
    }

    func testPhotosNamedByIdOriginalPathOrLibraryFile() throws {
        let fixture = try fixture()
        let id = try fixture.asset(fixture.roll.appendingPathComponent("a.jpg")).id.uuidString.lowercased()
        let heic = try fixture.libraryFile(fixture.roll.appendingPathComponent("d.jpg"))
        XCTAssertEqual(try fixture.selected([id, fixture.roll.appendingPathComponent("c.jpg").path, heic.path]), ["d.jpg", "a.jpg", "c.jpg"])
        let unknown = try fixture.export(["--to", "x", "--dry-run", "0f8fad5b-d9cb-469f-a165-70867728950e", id])
        XCTAssertEqual(unknown.status, 1, "a name that picks nothing is a failure")
        XCTAssertTrue(unknown.out.contains("failed: 0f8fad5b-d9cb-469f-a165-70867728950e: unknown id: no photo in the catalog has it"), unknown.out)
    }

    func testCriteriaCombineWithAnd() throws {
        XCTAssertEqual(try fixture().selected(["--month", "2024-05", "--camera", "Apple iPhone 12"]), ["b.jpg"])
        XCTAssertEqual(try fixture().selected(["--keyword", "beach", "--rating", "4"]), ["a.jpg"])
        XCTAssertEqual(try fixture().selected(["--month", "2024-06", "--rating", "2"]), ["c.jpg"])
    }
}
