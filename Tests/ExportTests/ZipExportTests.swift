import DarkroomTestSupport
import DarkroomZip
import Foundation
import XCTest

/// `darkroom export --zip`: an archive every reader opens; again with nothing new it is left as it
/// is; with a new photo it is written again, its earlier entries copied as they were.
final class ZipExportTests: XCTestCase {
    func testArchiveIsReadableAndGrowsOnlyWithNewPhotos() throws {
        try Prerequisite.require(tool: "python3")
        let fixture = try ExportFixture("export-zip")
        try fixture.photo("IMG_0001.JPG", date: "2024:05:01 18:30:12", seed: 1)
        try fixture.photo("IMG_0002.JPG", date: "2024:05:02 09:00:00", seed: 2)
        try fixture.importRoll()
        let archive = fixture.folder.path("trip.zip")

        let first = try fixture.export(["--zip", archive.path])
        XCTAssertEqual(first.status, 0, first.err + first.out)
        XCTAssertEqual(try Self.listing(archive), [".darkroom-export.jsonl", "2024-05-01 18.30.12.jpg", "2024-05-02 09.00.00.jpg"])
        XCTAssertEqual(try Self.python("z.testzip()", archive), "None")
        XCTAssertEqual(try ExportFixture.files(fixture.folder.url).filter { $0.contains("partial") }, [])

        let before = try JPEGExportTests.fileStates(fixture.folder.url)["trip.zip"]
        let again = try fixture.export(["--zip", archive.path])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertTrue(again.out.hasPrefix("2 selected: 0 exported, 2 already exported"), again.out)
        XCTAssertEqual(try JPEGExportTests.fileStates(fixture.folder.url)["trip.zip"], before, "the archive is left as it is")

        let firstEntry = try Self.python("print(__import__('hashlib').sha256(z.read('2024-05-01 18.30.12.jpg')).hexdigest())", archive)
        try fixture.photo("IMG_0003.JPG", date: "2024:05:03 07:15:00", seed: 3)
        try fixture.importRoll()
        let grown = try fixture.export(["--zip", archive.path])
        XCTAssertEqual(grown.status, 0, grown.err)
        XCTAssertTrue(grown.out.hasPrefix("3 selected: 1 exported, 2 already exported"), grown.out)
        XCTAssertEqual(try Self.listing(archive), [".darkroom-export.jsonl", "2024-05-01 18.30.12.jpg", "2024-05-02 09.00.00.jpg",
                                                   "2024-05-03 07.15.00.jpg"])
        XCTAssertEqual(try Self.python("z.testzip()", archive), "None")
        XCTAssertEqual(try Self.python("print(__import__('hashlib').sha256(z.read('2024-05-01 18.30.12.jpg')).hexdigest())", archive),
                       firstEntry, "the earlier photo's bytes copied, not encoded again")
    }

    func testAnArchiveDarkroomDidNotMakeIsRefused() throws {
        let fixture = try ExportFixture("export-zip-foreign")
        try fixture.photo("IMG_0001.JPG", date: "2024:05:01 18:30:12", seed: 4)
        try fixture.importRoll()
        let archive = fixture.folder.path("mine.zip")
        let zip = try ZipWriter(creating: archive)
        try zip.addData(Data("hello".utf8), as: "notes.txt", modified: Date())
        try zip.finish()
        let bytes = try Data(contentsOf: archive)
        let result = try fixture.export(["--zip", archive.path])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("\(archive.path) exists and was not made by darkroom export"), result.err)
        XCTAssertEqual(try Data(contentsOf: archive), bytes)
    }

    /// The archive's entry names, sorted, as Python's `zipfile` reads them.
    static func listing(_ archive: URL) throws -> [String] {
        try python("print('\\n'.join(sorted(z.namelist())))", archive).split(separator: "\n").map(String.init)
    }

    /// Runs `code` with `z`, the archive opened by Python's `zipfile`; its printed output, trimmed
    /// (an expression's value is printed).
    static func python(_ code: String, _ archive: URL) throws -> String {
        let body = code.hasPrefix("print(") ? code : "print(\(code))"
        return try Fixtures.run("python3", ["-c", "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); \(body)", archive.path])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
