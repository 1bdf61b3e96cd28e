import DarkroomCatalog
import DarkroomCore
import DarkroomExplain
import DarkroomModel
import DarkroomReport
import DarkroomStages
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// RAW+JPEG pairs through the shipped import pipeline: the corpus's colour chart DNG (a Canon EOS Kiss
/// X4's) as the RAW, and a solid green JPEG made with ImageMagick and given a camera and a date with
/// exiftool as the camera's JPEG of the shot, so that which file made the library's HEIC shows.
final class RawPairImportTests: XCTestCase {
    var folder: TemporaryFolder!
    var roll: URL { folder.path("roll") }
    var library: URL { folder.path("library") }
    static let camera = ("Canon", "Canon EOS Kiss X4")

    override func setUpWithError() throws {
        try NativeLibraries.start()
        folder = try TemporaryFolder("raw-pairs")
        try FileManager.default.createDirectory(at: roll, withIntermediateDirectories: true)
    }

    func importRoll(rawOriginals: String = "keep") throws -> RunReport {
        var yaml = try ShippedPipeline.fastText()
        if rawOriginals != "keep" {
            let output = "output: \"Photos/{yyyy}/{MM}/{id}.{ext}\"\n"
            XCTAssertTrue(yaml.contains(output))
            yaml = yaml.replacingOccurrences(of: output, with: output + "      raw-originals: \(rawOriginals)\n")
        }
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(yaml: yaml, file: ShippedPipeline.path("import-camera-roll"))
        var settings = RunSettings(library: library, timeZone: TimeZone(identifier: "UTC")!, jobs: 2)
        settings.listsFiles = false  // as the command line runs it without a report: only stills' records are kept
        return try Runner(pipeline: pipeline, settings: settings).run(inputs: [roll])
    }

    /// The corpus's colour chart DNG as `name`, taken at `date` (EXIF `YYYY:MM:DD HH:MM:SS`).
    @discardableResult
    func raw(_ name: String, date: String) throws -> URL {
        let url = roll.appendingPathComponent(name)
        try FileManager.default.copyItem(at: try Corpus.file("raw/colorchart.dng"), to: url)
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=\(date)", url.path])
        return url
    }

    /// A solid green 640x427 JPEG as `name`, by `camera` at `date`.
    @discardableResult
    func jpeg(_ name: String, date: String, camera: (String, String) = camera) throws -> URL {
        let url = roll.appendingPathComponent(name)
        try Fixtures.run("convert", ["-size", "640x427", "xc:#00ff00", "-quality", "90", "jpg:" + url.path])
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-Make=\(camera.0)", "-Model=\(camera.1)",
                                      "-DateTimeOriginal=\(date)", url.path])
        return url
    }

    func id(of file: URL) throws -> String {
        ContentHash.uuid(fromHex: try ContentHash.ofFile(file)).uuidString.lowercased()
    }

    /// Every file of the library but its catalog, library-relative, sorted.
    func libraryFiles() -> [String] {
        let root = library.resolvingSymlinksInPath().path + "/"
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return files.filter { !$0.hasPrefix(".darkroom") && !$0.hasSuffix("/") && FileInfo(path: root + $0)?.isRegularFile == true }.sorted()
    }

    /// Whether the library's HEIC is the JPEG's green, not the developed colour chart.
    func isGreen(_ path: String) throws -> Bool {
        let image = try Image.open(library.appendingPathComponent(path).path)
        let means = try (0..<3).map { try image.extractBand($0).average() }
        return means[0] < 60 && means[1] > 200 && means[2] < 60
    }

    func testAPairIsOnePhotoWithItsRawKeptByteForByteAndPixelNamesPairToo() throws {
        let rawFile = try raw("IMG_0001.CR2", date: "2023:04:05 06:07:08")
        let still = try jpeg("IMG_0001.JPG", date: "2023:04:05 06:07:09")
        let pixelRaw = try raw("PXL_20230405_060708123.RAW-02.ORIGINAL.dng", date: "2023:04:05 07:00:00")
        let pixelStill = try jpeg("PXL_20230405_060708123.RAW-01.MP.COVER.jpg", date: "2023:04:05 07:00:00")
        let lone = try raw("IMG_0002.DNG", date: "2023:04:06 10:00:00")

        let report = try importRoll()
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed, 5, "every file is in a state")
        XCTAssertEqual(report.rawOriginals?.sorted { $0.path < $1.path },
                       [.init(path: rawFile.path, sameAs: still.path, kept: true), .init(path: pixelRaw.path, sameAs: pixelStill.path, kept: true)])
        XCTAssertTrue(report.summary.contains("2 RAW originals kept with their JPEGs"), report.summary)

        let (jpegID, pixelID, loneID) = (try id(of: still), try id(of: pixelStill), try id(of: lone))
        XCTAssertEqual(libraryFiles(), [
            "Photos/2023/04/\(jpegID).cr2", "Photos/2023/04/\(jpegID).heic",
            "Photos/2023/04/\(loneID).heic",
            "Photos/2023/04/\(pixelID).dng", "Photos/2023/04/\(pixelID).heic",
            "Thumbnails/2023/04/\(jpegID).jpg", "Thumbnails/2023/04/\(loneID).jpg", "Thumbnails/2023/04/\(pixelID).jpg",
        ].sorted())
        XCTAssertEqual(try Data(contentsOf: library.appendingPathComponent("Photos/2023/04/\(jpegID).cr2")), try Data(contentsOf: rawFile))
        XCTAssertTrue(try isGreen("Photos/2023/04/\(jpegID).heic"), "the camera's JPEG makes the pair's HEIC")
        XCTAssertFalse(try isGreen("Photos/2023/04/\(loneID).heic"), "a lone RAW is developed")

        // The catalog has the RAW as a part of its JPEG, and explain shows the pair from either side.
        let catalog = try XCTUnwrap(try Catalog.openReadOnly(library: library))
        let ofRaw = try ExplainReport.recorded(rawFile.path, in: library, catalog: catalog)
        XCTAssertEqual(ofRaw.recorded?.partOf?.path, still.path)
        XCTAssertEqual(ofRaw.recorded?.outputs.map(\.path), ["Photos/2023/04/\(jpegID).cr2"], "filed under the JPEG's id")
        XCTAssertTrue(ofRaw.text.contains("part of:    \(still.path) (the still it is filed with, under its id)"), ofRaw.text)
        let ofStill = try ExplainReport.recorded(still.path, in: library, catalog: catalog)
        XCTAssertEqual(ofStill.recorded?.parts.map(\.path), [rawFile.path])
        XCTAssertEqual(ofStill.recorded?.parts.first?.outputs, ["Photos/2023/04/\(jpegID).cr2"])
        XCTAssertTrue(ofStill.text.contains("RAW+JPEG:   \(rawFile.path) (its RAW, kept as Photos/2023/04/\(jpegID).cr2)"), ofStill.text)

        let again = try importRoll()
        XCTAssertEqual(again.processed, 0)
        XCTAssertEqual(again.skipped, 5)
        XCTAssertEqual(again.published, [], "a re-run does nothing")
        XCTAssertEqual(libraryFiles().count, 8)
    }

    func testTheSameNameFromAnotherCameraOrTenSecondsApartIsTwoPhotos() throws {
        let otherCamera = try raw("IMG_0001.CR2", date: "2023:04:05 05:00:00")
        try jpeg("IMG_0001.JPG", date: "2023:04:05 05:00:00", camera: ("NIKON CORPORATION", "NIKON D750"))
        let later = try raw("IMG_0002.CR2", date: "2023:04:05 06:07:08")
        try jpeg("IMG_0002.JPG", date: "2023:04:05 06:07:18")

        let report = try importRoll()
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed, 4)
        XCTAssertNil(report.rawOriginals)
        XCTAssertEqual(libraryFiles().filter { $0.hasSuffix(".heic") }.count, 4, "four photos")
        XCTAssertEqual(libraryFiles().filter { $0.hasSuffix(".cr2") }, [])
        let why = Dictionary(uniqueKeysWithValues: (report.unpairedRaws ?? []).map { ($0.path, $0.reason) })
        XCTAssertEqual(why[otherCamera.path], "IMG_0001.JPG is from another camera (NIKON CORPORATION NIKON D750, the RAW's is Canon Canon EOS Kiss X4): imported as a photo of its own")
        XCTAssertEqual(why[later.path], "IMG_0002.JPG was taken 10.0 s apart (at most 2 s for one shot): imported as a photo of its own")
        XCTAssertTrue(report.summary(listingPassedOver: true).contains("not a RAW+JPEG pair: \(later.path): IMG_0002.JPG was taken 10.0 s apart"))
    }

    func testARawImportedBeforeItsJpegIsJoinedToItWhenTheJpegArrives() throws {
        let rawFile = try raw("IMG_0001.CR2", date: "2023:04:05 06:07:08")
        XCTAssertEqual(try importRoll().processed, 1)
        let rawID = try id(of: rawFile)
        XCTAssertEqual(libraryFiles(), ["Photos/2023/04/\(rawID).heic", "Thumbnails/2023/04/\(rawID).jpg"], "developed on its own first")

        let still = try jpeg("IMG_0001.JPG", date: "2023:04:05 06:07:08")
        let report = try importRoll()
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.rawOriginals, [.init(path: rawFile.path, sameAs: still.path, kept: true)])
        let jpegID = try id(of: still)
        XCTAssertEqual(libraryFiles(), ["Photos/2023/04/\(jpegID).cr2", "Photos/2023/04/\(jpegID).heic", "Thumbnails/2023/04/\(jpegID).jpg"],
                       "the RAW's own HEIC and thumbnail are gone; its bytes are kept under the JPEG's id")
        XCTAssertEqual(try Data(contentsOf: library.appendingPathComponent("Photos/2023/04/\(jpegID).cr2")), try Data(contentsOf: rawFile))
        XCTAssertTrue(try isGreen("Photos/2023/04/\(jpegID).heic"))

        let again = try importRoll()
        XCTAssertEqual(again.published, [])
        XCTAssertEqual(again.processed, 0)
    }

    func testARawArrivingAfterItsJpegJoinsTheJpegTheLibraryHas() throws {
        let still = try jpeg("IMG_0001.JPG", date: "2023:04:05 06:07:08")
        XCTAssertEqual(try importRoll().processed, 1)
        let rawFile = try raw("IMG_0001.CR2", date: "2023:04:05 06:07:07")
        let report = try importRoll()
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.skipped, 1, "the JPEG is done already")
        XCTAssertEqual(report.processed, 1)
        XCTAssertEqual(report.rawOriginals, [.init(path: rawFile.path, sameAs: still.path, kept: true)])
        let jpegID = try id(of: still)
        XCTAssertEqual(libraryFiles(), ["Photos/2023/04/\(jpegID).cr2", "Photos/2023/04/\(jpegID).heic", "Thumbnails/2023/04/\(jpegID).jpg"])
    }

    func testTheGalleryMarksThePairsPhotoRawPlusJpeg() throws {
        try raw("IMG_0001.CR2", date: "2023:04:05 06:07:08")
        try jpeg("IMG_0001.JPG", date: "2023:04:05 06:07:08")
        try raw("IMG_0002.CR2", date: "2023:04:05 08:00:00")
        XCTAssertEqual(try importRoll().failures, [])
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(path: ShippedPipeline.path("gallery"))
        let report = try Runner(pipeline: pipeline, settings: RunSettings(library: library, timeZone: TimeZone(identifier: "UTC")!, jobs: 2))
            .run(inputs: [library.appendingPathComponent("Photos")])
        XCTAssertEqual(report.failures, [])
        let page = try String(contentsOf: library.appendingPathComponent("gallery/2023-04.html"), encoding: .utf8)
        let details = page.components(separatedBy: "data-details=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        XCTAssertEqual(details.sorted(), ["Canon EOS Kiss X4", "RAW+JPEG · Canon EOS Kiss X4"], "two photos, the pair's marked")
    }

    func testSkipKeepsNoRawButStillTakesItAsThePairs() throws {
        let rawFile = try raw("IMG_0001.CR2", date: "2023:04:05 06:07:08")
        let still = try jpeg("IMG_0001.JPG", date: "2023:04:05 06:07:08")
        let report = try importRoll(rawOriginals: "skip")
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.rawOriginals, [.init(path: rawFile.path, sameAs: still.path, kept: false)])
        XCTAssertTrue(report.summary.contains("1 RAW of a RAW+JPEG pair not kept (raw-originals: skip)"), report.summary)
        let jpegID = try id(of: still)
        XCTAssertEqual(libraryFiles(), ["Photos/2023/04/\(jpegID).heic", "Thumbnails/2023/04/\(jpegID).jpg"])
        XCTAssertEqual(try importRoll(rawOriginals: "skip").published, [])

        // Keeping them afterwards copies the RAW in; the pair's photo is not made again.
        let kept = try importRoll()
        XCTAssertEqual(kept.published, ["Photos/2023/04/\(jpegID).cr2"])
    }
}
