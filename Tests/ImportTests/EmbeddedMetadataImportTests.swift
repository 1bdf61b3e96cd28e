import DarkroomCatalog
import DarkroomCore
import DarkroomStages
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest
import DarkroomModel
import DarkroomReport

/// Issue 26: nothing the user made is lost in the library's HEICs. The photo's own XMP (whatever
/// its format), its IPTC-IIM and the capture date the catalog holds are read back by exiftool from
/// the HEIC the shipped import pipeline writes.
final class EmbeddedMetadataImportTests: XCTestCase {
    var folder: TemporaryFolder!
    var input: URL { folder.path("in") }
    var library: URL { folder.path("library") }

    override func setUpWithError() throws {
        folder = try TemporaryFolder("embedded-metadata")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    }

    /// The shipped pipeline (fast preset) over `input`.
    func importFolder() throws -> RunReport {
        let text = try ShippedPipeline.fastText()
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(yaml: text, file: ImportTests.pipelinePath)
        return try Runner(pipeline: pipeline, settings: RunSettings(library: library, timeZone: TimeZone(identifier: "UTC")!, jobs: 2))
            .run(inputs: [input])
    }

    /// The HEIC the import made of `original`, found through the catalog's record of it.
    func heic(of original: URL) throws -> URL {
        let outputs = try Catalog(library: library).state(of: try ContentHash.ofFile(original)).outputs.map(\.path)
        let path = try XCTUnwrap(outputs.first { $0.hasSuffix(".heic") }, "\(original.lastPathComponent) has no HEIC: \(outputs)")
        return library.appendingPathComponent(path)
    }

    /// exiftool's `-s -s` reading of `arguments` in a file: tag name to value (lists joined with ", ").
    func exiftool(_ url: URL, _ arguments: [String]) throws -> [String: String] {
        let out = try Fixtures.run("exiftool", ["-s", "-s", "-a"] + arguments + [url.path])
        var values: [String: String] = [:]
        for line in out.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, values[parts[0]] == nil { values[parts[0]] = parts[1] }
        }
        return values
    }

    /// What Lightroom, Apple Photos, digiKam and Picasa write into the file, people included.
    static let curated = ["-XMP-xmp:Rating=4", "-XMP-dc:Subject=beach", "-XMP-dc:Subject=holiday", "-XMP-dc:Title=Sunset at the pier",
                          "-XMP-dc:Description=Our last evening", "-XMP-iptcExt:PersonInImage=Ann"]
    static let curatedTags = ["-XMP:Rating", "-XMP:Subject", "-XMP:Title", "-XMP:Description", "-XMP:PersonInImage"]
    static let curatedValues = ["Rating": "4", "Subject": "beach, holiday", "Title": "Sunset at the pier",
                                "Description": "Our last evening", "PersonInImage": "Ann"]

    /// A JPEG with the user's rating, keywords, title, description and a person in its own XMP,
    /// and no sidecar: all of it is in the HEIC (issue 26: the HEIC had no XMP at all).
    func testAPhotosOwnXMPIsCarriedIntoTheHEIC() throws {
        let photo = input.appendingPathComponent("pier.jpg")
        try Fixtures.photo(photo, width: 96, height: 64, seed: 1, exif: ["-DateTimeOriginal=2021:07:04 20:15:00"] + Self.curated)
        XCTAssertEqual(try importFolder().failures, [])
        XCTAssertEqual(try exiftool(try heic(of: photo), Self.curatedTags), Self.curatedValues)
    }

    /// The same from every format the import takes that carries XMP: PNG, WebP, HEIC, AVIF (libvips
    /// 8.14 gives no XMP for HEIF files: it is read from the file's XMP item, for the HEIC and for
    /// the date) and TIFF (a scan).
    func testEveryInputFormatCarriesItsXMP() throws {
        let source = folder.path("source.png")
        try Fixtures.photo(source, width: 96, height: 64, seed: 2)
        var photos: [URL] = []
        for (index, ext) in ["png", "webp", "heic", "avif", "tif"].enumerated() {
            let photo = input.appendingPathComponent("photo-\(index).\(ext)")
            // Each a little different, so that none is a duplicate of another.
            try Fixtures.run("vips", ["linear", source.path, photo.path + (ext == "avif" ? "[compression=av1]" : ""), "1", "\(index)"])
            try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-XMP-photoshop:DateCreated=2022:02:0\(index + 1) 10:00:00+01:00"]
                             + Self.curated + [photo.path])
            photos.append(photo)
        }
        let report = try importFolder()
        XCTAssertEqual(report.failures, [])
        for (index, photo) in photos.enumerated() {
            let output = try heic(of: photo)
            XCTAssertEqual(try exiftool(output, Self.curatedTags), Self.curatedValues, photo.lastPathComponent)
            XCTAssertEqual(try exiftool(output, ["-EXIF:DateTimeOriginal", "-EXIF:OffsetTimeOriginal"]),
                           ["DateTimeOriginal": "2022:02:0\(index + 1) 10:00:00", "OffsetTimeOriginal": "+01:00"], photo.lastPathComponent)
        }
    }

    /// Older Picasa and Photoshop files keep keywords, caption and by-line in IPTC-IIM only: they
    /// reach the HEIC as `dc:subject`, `dc:description`, `dc:creator` (and the object name as `dc:title`).
    func testIPTCKeywordsCaptionAndByLineBecomeXMP() throws {
        let picasa = input.appendingPathComponent("picasa.jpg")
        try FileManager.default.copyItem(at: try Corpus.file("immich-test-assets/metadata/tags/picasa.jpg"), to: picasa)
        let photoshop = input.appendingPathComponent("photoshop.jpg")
        try Fixtures.photo(photoshop, width: 96, height: 64, seed: 3, exif: [
            "-IPTC:Keywords=Frost", "-IPTC:Keywords=Garden", "-IPTC:Caption-Abstract=Morning frost", "-IPTC:By-line=Ann Smith",
            "-IPTC:ObjectName=First frost", "-IPTC:CodedCharacterSet=UTF8"])
        XCTAssertEqual(try importFolder().failures, [])
        XCTAssertEqual(try exiftool(try heic(of: picasa), ["-XMP:Subject", "-XMP:Description"]),
                       ["Subject": "Frost, Yard", "Description": "Image-Description"], "keywords from IIM, the description from its XMP")
        XCTAssertEqual(try exiftool(try heic(of: photoshop), ["-XMP:Subject", "-XMP:Description", "-XMP:Creator", "-XMP:Title"]),
                       ["Subject": "Frost, Garden", "Description": "Morning frost", "Creator": "Ann Smith", "Title": "First frost"])
    }

    /// The catalog dated garden.webp from its XMP `photoshop:DateCreated` (2023-12-24 16:20 +01:00):
    /// its HEIC carries that date in EXIF and XMP, so other apps do not show it undated. A photo
    /// with a fraction of a second keeps it in SubSecTimeOriginal.
    func testTheHEICCarriesTheCatalogsCaptureDate() throws {
        let garden = input.appendingPathComponent("garden.webp")
        try FileManager.default.copyItem(at: ImportTests.samples.appendingPathComponent("Phone/garden.webp"), to: garden)
        let burst = input.appendingPathComponent("burst.jpg")
        try Fixtures.photo(burst, width: 96, height: 64, seed: 4, exif: [
            "-DateTimeOriginal=2024:03:15 09:30:00", "-SubSecTimeOriginal=25", "-OffsetTimeOriginal=-05:00"])
        XCTAssertEqual(try importFolder().failures, [])
        let dates = ["-EXIF:DateTimeOriginal", "-EXIF:OffsetTimeOriginal", "-EXIF:SubSecTimeOriginal",
                     "-XMP-exif:DateTimeOriginal", "-XMP-xmp:CreateDate", "-XMP-photoshop:DateCreated"]
        XCTAssertEqual(try exiftool(try heic(of: garden), dates), [
            "DateTimeOriginal": "2023:12:24 16:20:00", "OffsetTimeOriginal": "+01:00",
            "CreateDate": "2023:12:24 16:20:00+01:00", "DateCreated": "2023:12:24 16:20:00+01:00",
        ])
        XCTAssertEqual(try exiftool(try heic(of: garden), ["-XMP-exif:DateTimeOriginal"]), ["DateTimeOriginal": "2023:12:24 16:20:00+01:00"])
        XCTAssertEqual(try exiftool(try heic(of: burst), ["-EXIF:DateTimeOriginal", "-EXIF:OffsetTimeOriginal", "-EXIF:SubSecTimeOriginal",
                                                          "-XMP-xmp:CreateDate"]),
                       ["DateTimeOriginal": "2024:03:15 09:30:00", "OffsetTimeOriginal": "-05:00", "SubSecTimeOriginal": "25",
                        "CreateDate": "2024:03:15 09:30:00.25-05:00"])
    }

    /// Faces named in MWG regions follow the stored pixels; the HEIC's pixels are upright, so a
    /// photo with orientation 6 has its regions turned with them: the same as the upright copy's.
    /// What describes the original's bytes (its orientation, an Ultra HDR directory of appended
    /// items) is not carried.
    func testFaceRegionsTurnWithThePixelsAndFileStructureIsLeftOut() throws {
        let turned = input.appendingPathComponent("portrait-6.jpg")
        try FileManager.default.copyItem(at: try Corpus.file("immich-test-assets/metadata/faces/portrait-orientation-6.jpg"), to: turned)
        let ultraHDR = input.appendingPathComponent("google.jpg")
        try FileManager.default.copyItem(at: try Corpus.file("exiftool-t-images/t/images/Google.jpg"), to: ultraHDR)
        XCTAssertEqual(try importFolder().failures, [])
        let upright = try exiftool(try Corpus.file("immich-test-assets/metadata/faces/portrait.jpg"), ["-RegionAreaX", "-RegionAreaY"])
        let regions = try exiftool(try heic(of: turned), ["-RegionName", "-RegionAreaX", "-RegionAreaY", "-RegionAreaW", "-RegionAreaH",
                                                          "-RegionAppliedToDimensionsW", "-RegionAppliedToDimensionsH", "-TagsList",
                                                          "-RegionPersonDisplayName", "-XMP-tiff:Orientation"])
        XCTAssertEqual(regions, ["RegionName": "Marie Curie, Pierre Curie", "RegionAreaX": upright["RegionAreaX"]!,
                                 "RegionAreaY": upright["RegionAreaY"]!, "RegionAreaW": "0.113095, 0.096429", "RegionAreaH": "0.198571, 0.241429",
                                 "RegionAppliedToDimensionsW": "840", "RegionAppliedToDimensionsH": "700",
                                 "TagsList": "People/Marie Curie, People/Pierre Curie", "RegionPersonDisplayName": "Marie Curie, Pierre Curie"])
        let google = try exiftool(try heic(of: ultraHDR), ["-XMP:all"])
        XCTAssertNil(google["DirectoryItemSemantic"], "the gain map is not in the HEIC: \(google)")
    }
}
