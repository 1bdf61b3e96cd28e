import DarkroomCatalog
import DarkroomCore
import DarkroomStages
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest
import DarkroomModel
import DarkroomReport

/// A Google Takeout export imported with the shipped pipeline: a year folder and an album, JSON
/// sidecars under every naming Takeout has used, photos whose own dates agree with their JSON,
/// disagree, or are missing, and every file's modification time the export day.
final class TakeoutImportTests: XCTestCase {
    /// One photo of the export: its file, its JSON (nil: none), the EXIF date written into it (nil:
    /// none), the instant and place in the JSON, and the month folder it must land in.
    struct Photo {
        var folder: String
        var name: String
        var json: String?
        var exif: String?
        var taken: Int
        var geo: (Double, Double)? = nil
        var month: String
        var source: CaptureDate.Source
    }

    static let exportDay = LocalDateTime(year: 2024, month: 6, day: 1, hour: 12)!.instant(utcOffsetSeconds: 0)
    static let year = "Takeout/Google Photos/Photos from 2019"
    static let album = "Takeout/Google Photos/Trip to Kyoto"

    static let photos: [Photo] = [
        // The file's own date agrees with the JSON's instant (19:00 in Tokyo is 10:00Z): the file's wall clock stands.
        Photo(folder: year, name: "IMG_0001.JPG", json: "IMG_0001.JPG.json", exif: "2019:03:01 19:00:00", taken: 1_551_434_400,
              month: "2019/03", source: .exifOriginal),
        // A date corrected in Google Photos: the camera said 2015, the JSON 2019-04-10.
        Photo(folder: year, name: "IMG_0002.jpg", json: "IMG_0002.jpg.supplemental-metadata.json", exif: "2015:01:01 10:00:00",
              taken: 1_554_890_400, month: "2019/04", source: .takeout),
        // No date of its own: the JSON's, named without the extension.
        Photo(folder: year, name: "IMG_0003.jpg", json: "IMG_0003.json", exif: nil, taken: 1_557_482_400, month: "2019/05", source: .takeout),
        // A duplicate's counter moved after the name.
        Photo(folder: year, name: "IMG_0004(1).jpg", json: "IMG_0004.jpg(1).json", exif: nil, taken: 1_560_160_800,
              month: "2019/06", source: .takeout),
        // An edited copy shares its original's JSON.
        Photo(folder: year, name: "IMG_0005.jpg", json: "IMG_0005.jpg.json", exif: nil, taken: 1_562_752_800, month: "2019/07", source: .takeout),
        Photo(folder: year, name: "IMG_0005-edited.jpg", json: nil, exif: nil, taken: 1_562_752_800, month: "2019/07", source: .takeout),
        // A long name, its JSON's name cut to 46 characters.
        Photo(folder: year, name: "a_very_long_file_name_from_a_messenger_app_0001.jpg", json: "a_very_long_file_name_from_a_messenger_app_000.json",
              exif: nil, taken: 1_565_431_200, month: "2019/08", source: .takeout),
        // `.supplemental-metadata` cut short; the file name's date agrees with the JSON.
        Photo(folder: year, name: "PXL_20190902_111111111.NIGHT.jpg", json: "PXL_20190902_111111111.NIGHT.jpg.supplemental-.json",
              exif: nil, taken: 1_567_422_671, month: "2019/09", source: .filename),
        // A zero EXIF date: the JSON's.
        Photo(folder: year, name: "IMG_0011.jpg", json: "IMG_0011.jpg.json", exif: "0000:00:00 00:00:00", taken: 1_572_606_000,
              month: "2019/11", source: .takeout),
        // 20:00Z on New Year's Eve, taken in Tokyo (geoData): 05:00 on 1 January 2020 there.
        Photo(folder: year, name: "IMG_0012.jpg", json: "IMG_0012.jpg.json", exif: nil, taken: 1_577_822_400, geo: (35.6895, 139.6917),
              month: "2020/01", source: .takeout),
        // No JSON at all: dated by its own EXIF, and listed.
        Photo(folder: year, name: "IMG_0008.jpg", json: nil, exif: "2019:10:05 08:00:00", taken: 0, month: "2019/10", source: .exifOriginal),
        // The album holds the same photo as the year folder, with its own JSON.
        Photo(folder: album, name: "IMG_0001.JPG", json: "IMG_0001.JPG.json", exif: "2019:03:01 19:00:00", taken: 1_551_434_400,
              month: "2019/03", source: .exifOriginal),
    ]

    var folder: TemporaryFolder!
    var input: URL { folder.path("in") }
    var library: URL { folder.path("library") }

    override func setUpWithError() throws {
        folder = try TemporaryFolder("takeout-import")
        try Self.makeExport(at: input)
    }

    /// Writes the export: distinct small JPEGs (the album's IMG_0001.JPG a copy of the year's), EXIF
    /// dates by one exiftool run, the JSON sidecars, the album's metadata.json, every mtime the export day.
    static func makeExport(at input: URL) throws {
        var exiftool: [String] = []
        for (number, photo) in photos.enumerated() {
            let url = input.appendingPathComponent(photo.folder).appendingPathComponent(photo.name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if photo.folder != album {
                try Fixtures.solid(url, colour: Colour(red: 200, green: 120, blue: 40), width: 64, height: 48, number: number + 1)
                if let exif = photo.exif { exiftool += ["-q", "-overwrite_original", "-DateTimeOriginal#=\(exif)", url.path, "-execute"] }
            }
            if let json = photo.json {
                let geo = photo.geo.map { #", "geoData": {"latitude": \#($0.0), "longitude": \#($0.1), "altitude": 0}"# } ?? ""
                let text = #"{"title": "\#(photo.name)", "photoTakenTime": {"timestamp": "\#(photo.taken)"}\#(geo)}"#
                try Data(text.utf8).write(to: url.deletingLastPathComponent().appendingPathComponent(json))
            }
        }
        let arguments = input.appendingPathComponent("exiftool.args")
        try Data(exiftool.dropLast().joined(separator: "\n").utf8).write(to: arguments)
        try Fixtures.run("exiftool", ["-@", arguments.path])
        try FileManager.default.removeItem(at: arguments)
        for photo in photos where photo.folder == album {
            try FileManager.default.copyItem(at: input.appendingPathComponent(year).appendingPathComponent(photo.name),
                                             to: input.appendingPathComponent(album).appendingPathComponent(photo.name))
        }
        try Data(#"{"title": "Trip to Kyoto"}"#.utf8).write(to: input.appendingPathComponent(album).appendingPathComponent("metadata.json"))
        let files = FileManager.default.enumerator(at: input, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files { try FileManager.default.setAttributes([.modificationDate: exportDay], ofItemAtPath: file.path) }
    }

    func pipeline() throws -> Pipeline {
        try PipelineLoader(registry: BuiltInStages.registry).load(yaml: try ShippedPipeline.fastText(), file: ImportTests.pipelinePath)
    }

    func importExport() throws -> RunReport {
        try Runner(pipeline: try pipeline(), settings: RunSettings(library: library, timeZone: TimeZone(identifier: "UTC")!, jobs: 2))
            .run(inputs: [input])
    }

    func path(_ photo: Photo) -> String { input.appendingPathComponent(photo.folder).appendingPathComponent(photo.name).path }

    func id(_ photo: Photo) throws -> String {
        ContentHash.uuid(fromHex: try ContentHash.ofFile(URL(fileURLWithPath: path(photo)))).uuidString.lowercased()
    }

    func testEveryPhotoLandsInTheMonthItsJSONOrEXIFSaysNoneOnTheExportDay() throws {
        let report = try importExport()
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed, Self.photos.count - 1)
        XCTAssertEqual(report.duplicateFiles.count, 1, "the album's copy is the year folder's photo")
        let heics = report.published.filter { $0.hasSuffix(".heic") }
        XCTAssertFalse(heics.contains { $0.hasPrefix("Photos/2024/06/") }, "nothing is filed on the export day: \(heics)")
        let catalog = try Catalog(library: library)
        for photo in Self.photos where photo.folder == Self.year {
            let id = try id(photo)
            XCTAssertTrue(heics.contains("Photos/\(photo.month)/\(id).heic"), "\(photo.name) in \(photo.month): \(heics)")
            let hash = try ContentHash.ofFile(URL(fileURLWithPath: path(photo)))
            XCTAssertEqual(try catalog.rememberedFacts(contentHash: hash)?.captureDate?.source, photo.source, photo.name)
        }

        // Provenance: which source decided, and that the other disagreed or agreed.
        let corrected = try catalog.rememberedFacts(contentHash: try ContentHash.ofFile(URL(fileURLWithPath: path(Self.photos[1]))))?.captureDate
        XCTAssertEqual(corrected?.notes?.first?.hasPrefix("DateTimeOriginal 2015-01-01T10:00:00+00:00 disagrees with Google Takeout's date by 1560 days"),
                       true, "\(corrected?.notes ?? [])")
        let agreed = try catalog.rememberedFacts(contentHash: try ContentHash.ofFile(URL(fileURLWithPath: path(Self.photos[0]))))?.captureDate
        XCTAssertEqual(agreed?.local.description, "2019-03-01T19:00:00")
        XCTAssertEqual(agreed?.notes, ["Google Takeout's date 2019-03-01T10:00:00Z agrees (within 14 h): the file's wall-clock time and offset are kept"])
        let tokyo = try catalog.rememberedFacts(contentHash: try ContentHash.ofFile(URL(fileURLWithPath: path(Self.photos[9]))))?.captureDate
        XCTAssertEqual(tokyo?.description, "2020-01-01T05:00:00+09:00 (takeout:photoTakenTime, tz: gps)")

        // Sidecars read and accounted for; the photo without one listed; the album's metadata passed over.
        let jsons = Set(Self.photos.compactMap { photo in photo.json.map { input.appendingPathComponent(photo.folder).appendingPathComponent($0).path } })
        XCTAssertEqual(Set(report.sidecars.map(\.path)), jsons)
        XCTAssertEqual(report.sidecars.first { $0.of.hasSuffix("IMG_0005-edited.jpg") }?.path.hasSuffix("IMG_0005.jpg.json"), true)
        XCTAssertEqual(report.withoutSidecar, ["Google Takeout JSON": [path(Self.photos[10])]])
        XCTAssertEqual(report.passedOver.map(\.kind), ["Takeout album metadata file"])
        XCTAssertEqual(report.found, Self.photos.count + jsons.count + 1, "photos, their sidecars and the album's metadata")
        let summary = report.summary.split(separator: "\n").map(String.init)
        XCTAssertTrue(summary[0].contains("\(jsons.count) sidecars read, 1 passed over: 1 Takeout album metadata file"), summary[0])
        XCTAssertTrue(summary.contains("  1 photo without a Google Takeout JSON, dated from its own metadata:"), "\(summary)")

        // Nothing is done twice.
        let again = try importExport()
        XCTAssertEqual(again.processed, 0)
        XCTAssertEqual(again.skipped, Self.photos.count - 1)
    }

    func testAnEditedSidecarDatesItsPhotoAgainAndMovesIt() throws {
        XCTAssertEqual(try importExport().failures, [])
        let photo = Self.photos[2]
        let id = try id(photo)
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.appendingPathComponent("Photos/2019/05/\(id).heic").path))
        let json = input.appendingPathComponent(photo.folder).appendingPathComponent(photo.json!)
        try Data(#"{"title": "IMG_0003.jpg", "photoTakenTime": {"timestamp": "1518000000"}}"#.utf8).write(to: json)  // 2018-02-07

        let report = try importExport()
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed, 1, "only the photo whose sidecar changed")
        XCTAssertEqual(Set(report.published), ["Photos/2018/02/\(id).heic", "Thumbnails/2018/02/\(id).jpg"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.appendingPathComponent("Photos/2019/05/\(id).heic").path),
                       "the copy at the old date is gone")
    }
}
