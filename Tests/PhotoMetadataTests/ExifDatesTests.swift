import DarkroomExif
import DarkroomHEIF
import DarkroomTestSupport
import Foundation
import XCTest

/// Setting a capture date in an EXIF block changes those tags and nothing else: maker notes (the
/// Live Photo id among them), GPS and every other tag read the same afterwards.
final class ExifDatesTests: XCTestCase {
    /// Its tests call the native wrappers directly, without a runner to start them (and the order tests run in varies with the build).
    override func setUpWithError() throws { try NativeLibraries.start() }

    let date = ExifDateTags(dateTime: "2020:05:01 10:00:00", subSeconds: "5", offset: "-03:00")

    /// exiftool's reading of a TIFF block, one `Group:Tag: value` line each, without the date tags.
    func readings(_ blob: Data, in folder: TemporaryFolder) throws -> [String] {
        let url = folder.path("\(UUID().uuidString).tiff")
        try blob.drop(while: { $0 != 0x4D && $0 != 0x49 }).write(to: url)
        return try Fixtures.run("exiftool", ["-a", "-s", "-G1", "-x", "FileName", "-x", "Directory", "-x", "FileModifyDate",
                                             "-x", "FileAccessDate", "-x", "FileInodeChangeDate", "-x", "FileSize", url.path])
            .split(separator: "\n").map(String.init)
    }

    func testAnIPhonesBlockKeepsEverythingButItsDates() throws {
        let folder = try TemporaryFolder("exif-dates")
        let exif = try XCTUnwrap(try HEIFInfo.read(try Corpus.file("exif-samples/heic/IMG_5195.HEIC").path).exif)
        let edited = ExifBlob.settingDates(date, in: exif)
        let tags = try ExifTags(parsing: edited)
        XCTAssertEqual([tags.dateTimeOriginal, tags.subSecTimeOriginal, tags.offsetTimeOriginal, tags.dateTimeDigitized],
                       ["2020:05:01 10:00:00", "5", "-03:00", "2020:05:01 10:00:00"])
        XCTAssertEqual(tags.contentIdentifier, "570F1469-09C7-4E50-9875-05F21D5BD166", "the maker note still reads")
        let dateTags = ["DateTimeOriginal", "CreateDate", "SubSecTimeOriginal", "SubSecTimeDigitized", "OffsetTimeOriginal",
                        "OffsetTimeDigitized", "SubSecCreateDate", "SubSecDateTimeOriginal"]
        let isDate = { (line: String) in dateTags.contains { line.contains(" \($0) ") || line.contains("]\($0) ") } }
        XCTAssertEqual(try readings(edited, in: folder).filter { !isDate($0) }, try readings(exif, in: folder).filter { !isDate($0) })
        XCTAssertEqual(ExifBlob.settingDates(date, in: edited), edited, "the same date again changes nothing")
    }

    func testOffsetAndFractionAreRemovedWhenTheDateHasNone() throws {
        let withAll = ExifBlob.settingDates(date, in: nil)
        let plain = ExifBlob.settingDates(ExifDateTags(dateTime: "2021:01:02 03:04:05"), in: withAll)
        let tags = try ExifTags(parsing: plain)
        XCTAssertEqual(tags.dateTimeOriginal, "2021:01:02 03:04:05")
        XCTAssertNil(tags.offsetTimeOriginal)
        XCTAssertNil(tags.subSecTimeOriginal)
    }

    /// A photo without EXIF (a WebP dated from its XMP) gets a block holding only the date.
    func testANewBlockHoldsTheDate() throws {
        let blob = ExifBlob.settingDates(date, in: nil)
        XCTAssertTrue(blob.starts(with: Array("Exif\0\0MM".utf8)))
        let tags = try ExifTags(parsing: blob)
        XCTAssertEqual([tags.dateTimeOriginal, tags.subSecTimeOriginal, tags.offsetTimeOriginal], ["2020:05:01 10:00:00", "5", "-03:00"])
        XCTAssertNil(tags.make)
    }

    /// Hostile blocks: a new block is made, or the edit is made; never a crash, and the date reads back.
    func testDamagedBlocksNeverCrash() throws {
        let exif = [UInt8](ExifBlob.settingDates(date, in: Data(ExifBlob.settingDates(ExifDateTags(dateTime: "1999:01:01 00:00:00"), in: nil))))
        var generator = SeededGenerator(seed: 7)
        for round in 0..<3000 {
            var bytes = exif
            for _ in 0..<3 { bytes[Int.random(in: 6..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            let cut = round % 5 == 0 ? Int.random(in: 0..<bytes.count, using: &generator) : bytes.count
            let edited = ExifBlob.settingDates(date, in: Data(bytes.prefix(cut)))
            XCTAssertEqual(try? ExifTags(parsing: edited).dateTimeOriginal, "2020:05:01 10:00:00")
        }
    }
}
