@testable import DarkroomZip
import DarkroomTestSupport
import Foundation
import XCTest

/// Archives written by `ZipWriter`, read back by Python's `zipfile` and `unzip -t`.
final class ZipWriterTests: XCTestCase {
    /// A photo-like file (random bytes, which do not compress), a text file, an empty file and
    /// in-memory XMP and JSON, under UTF-8 names: every byte, size and CRC-32 reads back; the
    /// texts are deflated, the rest stored; no ZIP64 record in a small archive.
    func testArchiveReadsBackWithPythonAndUnzip() throws {
        let folder = try TemporaryFolder("zip")
        let photo = try randomFile(folder.path("IMG_0001.jpg"), bytes: 3_000_123, seed: 1)
        let notes = folder.path("notes.txt")
        try Data(String(repeating: "Darkroom export notes. ", count: 400).utf8).write(to: notes)
        let empty = folder.path("empty.bin")
        try Data().write(to: empty)
        let xmp = folder.path("xmp"), json = folder.path("json")
        try Data(String(repeating: "<rdf:li>keyword</rdf:li>\n", count: 200).utf8).write(to: xmp)
        try Data(#"{"title": "Été à Noël ☕", "rating": 5}"#.utf8).write(to: json)

        let archive = folder.path("export.zip")
        var options = ZipWriter.Options()
        options.timeZone = TimeZone(identifier: "UTC")!
        options.chunkSize = 64 << 10  // several chunks for the photo
        let zip = try ZipWriter(creating: archive, options: options)
        let capture = Date(timeIntervalSince1970: 1_717_245_296)  // 2024-06-01 12:34:56 UTC
        try zip.addFile(photo, as: "Été 2024/IMG_0001.jpg", modified: capture)
        try zip.addFile(notes, as: "notes.txt", modified: capture)
        try zip.addFile(empty, as: "empty.bin", modified: capture)
        try zip.addData(try Data(contentsOf: xmp), as: "Été 2024/IMG_0001.xmp", modified: capture)
        try zip.addData(try Data(contentsOf: json), as: "café ☕.json", modified: capture, compression: .store)
        XCTAssertFalse(FileManager.default.fileExists(atPath: archive.path), "nothing at the destination before finish()")
        try zip.finish()

        let report = try ArchiveCheck.verify(archive, expected: [
            ("Été 2024/IMG_0001.jpg", photo), ("notes.txt", notes), ("empty.bin", empty),
            ("Été 2024/IMG_0001.xmp", xmp), ("café ☕.json", json),
        ])
        XCTAssertEqual(report.methods, [0, 0, 0, 8, 0], "files stored, XMP deflated, JSON stored as asked")
        XCTAssertEqual(report.dateTimes.first, [2024, 6, 1, 12, 34, 56])
        XCTAssertTrue(report.utf8Flags)
        XCTAssertFalse(report.zip64End)
        XCTAssertEqual(report.zip64Extras, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains("partial") }, [])
    }

    /// ZIP64 forced on a small archive: every central header has a ZIP64 extra field, the end has
    /// the ZIP64 record and locator, and both readers still read every entry.
    func testForcedZip64ReadsBack() throws {
        let folder = try TemporaryFolder("zip64")
        let photo = try randomFile(folder.path("a.heic"), bytes: 200_000, seed: 2)
        let text = folder.path("a.xmp")
        try Data(String(repeating: "<xmp:Rating>5</xmp:Rating>\n", count: 100).utf8).write(to: text)
        var options = ZipWriter.Options()
        options.forceZip64 = true
        let archive = folder.path("forced.zip")
        let zip = try ZipWriter(creating: archive, options: options)
        try zip.addFile(photo, as: "a.heic")
        try zip.addData(try Data(contentsOf: text), as: "a.xmp", modified: Date())
        try zip.finish()
        let report = try ArchiveCheck.verify(archive, expected: [("a.heic", photo), ("a.xmp", text)])
        XCTAssertTrue(report.zip64End)
        XCTAssertEqual(report.zip64Extras, 2)
        XCTAssertEqual(report.methods, [0, 8])
    }

    /// With the limits lowered, ZIP64 appears exactly where an archive past them needs it: the
    /// entry over the size limit, entries whose offset passes it, and the end (more entries than
    /// the count limit); entries before the limit stay plain.
    func testZip64IsWrittenWhereTheLimitsArePassed() throws {
        let folder = try TemporaryFolder("zip64-limits")
        let small = try randomFile(folder.path("small"), bytes: 300, seed: 3)
        let large = try randomFile(folder.path("large"), bytes: 5_000, seed: 4)
        var options = ZipWriter.Options()
        options.zip64Limits = Zip64Limits(size: 1_000, entries: 3)
        let archive = folder.path("limits.zip")
        let zip = try ZipWriter(creating: archive, options: options)
        try zip.addFile(small, as: "1")   // offset 0, 300 bytes: plain
        try zip.addFile(large, as: "2")   // 5,000 bytes: ZIP64 sizes
        try zip.addFile(small, as: "3")   // offset past 1,000: ZIP64 offset
        try zip.addFile(small, as: "4")
        try zip.finish()
        let report = try ArchiveCheck.verify(archive, expected: [("1", small), ("2", large), ("3", small), ("4", small)])
        XCTAssertEqual(report.zip64Extras, 3, "every entry but the first")
        XCTAssertTrue(report.zip64End)
    }

    /// More than 65,535 entries: the classic end record cannot count them, so the ZIP64 end
    /// record does, and Python finds all of them.
    func testMoreThan65535Entries() throws {
        try Prerequisite.require(tool: "python3")
        let folder = try TemporaryFolder("zip-many")
        let archive = folder.path("many.zip")
        let count = 65_540
        let zip = try ZipWriter(creating: archive)
        for index in 0..<count {
            try zip.addData(Data("\(index)".utf8), as: "n/\(index).txt", modified: Date(), compression: .store)
        }
        try zip.finish()
        let output = try Fixtures.run("python3", ["-c", """
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1]); infos = z.infolist()
            assert z.testzip() is None
            assert all(z.read(i) == i.filename[2:-4].encode() for i in infos)
            print(len(infos), infos[-1].filename)
            """, archive.path])
        XCTAssertEqual(output.trimmingCharacters(in: .whitespacesAndNewlines), "\(count) n/\(count - 1).txt")
        XCTAssertTrue(try Fixtures.run("unzip", ["-tq", archive.path]).contains("No errors detected"))
    }

    /// Names cannot lead an extractor out of its folder; what is left of them is checked.
    func testNamesAreSanitised() throws {
        XCTAssertEqual(ZipWriter.sanitisedName("../../etc/passwd"), "etc/passwd")
        XCTAssertEqual(ZipWriter.sanitisedName("/home/me/./a.jpg"), "home/me/a.jpg")
        XCTAssertEqual(ZipWriter.sanitisedName("2024\\05\\a.jpg"), "2024/05/a.jpg")
        XCTAssertEqual(ZipWriter.sanitisedName("Été/café ☕.jpg"), "Été/café ☕.jpg")
        XCTAssertNil(ZipWriter.sanitisedName("../.."))
        XCTAssertNil(ZipWriter.sanitisedName(""))
        XCTAssertNil(ZipWriter.sanitisedName("a\u{0}b"))
        XCTAssertNil(ZipWriter.sanitisedName(String(repeating: "a", count: 65_536)))

        let folder = try TemporaryFolder("zip-names")
        let archive = folder.path("names.zip")
        let zip = try ZipWriter(creating: archive)
        try zip.addData(Data("x".utf8), as: "../../escape.txt", modified: Date())
        try zip.finish()
        let listing = try Fixtures.run("python3", ["-c", "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).namelist())", archive.path])
        XCTAssertEqual(listing.trimmingCharacters(in: .whitespacesAndNewlines), "['escape.txt']")
    }

    /// DOS times are local wall-clock time in the chosen zone; dates before 1980 are clamped.
    func testDOSTimes() {
        let utc = TimeZone(identifier: "UTC")!, paris = TimeZone(identifier: "Europe/Paris")!
        let date = Date(timeIntervalSince1970: 1_717_245_296)  // 2024-06-01 12:34:56 UTC
        XCTAssertEqual(DOSDateTime(date, timeZone: utc), DOSDateTime(time: 12 << 11 | 34 << 5 | 28, date: 44 << 9 | 6 << 5 | 1))
        XCTAssertEqual(DOSDateTime(date, timeZone: paris).time >> 11, 14)
        XCTAssertEqual(DOSDateTime(Date(timeIntervalSince1970: 0), timeZone: utc), DOSDateTime(time: 0, date: 1 << 5 | 1))
    }

    /// `bytes` seeded pseudo-random bytes (they do not compress, like a photo's).
    func randomFile(_ url: URL, bytes: Int, seed: UInt64) throws -> URL {
        var generator = SeededGenerator(seed: seed)
        let bytes = (0..<bytes).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        try Data(bytes).write(to: url)
        return url
    }
}
