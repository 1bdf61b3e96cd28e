import DarkroomCatalog
import DarkroomCore
import DarkroomLibrary
import DarkroomModel
import DarkroomStages
import DarkroomTestSupport
import Foundation
import GRDB
import XCTest

/// A camera roll of a corpus photo, three copies of it made with the vips CLI (re-saved at quality
/// 60 keeping its metadata; resized to 50 % and cropped by 3 %, as editors that drop it), and a
/// different photo, imported into a library by a small pipeline (exif-date, HEIC, thumbnail); the
/// thumbnail step records their fingerprints, which `forgetFingerprints` erases to make a library
/// imported before near-duplicate detection, whose thumbnails `darkroom duplicates` hashes itself.
final class DuplicatesFixture {
    let folder: TemporaryFolder
    var roll: URL { folder.path("roll") }
    var library: URL { folder.path("library") }
    let command: DarkroomCommand

    /// The original (800 x 600, a Nikon E950's, dated 2001), its copies, and another photo.
    let original: URL, resaved: URL, resized: URL, cropped: URL, other: URL
    var copies: [URL] { [resaved, resized, cropped] }
    var photos: [URL] { [original] + copies + [other] }

    /// The import, its thumbnails made in `mode`.
    static func pipeline(thumbnails mode: String) -> String {
        """
        steps:
          - exif-date
          - resize: { long-edge: 320 }
          - heic-encode: { quality: 30, preset: ultrafast, output: "Photos/{yyyy}/{MM}/{id}.heic" }
          - thumbnail: { size: 200, mode: \(mode), output: "Thumbnails/{yyyy}/{MM}/{id}.jpg" }
        """
    }

    let thumbnailMode: String

    init(_ label: String, thumbnails mode: String = "fit") throws {
        thumbnailMode = mode
        try NativeLibraries.start()
        folder = try TemporaryFolder(label)
        command = try DarkroomCommand(workingDirectory: folder.url)
        let roll = folder.path("roll")
        try FileManager.default.createDirectory(at: roll.appendingPathComponent("DCIM/100NIKON"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: roll.appendingPathComponent("edited"), withIntermediateDirectories: true)
        original = roll.appendingPathComponent("DCIM/100NIKON/DSCN0001.JPG")
        resaved = roll.appendingPathComponent("edited/DSCN0001-q60.jpg")
        resized = roll.appendingPathComponent("edited/DSCN0001-half.jpg")
        cropped = roll.appendingPathComponent("edited/DSCN0001-crop.jpg")
        other = roll.appendingPathComponent("DCIM/100NIKON/falcon.jpg")
        try FileManager.default.copyItem(at: try Corpus.file("exif-samples/jpg/exif-org/nikon-e950.jpg"), to: original)
        try FileManager.default.copyItem(at: try Corpus.file("immich-test-assets/albums/nature/prairie_falcon.jpg"), to: other)
        // The camera's files are older than the copies made from them.
        _ = try Fixtures.run("touch", ["-d", "2001-04-06 12:00:00", original.path, other.path])
        _ = try Fixtures.run("vips", ["copy", original.path, resaved.path + "[Q=60]"])
        _ = try Fixtures.run("vips", ["resize", original.path, resized.path + "[strip]", "0.5"])
        // 3 % off each side's length, centred: 776 x 582 of 800 x 600.
        _ = try Fixtures.run("vips", ["crop", original.path, cropped.path + "[strip]", "12", "9", "776", "582"])
    }

    /// Imports the roll in this process.
    func importRoll() throws {
        let file = folder.path("import.yaml")
        try Data(Self.pipeline(thumbnails: thumbnailMode).utf8).write(to: file)
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(path: file.path)
        let report = try Runner(pipeline: pipeline, settings: RunSettings(library: library, timeZone: TimeZone(identifier: "UTC")!, jobs: 2))
            .run(inputs: [roll])
        XCTAssertEqual(report.failed, 0, "\(report.failures)")
        XCTAssertEqual(report.processed, 5)
    }

    /// Runs the import again: everything is done already.
    func importRollAgain() throws {
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(path: folder.path("import.yaml").path)
        let report = try Runner(pipeline: pipeline, settings: RunSettings(library: library, timeZone: TimeZone(identifier: "UTC")!, jobs: 2))
            .run(inputs: [roll])
        XCTAssertEqual(report.failed, 0, "\(report.failures)")
        XCTAssertEqual(report.processed, 0, "nothing to do again")
    }

    /// `darkroom duplicates --library <library>` and `arguments`.
    func duplicates(_ arguments: [String] = []) throws -> (status: Int32, out: String, err: String) {
        try command.run(["duplicates", "--library", library.path] + arguments)
    }

    var catalog: Catalog { get throws { try Catalog(library: library) } }

    /// The catalog's record of the photo imported from `original`.
    func asset(_ original: URL) throws -> AssetFacts {
        try XCTUnwrap(try catalog.assets(.originalPath(original.path)).first, "\(original.lastPathComponent) is not in the catalog")
    }

    /// The content id of the photo imported from `original`, as the report names it.
    func id(_ original: URL) throws -> String { try asset(original).id.uuidString.lowercased() }

    /// The library paths of the photo's catalogued outputs, sorted.
    func outputs(of original: URL) throws -> [String] {
        try catalog.state(of: try asset(original).contentHash).outputs.map(\.path).sorted()
    }

    /// Erases every photo's similarity facts from the catalog, as in a library imported before the
    /// import recorded them.
    func forgetFingerprints() throws {
        let queue = try DatabaseQueue(path: library.appendingPathComponent(".darkroom/catalog.sqlite").path)
        try queue.write { try $0.execute(sql: "DELETE FROM similarity") }
        XCTAssertEqual(try unhashed(), photos.count)
    }

    /// How many photos the catalog holds no fingerprint for (nil: not computed).
    func unhashed() throws -> Int {
        let hashed = Set(try catalog.similarity(contentHashes: nil).filter { $0.facts.fingerprint != nil }.map(\.contentHash))
        return try photos.filter { !hashed.contains(try asset($0).contentHash) }.count
    }
}
