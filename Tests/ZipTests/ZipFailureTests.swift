@testable import DarkroomZip
import DarkroomTestSupport
import Foundation
import XCTest

/// A writer that fails, or is abandoned, leaves nothing behind, and says which file and why.
final class ZipFailureTests: XCTestCase {
    /// A photo that cannot be archived before anything of it is written (a directory) is reported
    /// and the archive goes on; a failure once an entry is half written (a source longer than its
    /// size said: /proc files claim 0 bytes) removes the partial archive and closes the writer.
    func testFailureMidwayLeavesNoFile() throws {
        let folder = try TemporaryFolder("zip-fail")
        let out = folder.path("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let archive = out.appendingPathComponent("export.zip")
        let zip = try ZipWriter(creating: archive)
        try zip.addData(Data(count: 100_000), as: "a.bin", modified: Date(), compression: .store)
        XCTAssertThrowsError(try zip.addFile(folder.url, as: "c.jpg")) { error in
            XCTAssertEqual(error as? ZipError, ZipError(path: folder.url.path, reason: .notARegularFile))
            XCTAssertEqual("\(error)", "\(folder.url.path): not a regular file")
        }
        try zip.addData(Data("b".utf8), as: "b.txt", modified: Date())
        XCTAssertEqual(try contents(out).count, 1, "the partial archive exists while writing")
        XCTAssertThrowsError(try zip.addFile(URL(fileURLWithPath: "/proc/self/status"), as: "status")) { error in
            guard case .sourceChanged(expectedBytes: 0, readBytes: let read)? = (error as? ZipError)?.reason else {
                return XCTFail("\(error)")
            }
            XCTAssertGreaterThan(read, 0)
            XCTAssertTrue("\(error)".hasPrefix("/proc/self/status: changed while it was being archived"), "\(error)")
        }
        XCTAssertEqual(try contents(out), [], "no archive and no temporary file")
        XCTAssertThrowsError(try zip.finish()) { error in
            XCTAssertEqual((error as? ZipError)?.reason, .writerClosed)
        }
        XCTAssertEqual(try contents(out), [])
    }

    /// A full disk (a 1 MiB tmpfs) is named as such, with the archive's path, and leaves nothing.
    func testDiskFullIsNamedAndLeavesNoFile() throws {
        let folder = try TemporaryFolder("zip-full")
        let mountPoint = folder.path("small-disk")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        do {
            try Fixtures.run("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint.path])
        } catch {
            throw Prerequisite.missing("mounting a 1 MiB tmpfs needs root: \(error)")
        }
        defer { _ = try? Fixtures.run("umount", [mountPoint.path]) }
        let source = folder.path("big.bin")
        try Data(count: 3 << 20).write(to: source)
        let archive = mountPoint.appendingPathComponent("export.zip")
        let zip = try ZipWriter(creating: archive)
        XCTAssertThrowsError(try zip.addFile(source, as: "big.bin")) { error in
            XCTAssertEqual((error as? ZipError)?.reason, .diskFull(errno: ENOSPC))
            XCTAssertEqual("\(error)", "\(archive.path): disk full (ENOSPC) while writing the archive")
        }
        XCTAssertEqual(try contents(mountPoint), [])
    }

    /// A missing source names the file and the system's reason; the archive goes on without it.
    /// Bad and duplicate names are refused the same way.
    func testSkippedEntriesLeaveTheArchiveUsable() throws {
        let folder = try TemporaryFolder("zip-source")
        let archive = folder.path("a.zip")
        let zip = try ZipWriter(creating: archive)
        let missing = folder.path("gone.jpg")
        XCTAssertThrowsError(try zip.addFile(missing, as: "gone.jpg")) { error in
            XCTAssertEqual("\(error)", "\(missing.path): opening failed: No such file or directory (ENOENT)")
        }
        try zip.addData(Data("1".utf8), as: "2024/a.jpg", modified: Date())
        XCTAssertThrowsError(try zip.addData(Data("2".utf8), as: "/2024/./a.jpg", modified: Date())) { error in
            XCTAssertEqual((error as? ZipError)?.reason, .duplicateName("2024/a.jpg"))
        }
        XCTAssertThrowsError(try zip.addData(Data(), as: "../", modified: Date())) { error in
            XCTAssertEqual((error as? ZipError)?.reason, .invalidName("../"))
        }
        try zip.finish()
        let listing = try Fixtures.run("python3", ["-c", "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(z.namelist(), z.read('2024/a.jpg'))", archive.path])
        XCTAssertEqual(listing.trimmingCharacters(in: .whitespacesAndNewlines), "['2024/a.jpg'] b'1'")
        XCTAssertEqual(try contents(folder.url), ["a.zip"])
    }

    /// A writer released without `finish()` (an export interrupted by an error elsewhere) leaves
    /// nothing; an existing destination is kept unless replacing was asked for.
    func testAbandonedWriterAndExistingDestination() throws {
        let folder = try TemporaryFolder("zip-abandon")
        let archive = folder.path("a.zip")
        do {
            let zip = try ZipWriter(creating: archive)
            try zip.addData(Data(count: 10), as: "x", modified: Date())
        }
        XCTAssertEqual(try contents(folder.url), [])

        try Data("old".utf8).write(to: archive)
        XCTAssertThrowsError(try ZipWriter(creating: archive)) { error in
            XCTAssertEqual("\(error)", "\(archive.path): already exists (not replaced)")
        }
        var options = ZipWriter.Options()
        options.replaceExisting = true
        let zip = try ZipWriter(creating: archive, options: options)
        try zip.addData(Data("new".utf8), as: "x.txt", modified: Date())
        try zip.finish()
        XCTAssertEqual(try contents(folder.url), ["a.zip"])
        XCTAssertNotEqual(try Data(contentsOf: archive), Data("old".utf8))
    }

    private func contents(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }
}
