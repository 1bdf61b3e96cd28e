import DarkroomCatalog
import DarkroomLibrary
import DarkroomTestSupport
import Foundation
import XCTest

/// `darkroom duplicates` on an imported library: the copies of a photo grouped with it and the
/// original kept, the different photo in no group; the thumbnails of photos imported without
/// fingerprints hashed once; the text, the JSON, the HTML report, `--move-to`, a missing catalog.
final class DuplicatesCommandTests: XCTestCase {
    /// The JSON's groups: kind, keep and the members' ids, paths and distances.
    func groups(_ json: String) throws -> [[String: Any]] {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json)
        return try XCTUnwrap(object["groups"] as? [[String: Any]], json)
    }

    /// Each group as `kind keep member,member,...` (members sorted): what it holds, without distances.
    func membership(_ json: String) throws -> [String] {
        try groups(json).map { group in
            let ids = (group["members"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }.sorted()
            return "\(group["kind"] as? String ?? "?") \(group["keep"] as? String ?? "?") \(ids.joined(separator: ","))"
        }
    }

    func testTheCopiesAreGroupedWithTheOriginalKeptAndTheThumbnailsAreHashedOnce() throws {
        let fixture = try DuplicatesFixture("dupes-json")
        try fixture.importRoll()
        XCTAssertEqual(try fixture.unhashed(), 0, "the import recorded every fingerprint")
        let imported = try fixture.duplicates(["--json"])
        XCTAssertEqual(imported.status, 0, imported.err)
        XCTAssertFalse(imported.err.contains("hashed"), imported.err)

        // A library imported before fingerprints were recorded: its thumbnails are hashed, once.
        try fixture.forgetFingerprints()
        let first = try fixture.duplicates(["--json"])
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertTrue(first.err.contains("hashed 5 thumbnails of photos imported before near-duplicate detection"), first.err)
        XCTAssertEqual(try fixture.unhashed(), 0, "the fingerprints are recorded in the catalog")
        XCTAssertEqual(try membership(first.out), try membership(imported.out), "the thumbnails group as the import's fingerprints do")
        let groups = try groups(first.out)
        XCTAssertEqual(groups.count, 1, first.out)
        let group = try XCTUnwrap(groups.first)
        XCTAssertEqual(group["kind"] as? String, "near-duplicate")
        XCTAssertEqual(group["keep"] as? String, try fixture.id(fixture.original), "the original: the largest, and the earliest")
        let members = try XCTUnwrap(group["members"] as? [[String: Any]])
        XCTAssertEqual(members.first?["id"] as? String, try fixture.id(fixture.original), "the kept photo comes first")
        XCTAssertEqual(members.first?["distance"] as? Int, 0)
        XCTAssertEqual(Set(members.compactMap { $0["id"] as? String }), Set(try ([fixture.original] + fixture.copies).map(fixture.id)))
        XCTAssertEqual(Set(members.compactMap { $0["path"] as? String }), Set(([fixture.original] + fixture.copies).map(\.path)))
        for member in members.dropFirst() {
            let distance = try XCTUnwrap(member["distance"] as? Int, "\(member)")
            XCTAssertTrue((0...8).contains(distance), "\(member)")
        }
        XCTAssertFalse(first.out.contains(try fixture.id(fixture.other)), "the different photo is in no group")

        let second = try fixture.duplicates(["--json"])
        XCTAssertEqual(second.status, 0, second.err)
        XCTAssertFalse(second.err.contains("hashed"), "nothing left to hash: \(second.err)")
        XCTAssertEqual(second.out, first.out)
    }

    func testTheTextNamesTheKeptPhotoAndWhyAndTheReportShowsEveryMember() throws {
        let fixture = try DuplicatesFixture("dupes-text")
        try fixture.importRoll()
        let report = fixture.folder.path("reports/dupes.html")
        try FileManager.default.createDirectory(at: report.deletingLastPathComponent(), withIntermediateDirectories: true)

        let result = try fixture.duplicates(["--report", report.path])
        XCTAssertEqual(result.status, 0, result.err)
        let lines = result.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.last, "1 near-duplicate group (3 copies), 0 bursts (0 frames)", result.out)
        // The re-saved copy has as many pixels: the original wins by its earlier time.
        XCTAssertEqual(lines.first, "near-duplicate: keep \(fixture.original.path) (earliest, 800 x 600)", result.out)
        for copy in fixture.copies {
            XCTAssertTrue(lines.contains { $0.hasPrefix("  distance ") && $0.contains(copy.path) }, "\(copy.lastPathComponent): \(result.out)")
        }
        XCTAssertTrue(result.out.contains("\(fixture.resized.path) (400 x 300)"), result.out)
        XCTAssertFalse(result.out.contains(fixture.other.path))

        let html = try String(contentsOf: report, encoding: .utf8)
        for photo in [fixture.original] + fixture.copies { XCTAssertTrue(html.contains(photo.path), photo.lastPathComponent) }
        XCTAssertFalse(html.contains(fixture.other.path))
        XCTAssertTrue(html.contains("keep: earliest"))
        // Every thumbnail is linked relative to the page, and is there.
        let sources = html.components(separatedBy: "<img src=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        XCTAssertEqual(sources.count, 4, html)
        for source in sources {
            XCTAssertTrue(source.hasPrefix("../library/Thumbnails/"), source)
            let file = report.deletingLastPathComponent().appendingPathComponent(source.removingPercentEncoding ?? source).standardizedFileURL
            XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), file.path)
        }
    }

    func testMoveToTakesTheCopiesFilesOutAndTheCatalogStaysVerified() throws {
        let fixture = try DuplicatesFixture("dupes-move")
        try fixture.importRoll()
        let target = fixture.folder.path("moved")
        let copyFiles = try fixture.copies.map(fixture.outputs)
        let kept = try fixture.outputs(of: fixture.original) + fixture.outputs(of: fixture.other)
        XCTAssertEqual(copyFiles.map(\.count), [2, 2, 2], "a HEIC and a thumbnail each")

        let result = try fixture.duplicates(["--move-to", target.path])
        XCTAssertEqual(result.status, 0, result.err)
        for (copy, files) in zip(fixture.copies, copyFiles) {
            XCTAssertTrue(result.out.contains("moved \(copy.path)'s library files to \(target.path):"), result.out)
            for file in files {
                XCTAssertTrue(result.out.contains("  \(file)"), result.out)
                XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.library.appendingPathComponent(file).path), file)
                XCTAssertTrue(FileManager.default.fileExists(atPath: target.appendingPathComponent(file).path), file)
            }
            XCTAssertEqual(try fixture.outputs(of: copy), [], "the catalog no longer lists them")
        }
        for file in kept { XCTAssertTrue(FileManager.default.fileExists(atPath: fixture.library.appendingPathComponent(file).path), file) }
        for photo in fixture.photos { XCTAssertTrue(FileManager.default.fileExists(atPath: photo.path), "originals stay") }

        let verify = try fixture.command.run(["catalog", "verify", "--library", fixture.library.path])
        XCTAssertEqual(verify.status, 0, verify.err)
        XCTAssertEqual(verify.out, "4 outputs checked: 0 missing, 0 changed, 0 untracked\n")

        // The next import finds the copies' work done: it does not make their files again.
        try fixture.importRollAgain()
        for files in copyFiles {
            for file in files { XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.library.appendingPathComponent(file).path), file) }
        }
        let again = try fixture.duplicates(["--move-to", target.path])
        XCTAssertEqual(again.status, 0, again.err)
        for copy in fixture.copies { XCTAssertTrue(again.out.contains("already out of the library: \(copy.path)"), again.out) }
        let listing = try fixture.duplicates([])
        for copy in fixture.copies {
            XCTAssertTrue(listing.out.contains("\(copy.path) ("), listing.out)
            XCTAssertTrue(listing.out.split(separator: "\n").contains { $0.contains(copy.path) && $0.hasSuffix(", moved out of the library") },
                          "the listing says the copy was moved out: \(listing.out)")
        }
        XCTAssertEqual(try fixture.command.run(["catalog", "verify", "--library", fixture.library.path]).out,
                       "4 outputs checked: 0 missing, 0 changed, 0 untracked\n")
    }

    func testAPhotoWithoutItsThumbnailIsNamedAndAMissingCatalogIsRefused() throws {
        let fixture = try DuplicatesFixture("dupes-missing")
        try fixture.importRoll()
        let thumbnail = try XCTUnwrap(try fixture.outputs(of: fixture.other).first { $0.hasPrefix("Thumbnails/") })
        try FileManager.default.removeItem(at: fixture.library.appendingPathComponent(thumbnail))
        try fixture.forgetFingerprints()
        let result = try fixture.duplicates()
        XCTAssertTrue(result.err.contains("hashed 4 thumbnails"), result.err)
        XCTAssertTrue(result.err.contains("no thumbnail to compare: \(fixture.other.path)"), result.err)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.hasSuffix("1 near-duplicate group (3 copies), 0 bursts (0 frames)\n"), result.out)

        let empty = fixture.folder.path("not-a-library")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let refused = try fixture.command.run(["duplicates", "--library", empty.path])
        XCTAssertEqual(refused.status, 2, refused.err)
        XCTAssertTrue(refused.err.contains("\(empty.path) has no catalog"), refused.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: empty.appendingPathComponent(".darkroom").path), "nothing is made in it")
    }

    func testSquareThumbnailsAreCropsAndAreNotCompared() throws {
        let fixture = try DuplicatesFixture("dupes-square", thumbnails: "square")
        try fixture.importRoll()
        let result = try fixture.duplicates()
        XCTAssertEqual(result.status, 0, result.err)
        for photo in fixture.photos {
            XCTAssertTrue(result.err.contains("\(photo.path): not compared: its thumbnail Thumbnails/"), result.err)
        }
        XCTAssertFalse(result.err.contains("hashed"), result.err)
        XCTAssertEqual(result.out, "0 near-duplicate groups (0 copies), 0 bursts (0 frames)\n")
    }
}
