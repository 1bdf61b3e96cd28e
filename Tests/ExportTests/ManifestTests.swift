import DarkroomTestSupport
import Foundation
import XCTest

/// `darkroom catalog export`: every asset with what the library knows of it, as JSON and CSV.
final class ManifestTests: XCTestCase {
    func testJSONAndCSVListEveryAssetWithItsDatePlaceRatingAndPairs() throws {
        let fixture = try ExportFixture("export-manifest")
        let samples = ShippedPipeline.repository.appendingPathComponent("samples/camera-roll/Phone")
        for name in ["IMG_4520.HEIC", "IMG_4520.MOV"] {
            try FileManager.default.copyItem(at: samples.appendingPathComponent(name), to: fixture.roll.appendingPathComponent(name))
        }
        let photo = try fixture.photo("DCIM/IMG_0001.JPG", date: "2024:05:01 18:30:12", seed: 1)
        try fixture.sidecar(of: photo, rating: 5, keywords: ["beach", "a, b"], title: "Dune \"2\"")
        try fixture.importRoll()

        let result = try fixture.command.run(["catalog", "export", "--library", fixture.library.path, "--json"])
        XCTAssertEqual(result.status, 0, result.err)
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [[String: Any]])
        XCTAssertEqual(entries.count, 3)
        let byName = Dictionary(uniqueKeysWithValues: entries.map { (URL(fileURLWithPath: $0["originalPath"] as! String).lastPathComponent, $0) })
        let canon = try XCTUnwrap(byName["IMG_0001.JPG"])
        XCTAssertEqual(canon["id"] as? String, try fixture.asset(photo).id.uuidString.lowercased())
        XCTAssertEqual(canon["captureDate"] as? String, "2024-05-01T18:30:12+02:00")
        XCTAssertEqual(canon["dateSource"] as? String, "exif:DateTimeOriginal")
        XCTAssertEqual(canon["timeZoneSource"] as? String, "metadata")
        XCTAssertEqual(canon["camera"] as? String, "Canon EOS 5D")
        XCTAssertEqual(canon["latitude"] as? Double ?? 0, 48.8582, accuracy: 0.0001)
        XCTAssertEqual(canon["rating"] as? Int, 5)
        XCTAssertEqual(canon["keywords"] as? [String], ["beach", "a, b"])
        XCTAssertEqual(canon["title"] as? String, "Dune \"2\"")
        XCTAssertEqual((canon["libraryFiles"] as? [String])?.count, 2, "the HEIC and the thumbnail")
        let still = try XCTUnwrap(byName["IMG_4520.HEIC"]), video = try XCTUnwrap(byName["IMG_4520.MOV"])
        XCTAssertEqual(still["livePhotoVideo"] as? String, video["id"] as? String)
        XCTAssertEqual(video["livePhotoStill"] as? String, still["id"] as? String)
        XCTAssertEqual(video["kind"] as? String, "video")

        let csv = try fixture.command.run(["catalog", "export", "--library", fixture.library.path, "--csv"])
        XCTAssertEqual(csv.status, 0, csv.err)
        let rows = try Fixtures.run("python3", ["-c", """
            import csv, json, sys
            print(json.dumps(list(csv.DictReader(open(sys.argv[1], newline='')))))
            """, try Self.write(csv.out, in: fixture)])
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(rows.utf8)) as? [[String: String]])
        XCTAssertEqual(parsed.count, 3)
        let row = try XCTUnwrap(parsed.first { $0["original_path"] == photo.path })
        XCTAssertEqual(row["keywords"], "beach; a, b")
        XCTAssertEqual(row["title"], "Dune \"2\"")
        XCTAssertEqual(row["capture_date"], "2024-05-01T18:30:12+02:00")
        XCTAssertEqual(row["rating"], "5")
    }

    private static func write(_ text: String, in fixture: ExportFixture) throws -> String {
        let url = fixture.folder.path("manifest.csv")
        try Data(text.utf8).write(to: url)
        return url.path
    }
}
