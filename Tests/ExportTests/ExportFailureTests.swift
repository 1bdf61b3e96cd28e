import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// Bad input and a full disk: a photo whose library file is missing or damaged fails with its path
/// and reason while the others are exported (exit 1); a full disk stops the export with exit 3 and
/// leaves no partial file.
final class ExportFailureTests: XCTestCase {
    func testAMissingOrDamagedLibraryFileFailsThatPhotoAlone() throws {
        let fixture = try ExportFixture("export-bad-input")
        let gone = try fixture.photo("IMG_0001.JPG", date: "2024:05:01 10:00:00", seed: 1)
        let damaged = try fixture.photo("IMG_0002.JPG", date: "2024:05:02 10:00:00", seed: 2)
        try fixture.photo("IMG_0003.JPG", date: "2024:05:03 10:00:00", seed: 3)
        try fixture.importRoll()
        let missing = try fixture.libraryFile(gone)
        try FileManager.default.removeItem(at: missing)
        let cut = try fixture.libraryFile(damaged)
        let bytes = try Data(contentsOf: cut)
        try bytes.prefix(bytes.count / 3).write(to: cut)

        let out = fixture.folder.path("out")
        let result = try fixture.export(["--to", out.path])
        XCTAssertEqual(result.status, 1, result.err + result.out)
        XCTAssertTrue(result.out.hasPrefix("3 selected: 1 exported, 0 already exported, 2 failed; 1 file written"), result.out)
        XCTAssertTrue(result.out.contains("  failed: \(missing.path): missing: the file is not there"), result.out)
        XCTAssertTrue(result.out.contains("  failed: \(cut.path): "), result.out)
        XCTAssertEqual(try ExportFixture.files(out), ["2024-05-03 10.00.00.jpg"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.contains("partial") }, [])
    }

    func testAFullDiskStopsCleanly() throws {
        let fixture = try ExportFixture("export-full-disk")
        for index in 1...6 {
            try fixture.photo("IMG_000\(index).JPG", date: "2024:05:0\(index) 10:00:00", size: (1024, 768), seed: index)
        }
        try fixture.importRoll()
        let disk = fixture.folder.path("small-disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        do {
            try Fixtures.run("mount", ["-t", "tmpfs", "-o", "size=400k", "tmpfs", disk.path])
        } catch {
            throw Prerequisite.missing("mounting a small tmpfs needs root: \(error)")
        }
        defer { _ = try? Fixtures.run("umount", [disk.path]) }

        let folder = disk.appendingPathComponent("out")
        let result = try fixture.export(["--to", folder.path, "--jobs", "2"])
        XCTAssertEqual(result.status, 3, result.err + result.out)
        XCTAssertTrue(result.out.contains("disk full (ENOSPC): the export stopped"), result.out)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertEqual(left.filter { $0.contains("partial") }, [], "no partial file")
        let photos = left.filter { $0.hasSuffix(".jpg") }
        XCTAssertLessThan(photos.count, 6)
        for name in photos {
            XCTAssertNoThrow(try Image.open(folder.appendingPathComponent(name).path).average(), "\(name) is whole")
        }

        let archive = disk.appendingPathComponent("all.zip")
        let zipped = try fixture.export(["--zip", archive.path])
        XCTAssertEqual(zipped.status, 3, zipped.err + zipped.out)
        XCTAssertTrue(zipped.out.contains("disk full"), zipped.out)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: disk.path).sorted(), ["out"], "no archive, whole or partial")
    }
}
