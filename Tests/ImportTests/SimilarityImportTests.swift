import DarkroomCatalog
import DarkroomCore
import DarkroomExplain
import DarkroomLibrary
import DarkroomModel
import DarkroomReport
import DarkroomSimilarity
import DarkroomStages
import DarkroomTestSupport
import Foundation
import XCTest

/// What the import records for near-duplicates and bursts, through the shipped import pipeline: the
/// thumbnail's fingerprint and sharpness (a corpus photo, its copy re-saved by the vips CLI at quality
/// 60 and half the size, a blurred copy, a different photo, a 16-pixel one), and the burst marks cameras write
/// (Google Camera's XMP written by exiftool, Apple's maker note built byte by byte and written by
/// exiftool); a re-run that does not make thumbnails keeps them.
final class SimilarityImportTests: XCTestCase {
    var folder: TemporaryFolder!
    var roll: URL { folder.path("roll") }
    var library: URL { folder.path("library") }
    static let appleBurst = "0C5E2C1A-7F3B-4E0D-9A61-2B8F4D6E1C35"
    static let googleBurst = "b9b16484-0edd-4836-b95b-9230a77d2139"

    override func setUpWithError() throws {
        try NativeLibraries.start()
        for tool in ["vips", "exiftool", "convert"] { try Prerequisite.require(tool: tool) }
        folder = try TemporaryFolder("similarity-import")
        try FileManager.default.createDirectory(at: roll, withIntermediateDirectories: true)
    }

    var settings: RunSettings { RunSettings(library: library, timeZone: TimeZone(identifier: "UTC")!, jobs: 2) }

    func pipeline(yaml: String? = nil) throws -> Pipeline {
        try PipelineLoader(registry: BuiltInStages.registry).load(yaml: try yaml ?? ShippedPipeline.fastText(),
                                                                  file: ShippedPipeline.path("import-camera-roll"))
    }

    func importRoll(yaml: String? = nil) throws -> RunReport {
        try Runner(pipeline: try pipeline(yaml: yaml), settings: settings).run(inputs: [roll])
    }

    /// The catalog's similarity facts by file (`files`' content hashes).
    func recorded(_ files: [String: URL]) throws -> [String: SimilarityFacts] {
        let catalog = try XCTUnwrap(try Catalog.openReadOnly(library: library))
        let rows = Dictionary(try catalog.similarity().map { ($0.contentHash, $0.facts) }, uniquingKeysWith: { first, _ in first })
        return try files.compactMapValues { rows[try ContentHash.ofFile($0)] }
    }

    func fingerprint(_ facts: SimilarityFacts?, _ name: String) throws -> SimilarityFingerprint {
        let bytes = try XCTUnwrap(facts?.fingerprint, "\(name) has a fingerprint")
        XCTAssertEqual(bytes.count, SimilarityFingerprint.storedLength, name)
        return try SimilarityFingerprint(storedBytes: bytes)
    }

    /// A photographic-looking 640x480 JPEG taken at `time` on 2024-05-06, with `exif` arguments for exiftool.
    func frame(_ name: String, seed: Int, time: String, exif: [String]) throws -> URL {
        let url = roll.appendingPathComponent(name)
        try Fixtures.photo(url, width: 640, height: 480, seed: seed, exif: ["-DateTimeOriginal=2024:05:06 \(time)"] + exif)
        return url
    }

    func testTheImportRecordsFingerprintsSharpnessAndBurstMarksAndARerunKeepsThem() throws {
        var files: [String: URL] = [:]
        files["original"] = roll.appendingPathComponent("falcon.jpg")
        try FileManager.default.copyItem(at: try Corpus.file("immich-test-assets/albums/nature/prairie_falcon.jpg"), to: files["original"]!)
        files["copy"] = roll.appendingPathComponent("falcon-small.jpg")
        try Fixtures.run("vips", ["resize", files["original"]!.path, files["copy"]!.path + "[Q=60]", "0.5"])
        files["different"] = roll.appendingPathComponent("ridge.jpg")
        try FileManager.default.copyItem(at: try Corpus.file("immich-test-assets/albums/nature/tanners_ridge.jpg"), to: files["different"]!)
        files["blurred"] = roll.appendingPathComponent("falcon-blurred.jpg")
        try Fixtures.run("vips", ["gaussblur", files["original"]!.path, files["blurred"]!.path + "[Q=90]", "6"])
        files["tiny"] = roll.appendingPathComponent("falcon-tiny.jpg")
        try Fixtures.run("vips", ["resize", files["original"]!.path, files["tiny"]!.path, "0.02"])
        XCTAssertEqual(try Fixtures.run("vipsheader", ["-f", "width", files["tiny"]!.path]), "16\n")

        let google = ["-Make=Google", "-Model=Pixel 3", "-XMP-GCamera:BurstID=\(Self.googleBurst)"]
        files["cover"] = try frame("00001IMG_00001.jpg", seed: 1, time: "10:00:00", exif: google + ["-XMP-GCamera:BurstPrimary=1"])
        files["frame"] = try frame("00000IMG_00000.jpg", seed: 2, time: "10:00:00", exif: google + ["-XMP-GCamera:BurstPrimary=0"])
        let note = folder.path("makernote.bin")
        try AppleMakerNoteFixture.bytes(burst: Self.appleBurst, contentIdentifier: "570F1469-09C7-4E50-9875-05F21D5BD166").write(to: note)
        files["apple"] = try frame("IMG_0001.JPG", seed: 3, time: "11:00:00", exif: ["-Make=Apple", "-Model=iPhone 15", "-MakerNotes<=\(note.path)"])
        XCTAssertEqual(try Fixtures.run("exiftool", ["-s3", "-BurstUUID", files["apple"]!.path]), Self.appleBurst + "\n",
                       "exiftool reads back the maker note it wrote")

        let report = try importRoll()
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.warnings, [])
        XCTAssertEqual(report.processed, files.count)
        let facts = try recorded(files)
        XCTAssertEqual(Set(facts.keys), Set(files.keys), "every photo has a row")

        let original = try fingerprint(facts["original"], "original")
        let copy = try fingerprint(facts["copy"], "copy")
        let different = try fingerprint(facts["different"], "different")
        let distance = try XCTUnwrap(original.nearDuplicateDistance(to: copy), "the re-saved half-size copy is a near-duplicate")
        XCTAssertLessThanOrEqual(distance, SimilarityFingerprint.maximumDistance)
        XCTAssertNil(original.nearDuplicateDistance(to: different), "a different photo is not")
        XCTAssertNil(copy.nearDuplicateDistance(to: different))
        XCTAssertEqual(facts["tiny"]?.fingerprint, [], "a 16-pixel photo's thumbnail is too small to hash")
        for (name, photo) in facts {
            let sharpness = try XCTUnwrap(photo.sharpness, "\(name) has a sharpness")
            XCTAssertGreaterThan(sharpness, 0, name)
        }
        let (sharp, blurred) = (try XCTUnwrap(facts["original"]?.sharpness), try XCTUnwrap(facts["blurred"]?.sharpness))
        XCTAssertLessThan(blurred, sharp / 2, "the blurred copy's thumbnail is less sharp (the pick of a burst is the sharpest)")

        XCTAssertEqual(facts["cover"]?.burst, BurstMark(source: .google, identifier: Self.googleBurst, isPrimary: true))
        XCTAssertEqual(facts["frame"]?.burst, BurstMark(source: .google, identifier: Self.googleBurst, isPrimary: false))
        XCTAssertEqual(facts["apple"]?.burst, BurstMark(source: .apple, identifier: Self.appleBurst))
        for name in ["original", "copy", "blurred", "different", "tiny"] { XCTAssertNil(facts[name]?.burst, name) }

        // darkroom explain shows both what exif-date reads now and what the catalog holds.
        let catalog = try XCTUnwrap(try Catalog.openReadOnly(library: library))
        var explained = try ExplainReport.recorded(files["cover"]!.path, in: library, catalog: catalog)
        try explained.decide(pipeline: try pipeline(), settings: settings)
        XCTAssertTrue(explained.text.contains("\n  burst:      google \(Self.googleBurst) (the burst's primary)\n"), explained.text)
        let similarityLine = try XCTUnwrap(explained.text.split(separator: "\n").first { $0.hasPrefix("  similarity: ") }, explained.text)
        XCTAssertTrue(similarityLine.hasPrefix("  similarity: fingerprint stored, sharpness "), String(similarityLine))
        XCTAssertTrue(similarityLine.hasSuffix(", burst google \(Self.googleBurst) (the burst's primary)"), String(similarityLine))
        let tiny = try ExplainReport.recorded(files["tiny"]!.path, in: library, catalog: catalog)
        XCTAssertTrue(tiny.text.contains("  similarity: fingerprint none (too small or featureless), sharpness "), tiny.text)

        // A re-run that redoes the HEICs (exif-date runs again, the thumbnail step does not) keeps every fact.
        let yaml = try ShippedPipeline.fastText()
        XCTAssertTrue(yaml.contains("quality: 50"))
        let again = try importRoll(yaml: yaml.replacingOccurrences(of: "quality: 50", with: "quality: 51"))
        XCTAssertEqual(again.failures, [])
        XCTAssertEqual(again.processed, files.count)
        XCTAssertFalse(again.published.isEmpty)
        XCTAssertEqual(again.published.filter { $0.hasPrefix("Thumbnails/") }, [], "no thumbnail made again")
        XCTAssertEqual(try recorded(files), facts, "nothing erased")
    }

    func testASquareThumbnailRecordsNoFingerprintButTheBurstMark() throws {
        let cover = try frame("00001IMG_00001.jpg", seed: 1, time: "10:00:00",
                              exif: ["-XMP-GCamera:BurstID=\(Self.googleBurst)", "-XMP-GCamera:BurstPrimary=1"])
        let report = try importRoll(yaml: """
            inputs:
              include: ["**/*.jpg"]
            steps:
              - exif-date:
                  fallback-to-file-time: true
              - thumbnail:
                  mode: square
                  output: "Thumbnails/{yyyy}/{MM}/{id}.jpg"
            """)
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.published.count, 1)
        let facts = try recorded(["cover": cover])
        XCTAssertEqual(facts["cover"], SimilarityFacts(burst: BurstMark(source: .google, identifier: Self.googleBurst, isPrimary: true)),
                       "a cropped square is not the photo: no fingerprint, no sharpness")
    }
}
