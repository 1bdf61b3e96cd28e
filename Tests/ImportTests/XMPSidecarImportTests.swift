import DarkroomCatalog
import DarkroomCore
import DarkroomStages
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest
import DarkroomModel
import DarkroomReport

/// XMP sidecars of Lightroom, darktable and digiKam exports, imported with the shipped pipeline:
/// their dates come first, what the user curated reaches the library's HEIC (or a `.xmp` beside
/// it), and a broken one is reported and ignored.
final class XMPSidecarImportTests: XCTestCase {
    var folder: TemporaryFolder!
    var input: URL { folder.path("in") }
    var library: URL { folder.path("library") }

    override func setUpWithError() throws {
        try NativeLibraries.start()
        folder = try TemporaryFolder("xmp-import")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    }

    func importFolder(xmp: String? = nil) throws -> RunReport {
        var text = try ShippedPipeline.fastText()
        if let xmp { text = text.replacingOccurrences(of: "preset: ultrafast", with: "preset: ultrafast\n      xmp: \(xmp)") }
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(yaml: text, file: ImportTests.pipelinePath)
        return try Runner(pipeline: pipeline, settings: RunSettings(library: library, timeZone: TimeZone(identifier: "UTC")!, jobs: 2))
            .run(inputs: [input])
    }

    /// A photo of `number` with the EXIF date `exif`.
    func photo(_ name: String, number: Int, exif: String = "2019:03:01 19:00:00") throws -> URL {
        let url = input.appendingPathComponent(name)
        try Fixtures.solid(url, colour: Colour(red: 40, green: 120, blue: 200), width: 64, height: 48, number: number)
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=\(exif)", url.path])
        return url
    }

    func heic(of url: URL, month: String) throws -> URL {
        let id = ContentHash.uuid(fromHex: try ContentHash.ofFile(url)).uuidString.lowercased()
        return library.appendingPathComponent("Photos/\(month)/\(id).heic")
    }

    /// exiftool's reading of `tags` in a file, one `Tag: value` line each.
    func exiftool(_ url: URL, _ tags: [String]) throws -> [String: String] {
        let out = try Fixtures.run("exiftool", ["-a", "-s", "-s", "-XMP:all"] + [url.path])
        var values: [String: String] = [:]
        for line in out.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, tags.contains(parts[0]) { values[parts[0]] = parts[1] }
        }
        return values
    }

    /// A Lightroom sidecar of the corpus (UTF-16, `xmp:CreateDate` 2010-09-27 +02:00) beside a photo
    /// whose camera said 2019: the sidecar, the user's latest word, files it in 2010.
    func testARealLightroomSidecarDecidesTheDate() throws {
        let url = try photo("2010.jpg", number: 1)
        try FileManager.default.copyItem(at: try Corpus.file("immich-test-assets/metadata/xmp/dates/2010.xmp"),
                                         to: input.appendingPathComponent("2010.xmp"))
        let report = try importFolder()
        XCTAssertEqual(report.failures, [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: try heic(of: url, month: "2010/09").path), "\(report.published)")
        let date = try Catalog(library: library).rememberedFacts(contentHash: try ContentHash.ofFile(url))?.captureDate
        XCTAssertEqual(date?.description, "2010-09-27T14:35:33+02:00 (xmp-sidecar, tz: metadata)")
        XCTAssertEqual(report.sidecars.map(\.path), [input.appendingPathComponent("2010.xmp").path])
        XCTAssertEqual(report.withoutSidecar, [:], "XMP sidecars are not expected of every photo")
    }

    /// Rating, keywords, title, description and a person from a darktable-style `photo.jpg.xmp`
    /// (which wins over `photo.xmp`) are in the HEIC's XMP; its orientation is not (the pixels are upright).
    func testWhatTheUserCuratedIsMergedIntoTheHEIC() throws {
        let url = try photo("beach.jpg", number: 2)
        let sidecar = input.appendingPathComponent("beach.jpg.xmp")
        try Fixtures.run("exiftool", ["-q", "-XMP-xmp:Rating=4", "-XMP-dc:Subject=beach", "-XMP-dc:Subject=holiday", "-XMP-dc:Title=Sunset at the pier",
                                      "-XMP-dc:Description=Our last evening", "-XMP-iptcExt:PersonInImage=Ann", "-XMP-tiff:Orientation#=6",
                                      "-XMP-exif:DateTimeOriginal=2021:07:04 20:15:00+02:00", sidecar.path])
        try Fixtures.run("exiftool", ["-q", "-XMP-xmp:Rating=1", "-XMP-xmp:CreateDate=2001:01:01 00:00:00", input.appendingPathComponent("beach.xmp").path])

        let report = try importFolder()
        XCTAssertEqual(report.failures, [])
        let output = try heic(of: url, month: "2021/07")
        let tags = try exiftool(output, ["Rating", "Subject", "Title", "Description", "PersonInImage", "Orientation", "DateTimeOriginal"])
        XCTAssertEqual(tags["Rating"], "4", "beach.jpg.xmp wins over beach.xmp")
        XCTAssertEqual(tags["Subject"], "beach, holiday")
        XCTAssertEqual(tags["Title"], "Sunset at the pier")
        XCTAssertEqual(tags["Description"], "Our last evening")
        XCTAssertEqual(tags["PersonInImage"], "Ann")
        XCTAssertEqual(tags["DateTimeOriginal"], "2021:07:04 20:15:00+02:00")
        XCTAssertNil(tags["Orientation"], "the sidecar's orientation describes the original's pixels, not the upright HEIC")
        XCTAssertEqual(try Image.open(output.path).width, 64, "a HEIC libvips decodes, not rotated")
    }

    /// `xmp: sidecar` writes `<id>.xmp` beside the HEIC (recorded in the catalog) and leaves the
    /// HEIC without XMP; `xmp: none` writes neither.
    func testTheSidecarCanBeWrittenBesideTheHEICInstead() throws {
        let url = try photo("pier.jpg", number: 3)
        try Fixtures.run("exiftool", ["-q", "-XMP-xmp:Rating=5", "-XMP-dc:Title=Pier", input.appendingPathComponent("pier.xmp").path])
        let report = try importFolder(xmp: "sidecar")
        XCTAssertEqual(report.failures, [])
        let output = try heic(of: url, month: "2019/03")
        let beside = output.deletingPathExtension().appendingPathExtension("xmp")
        XCTAssertTrue(report.published.contains("Photos/2019/03/\(beside.lastPathComponent)"), "\(report.published)")
        XCTAssertEqual(try exiftool(beside, ["Rating", "Title"]), ["Rating": "5", "Title": "Pier"])
        XCTAssertEqual(try exiftool(output, ["Rating", "Title"]), [:])
        let outputs = try Catalog(library: library).state(of: try ContentHash.ofFile(url)).outputs.map(\.path)
        XCTAssertTrue(outputs.contains("Photos/2019/03/\(beside.lastPathComponent)"))

        try FileManager.default.removeItem(at: library)
        XCTAssertEqual(try importFolder(xmp: "none").failures, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: beside.path))
        XCTAssertEqual(try exiftool(output, ["Rating", "Title"]), [:])
    }

    /// A sidecar with malformed XML is reported with its path and the reason, and ignored: the
    /// photo is imported from its own metadata.
    func testAMalformedSidecarIsReportedAndIgnored() throws {
        let url = try photo("broken.jpg", number: 4)
        let sidecar = input.appendingPathComponent("broken.jpg.xmp")
        try Data(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description xmp:Rating="3"></rdf:RDF>"#.utf8).write(to: sidecar)
        let report = try importFolder()
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: try heic(of: url, month: "2019/03").path), "dated by its EXIF")
        XCTAssertEqual(report.warnings.map(\.path), [url.path])
        let reason = report.warnings.first?.reason ?? ""
        XCTAssertTrue(reason.hasPrefix("\(sidecar.path): XMP sidecar is not a readable XMP packet: "), reason)
        XCTAssertTrue(reason.hasSuffix(": sidecar ignored; dated from the file's own metadata"), reason)
        XCTAssertEqual(try exiftool(try heic(of: url, month: "2019/03"), ["Rating"]), [:])
    }
}
