import DarkroomCatalog
import DarkroomCore
import DarkroomModel
import DarkroomReport
import DarkroomStages
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// A photographer's RAW files through the shipped import pipeline: the corpus's decodable DNG (a colour
/// chart) with a camera's JPEG preview added or not, and the corpus's metadata-only RAWs.
final class RawImportTests: XCTestCase {
    var folder: TemporaryFolder!
    var roll: URL { folder.path("roll") }
    var library: URL { folder.path("library") }

    override func setUpWithError() throws {
        try NativeLibraries.start()
        folder = try TemporaryFolder("raw-import")
        try FileManager.default.createDirectory(at: roll, withIntermediateDirectories: true)
    }

    func importRoll(raw: String = "auto") throws -> RunReport {
        let yaml = try ShippedPipeline.fastText().replacingOccurrences(of: "raw: auto", with: "raw: \(raw)")
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(yaml: yaml, file: ShippedPipeline.path("import-camera-roll"))
        return try Runner(pipeline: pipeline, settings: RunSettings(library: library, timeZone: TimeZone(identifier: "UTC")!, jobs: 2))
            .run(inputs: [roll])
    }

    /// The corpus's colour chart DNG (1734x1156 once developed) as `name`, dated and turned with exiftool, with a solid magenta
    /// JPEG preview of `preview` (width, height) appended as a camera embeds one (nil: none).
    func chart(_ name: String, date: String, orientation: Int = 1, preview: (Int, Int)?) throws -> URL {
        let url = roll.appendingPathComponent(name)
        try FileManager.default.copyItem(at: try Corpus.file("raw/colorchart.dng"), to: url)
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=\(date)", "-Orientation#=\(orientation)", url.path])
        if let (width, height) = preview {
            let jpeg = folder.path("preview-\(name).jpg")
            try Fixtures.run("convert", ["-size", "\(width)x\(height)", "xc:#ff00ff", "-quality", "90", jpeg.path])
            try Self.appendPreview(try Data(contentsOf: jpeg), width: width, height: height, to: url)
        }
        return url
    }

    func published(_ input: URL, under prefix: String, in report: RunReport) throws -> Image {
        let id = ContentHash.uuid(fromHex: try ContentHash.ofFile(input)).uuidString.lowercased()
        let path = try XCTUnwrap(report.published.first { $0.hasPrefix(prefix) && $0.contains(id) }, "\(input.lastPathComponent) under \(prefix)")
        return try Image.open(library.appendingPathComponent(path).path)
    }

    /// Whether most of `image` is the preview's magenta (the chart has little of it: a few patches).
    func isMagenta(_ image: Image) throws -> Bool {
        let means = try (0..<3).map { try image.extractBand($0).average() }
        return means[0] > 200 && means[1] < 60 && means[2] > 200
    }

    func testAutoShowsALargeEnoughPreviewAndDevelopsWhenItIsSmallerThanTheOutput() throws {
        let large = try chart("IMG_0001.DNG", date: "2023:04:05 06:07:08", preview: (1734, 1156))
        let small = try chart("IMG_0002.DNG", date: "2023:05:06 07:08:09", preview: (320, 213))
        let sideways = try chart("IMG_0003.DNG", date: "2023:06:07 08:09:10", orientation: 6, preview: nil)

        let report = try importRoll()
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed, 3)

        let fromPreview = try published(large, under: "Photos/2023/04/", in: report)
        XCTAssertTrue(try isMagenta(fromPreview), "the camera's preview covers 2048 px of a smaller photo: it is shown")
        XCTAssertTrue(try isMagenta(try published(large, under: "Thumbnails/2023/04/", in: report)))

        let developed = try published(small, under: "Photos/2023/05/", in: report)
        XCTAssertFalse(try isMagenta(developed), "a 320 px preview is too small for the 2048 px image: the RAW is developed")
        XCTAssertGreaterThan(developed.width, 1700, "developed at full size: half size would be under the photo's size")
        XCTAssertFalse(try isMagenta(try published(small, under: "Thumbnails/2023/05/", in: report)),
                       "the thumbnail shows the same rendering as the photo, not the preview")
        XCTAssertEqual(report.warnings, [], "a preview smaller than needed is not a problem in auto mode")

        let upright = try published(sideways, under: "Photos/2023/06/", in: report)
        XCTAssertGreaterThan(upright.height, upright.width, "the RAW's own orientation (6) turns it upright")
        XCTAssertEqual(upright.orientation, 1)
    }

    func testDevelopModeDevelopsEvenWhenThePreviewIsLargeAndPreviewModeWarnsWhenThereIsNone() throws {
        let large = try chart("IMG_0001.DNG", date: "2023:04:05 06:07:08", preview: (1734, 1156))
        var report = try importRoll(raw: "develop")
        XCTAssertEqual(report.failures, [])
        XCTAssertFalse(try isMagenta(try published(large, under: "Photos/2023/04/", in: report)), "developed from the sensor data")

        try FileManager.default.removeItem(at: library)
        try FileManager.default.removeItem(at: large)
        let bare = try chart("IMG_0004.DNG", date: "2023:07:08 09:10:11", preview: nil)
        report = try importRoll(raw: "preview")
        XCTAssertEqual(report.failures, [])
        XCTAssertFalse(try isMagenta(try published(bare, under: "Photos/2023/07/", in: report)))
        XCTAssertEqual(report.warnings.map(\.path), [bare.path])
        XCTAssertEqual(report.warnings.first?.reason, "the RAW file has no embedded preview; developed from the RAW data instead")
    }

    func testARawWithoutItsImageDataFailsWithItsReasonAndX3FIsPassedOver() throws {
        for name in ["exiftool-Nikon.nef", "exiftool-Panasonic.rw2", "exiftool-DNG.dng", "exiftool-CanonRaw.cr3", "exiftool-CanonRaw.cr2",
                     "exiftool-Sigma.x3f"] {
            try FileManager.default.copyItem(at: try Corpus.file("raw/\(name)"), to: roll.appendingPathComponent(name))
        }
        let report = try importRoll()
        XCTAssertEqual(report.processed, 0)
        let failures = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.path, $0) })
        // The CR2 is one LibRaw 0.20 does not identify at all: a RAW cut short all the same, not "not a photo".
        for name in ["exiftool-Nikon.nef", "exiftool-Panasonic.rw2", "exiftool-DNG.dng", "exiftool-CanonRaw.cr3", "exiftool-CanonRaw.cr2"] {
            let failure = try XCTUnwrap(failures[roll.appendingPathComponent(name).path], name)
            XCTAssertTrue(failure.reason.hasPrefix("RAW image data is missing or cut short: "), failure.reason)
            XCTAssertEqual(failure.kind, "truncated", name)
        }
        XCTAssertEqual(report.passedOver.map(\.reason),
                       ["Sigma X3F RAW photo (.x3f): not read (Debian 12's LibRaw 0.20 is built without X3F)"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.appendingPathComponent("Photos").path), "nothing published")
    }

    /// Appends `jpeg` to the little-endian TIFF at `url` as one more IFD at the end of IFD0's chain
    /// (NewSubfileType 1, JPEG compression), the way cameras embed a preview in a DNG.
    static func appendPreview(_ jpeg: Data, width: Int, height: Int, to url: URL) throws {
        var data = try Data(contentsOf: url)
        func u16(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        func le<T: FixedWidthInteger>(_ value: T) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
        XCTAssertEqual(Array(data.prefix(4)), [0x49, 0x49, 0x2A, 0x00], "a little-endian TIFF")
        var pointer = 4
        while u32(pointer) != 0 { pointer = u32(pointer) + 2 + 12 * u16(u32(pointer)) }
        if data.count % 2 == 1 { data.append(0) }
        let jpegAt = data.count
        data += jpeg
        if data.count % 2 == 1 { data.append(0) }
        let ifdAt = data.count
        let entries: [(UInt16, UInt16, UInt32)] = [(254, 4, 1), (256, 4, UInt32(width)), (257, 4, UInt32(height)), (259, 3, 7),
                                                   (262, 3, 6), (273, 4, UInt32(jpegAt)), (277, 3, 3), (278, 4, UInt32(height)),
                                                   (279, 4, UInt32(jpeg.count))]
        data += le(UInt16(entries.count))
        for (tag, type, value) in entries {
            data += le(tag) + le(type) + le(UInt32(1)) + (type == 3 ? le(UInt16(value)) + le(UInt16(0)) : le(value))
        }
        data += le(UInt32(0))
        data.replaceSubrange(pointer..<pointer + 4, with: le(UInt32(ifdAt)))
        try data.write(to: url)
    }
}
