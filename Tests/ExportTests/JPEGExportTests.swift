import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// `darkroom export` for people, as a user runs it: JPEGs named by capture time, within the size,
/// upright, sRGB, dated, with the camera and without a place; a second run writes nothing.
final class JPEGExportTests: XCTestCase {
    func testJPEGsForPeopleAndASecondRunWritesNothing() throws {
        try Prerequisite.require(tool: "exiftool")
        let fixture = try ExportFixture("export-jpeg")
        try fixture.photo("DCIM/IMG_0001.JPG", date: "2024:05:01 18:30:12", size: (800, 600), seed: 1,
                          exif: ["-Orientation#=6", "-SubSecTimeOriginal=250"])
        try fixture.photo("DCIM/IMG_0002.JPG", date: "2024:05:01 18:30:12", offset: "-05:00", size: (640, 480), seed: 2,
                          exif: ["-SubSecTimeOriginal=500"])
        let plain = try fixture.photo("Phone/no-exif.jpg", date: nil, camera: nil, gps: false, seed: 3)
        try fixture.importRoll()
        let out = fixture.folder.path("out")

        let first = try fixture.export(["--to", out.path, "--size", "500"])
        XCTAssertEqual(first.status, 0, first.err + first.out)
        XCTAssertTrue(first.out.hasPrefix("3 selected: 3 exported, 0 already exported, 0 failed; 3 files written to \(out.path)"), first.out)
        let undated = try XCTUnwrap(try fixture.asset(plain).captureDate, "dated from its file time")
        let plainName = String(format: "%04d-%02d-%02d %02d.%02d.%02d.jpg", undated.local.year, undated.local.month, undated.local.day,
                               undated.local.hour, undated.local.minute, undated.local.second)
        XCTAssertEqual(try ExportFixture.files(out), ["2024-05-01 18.30.12-2.jpg", "2024-05-01 18.30.12.jpg", plainName].sorted(),
                       "two photos of the same second: the second in capture order (.500 after .250) gets -2")

        // The sideways photo: upright, within 500 px, orientation reset, date with its sub-seconds, camera, no place.
        let upright = out.appendingPathComponent("2024-05-01 18.30.12.jpg")
        let image = try Image.open(upright.path)
        XCTAssertEqual([image.width, image.height], [375, 500], "800x600 turned by orientation 6, then fitted in 500")
        let tags = try ExportFixture.tags(upright)
        XCTAssertEqual(tags["IFD0:Orientation"] ?? "1", "1")
        XCTAssertEqual(tags["ExifIFD:DateTimeOriginal"], "2024:05:01 18:30:12")
        XCTAssertEqual(tags["ExifIFD:OffsetTimeOriginal"], "+02:00")
        XCTAssertEqual(tags["ExifIFD:SubSecTimeOriginal"], "250")
        XCTAssertEqual([tags["IFD0:Make"], tags["IFD0:Model"]], ["Canon", "Canon EOS 5D"])
        XCTAssertEqual(tags["ICC_Profile:ProfileDescription"] ?? "sRGB", "sRGB")
        XCTAssertEqual(tags["File:FileType"], "JPEG")
        for name in try ExportFixture.files(out) {
            XCTAssertEqual(try ExportFixture.locationTags(out.appendingPathComponent(name)), [:], "\(name) carries no place")
            let exported = try Image.open(out.appendingPathComponent(name).path)
            XCTAssertLessThanOrEqual(max(exported.width, exported.height), 500, name)
        }
        // The photo without EXIF gets the library's date.
        XCTAssertEqual(try ExportFixture.tags(out.appendingPathComponent(plainName))["ExifIFD:DateTimeOriginal"],
                       String(format: "%04d:%02d:%02d %02d:%02d:%02d", undated.local.year, undated.local.month, undated.local.day,
                              undated.local.hour, undated.local.minute, undated.local.second))

        // A second run over the same selection writes nothing: same files, same inodes and times.
        let before = try Self.fileStates(out)
        let second = try fixture.export(["--to", out.path, "--size", "500"])
        XCTAssertEqual(second.status, 0, second.err)
        XCTAssertTrue(second.out.hasPrefix("3 selected: 0 exported, 3 already exported, 0 failed; 0 files written"), second.out)
        XCTAssertEqual(try Self.fileStates(out), before)

        // Another size is another export of the same photos: their files are replaced, under the same names.
        let third = try fixture.export(["--to", out.path, "--size", "300"])
        XCTAssertEqual(third.status, 0, third.err)
        XCTAssertEqual(try ExportFixture.files(out), before.keys.filter { !$0.hasPrefix(".") }.sorted())
        XCTAssertEqual(try Image.open(upright.path).height, 300)
    }

    func testKeepLocationKeepsTheGPS() throws {
        try Prerequisite.require(tool: "exiftool")
        let fixture = try ExportFixture("export-keep-location")
        try fixture.photo("IMG_0001.JPG", date: "2024:05:01 18:30:12", seed: 4)
        try fixture.importRoll()
        let out = fixture.folder.path("out")
        let result = try fixture.export(["--to", out.path, "--keep-location"])
        XCTAssertEqual(result.status, 0, result.err)
        let tags = try ExportFixture.tags(out.appendingPathComponent("2024-05-01 18.30.12.jpg"))
        XCTAssertEqual(Double(tags["GPS:GPSLatitude"] ?? "") ?? 0, 48.8582, accuracy: 0.0001)
        XCTAssertEqual(tags["XMP-photoshop:City"], "Paris")
    }

    /// A Display P3 photo's colours match its library HEIC's converted to sRGB (mean difference under
    /// 2 of 255), where the P3 values taken as sRGB differ by more.
    func testDisplayP3IsConvertedNotRetagged() throws {
        try Prerequisite.require(tool: "exiftool")
        let fixture = try ExportFixture("export-p3")
        let source = try Corpus.file("metadata-extractor-images/heic/IMG_2927.HEIC")
        let original = fixture.roll.appendingPathComponent("IMG_2927.HEIC")
        try FileManager.default.copyItem(at: source, to: original)
        try fixture.importRoll()
        let heic = try fixture.libraryFile(original)
        XCTAssertEqual(try ExportFixture.tags(heic)["ICC_Profile:ProfileDescription"], "Display P3", "the library keeps P3")
        let out = fixture.folder.path("out")
        let result = try fixture.export(["--to", out.path])
        XCTAssertEqual(result.status, 0, result.err)
        let exported = out.appendingPathComponent(try XCTUnwrap(try ExportFixture.files(out).first))
        XCTAssertEqual(try ExportFixture.tags(exported)["ICC_Profile:ProfileDescription"], "sRGB")
        XCTAssertEqual(try ExportFixture.locationTags(exported), [:])

        let shared = try Image.open(exported.path)
        let library = try Image.open(heic.path).autorotated()
        XCTAssertEqual([shared.width, shared.height], [library.width, library.height], "1024 px in the library, within 2048: not resized")
        let converted = try library.converted(toProfile: "srgb")
        XCTAssertLessThan(try Self.meanAbsoluteDifference(shared, converted), 2)
        XCTAssertGreaterThan(try Self.meanAbsoluteDifference(library, converted), 2, "P3 values left as they were would differ this much")
    }

    /// Each file's inode, size and modification time, by name.
    static func fileStates(_ folder: URL) throws -> [String: [Int]] {
        var states: [String: [Int]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            var info = stat()
            XCTAssertEqual(stat(folder.appendingPathComponent(name).path, &info), 0)
            states[name] = [Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
        }
        return states
    }

    /// Mean of |a - b| over every band of every pixel (8-bit RGB images of one size).
    static func meanAbsoluteDifference(_ a: Image, _ b: Image) throws -> Double {
        let left = try a.eightBitRGB().pixelBytes(), right = try b.eightBitRGB().pixelBytes()
        XCTAssertEqual(left.count, right.count)
        var total = 0
        for index in 0..<min(left.count, right.count) { total += abs(Int(left[index]) - Int(right[index])) }
        return Double(total) / Double(max(1, left.count))
    }
}
