import DarkroomCore
import DarkroomCatalog
import DarkroomStages
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest
import DarkroomReport

/// Regenerating thumbnails of an imported library, and of a plain folder tree: only stale work.
final class RegenerateTests: XCTestCase {
    var folder: TemporaryFolder!
    var library: URL { folder.path("library") }

    override func setUpWithError() throws {
        try NativeLibraries.start()
        folder = try TemporaryFolder("regenerate")
        try FileManager.default.copyItem(at: ImportTests.samples, to: folder.path("roll"))
    }

    func load(_ name: String, _ edit: (String) -> String = { $0 }) throws -> Pipeline {
        try PipelineLoader(registry: BuiltInStages.registry).load(yaml: edit(try ShippedPipeline.fastText(name)), file: ShippedPipeline.path(name))
    }

    func run(_ pipeline: Pipeline, _ inputs: URL..., force: Bool = false, photosReadAhead: Int? = nil) throws -> RunReport {
        var settings = RunSettings(library: library, timeZone: TimeZone(identifier: "UTC")!, jobs: 2, force: force)
        if let photosReadAhead { settings.photosReadAhead = photosReadAhead }
        return try Runner(pipeline: pipeline, settings: settings).run(inputs: inputs)
    }

    /// An imported library's own files: its photos and its videos.
    var libraryMedia: [URL] { [library.appendingPathComponent("Photos"), library.appendingPathComponent("Videos")] }

    /// The shipped pipeline writing the import's own thumbnail paths at `size`.
    func regenerate(size: Int) throws -> Pipeline {
        try load("regenerate-thumbnails") {
            $0.replacingOccurrences(of: "sizes: [200, 1024]", with: "size: \(size)")
              .replacingOccurrences(of: "Thumbnails/{size}/{dir}/{name}.{ext}.jpg", with: "Thumbnails/{dir}/{name}.jpg")
        }
    }

    func testRebuildsAnImportedLibrarysThumbnailsFromItsPhotosOnlyWhenStale() throws {
        let imported = try run(try load("import-camera-roll"), folder.path("roll"))
        let thumbnails = Set(imported.published.filter { $0.hasPrefix("Thumbnails/") })
        let photos = imported.published.filter { $0.hasPrefix("Photos/") }
        let photoStamps = try photos.map { try FileManager.default.attributesOfItem(atPath: library.appendingPathComponent($0).path)[.modificationDate] as? Date }

        let first = try run(try regenerate(size: 256), libraryMedia[0], libraryMedia[1])
        XCTAssertEqual(first.failures, [])
        XCTAssertEqual(Set(first.published), thumbnails, "the same paths and ids as the import, a video's poster too")
        XCTAssertEqual(first.passedOver.map(\.kind), ["motion part"], "the Live Photo's MOV beside its still gets no thumbnail")
        for path in thumbnails {
            let image = try Image.open(library.appendingPathComponent(path).path)
            XCTAssertEqual(max(image.width, image.height), 256, path)
        }

        let again = try run(try regenerate(size: 256), libraryMedia[0], libraryMedia[1])
        XCTAssertEqual(again.skipped, 8)
        XCTAssertEqual(again.published, [], "nothing changed: nothing decoded, nothing written")

        let resized = try run(try regenerate(size: 300), libraryMedia[0], libraryMedia[1])
        XCTAssertEqual(resized.processed, 8)
        XCTAssertEqual(try photos.map { try FileManager.default.attributesOfItem(atPath: library.appendingPathComponent($0).path)[.modificationDate] as? Date },
                       photoStamps, "the photos themselves are never rewritten")

        // The library stays one library: the import still sees its work as done.
        let reimport = try run(try load("import-camera-roll"), folder.path("roll"))
        XCTAssertEqual(reimport.processed, 0)
        XCTAssertEqual(reimport.published, [])
        XCTAssertEqual(try Catalog(library: library).assets().count, 9, "renditions never become assets of their own")
    }

    /// The survey reads the catalog's records of the library's files a block at a time (a gallery or
    /// a regeneration over 100,000 does not hold them all): across blocks of two files, each file is
    /// still the photo it was made from, and the Live Photo's MOV still its still's motion part.
    func testALibrarysFilesReadABlockAtATimeAreStillThePhotosTheyWereMadeFrom() throws {
        let imported = try run(try load("import-camera-roll"), folder.path("roll"))
        let thumbnails = Set(imported.published.filter { $0.hasPrefix("Thumbnails/") })

        let first = try run(try regenerate(size: 256), libraryMedia[0], libraryMedia[1], photosReadAhead: 2)
        XCTAssertEqual(first.failures, [])
        XCTAssertEqual(Set(first.published), thumbnails, "the same paths and ids as the import")
        XCTAssertEqual(first.passedOver.map(\.kind), ["motion part"])
        let again = try run(try regenerate(size: 256), libraryMedia[0], libraryMedia[1], photosReadAhead: 2)
        XCTAssertEqual(again.skipped, 8)
        XCTAssertEqual(again.published, [])
    }

    func testPlainFolderTreeGetsAParallelTreeWithSeveralSizesFromOneDecode() throws {
        let roll = folder.path("roll")
        let report = try run(try load("regenerate-thumbnails"), roll)
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.duplicates, 1)
        let small = try Image.open(library.appendingPathComponent("Thumbnails/200/DCIM/100CANON/IMG_0002.jpg.jpg").path)
        let large = try Image.open(library.appendingPathComponent("Thumbnails/1024/DCIM/100CANON/IMG_0002.jpg.jpg").path)
        XCTAssertEqual([small.width, small.height], [150, 200])
        XCTAssertEqual([large.width, large.height], [768, 1024])
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.appendingPathComponent("Thumbnails/200/Phone/beach.png.jpg").path))

        // A source that changes gets new thumbnails at the same place; the others are not touched.
        try Fixtures.photo(roll.appendingPathComponent("Phone/beach.png"), width: 900, height: 300, seed: 9)
        let changed = try run(try load("regenerate-thumbnails"), roll)
        XCTAssertEqual(changed.failures, [])
        XCTAssertEqual(changed.processed, 1)
        XCTAssertEqual(Set(changed.published), ["Thumbnails/200/Phone/beach.png.jpg", "Thumbnails/1024/Phone/beach.png.jpg"])
        let beach = try Image.open(library.appendingPathComponent("Thumbnails/200/Phone/beach.png.jpg").path)
        XCTAssertEqual([beach.width, beach.height], [200, 67])

        let forced = try run(try load("regenerate-thumbnails"), roll, force: true)
        XCTAssertEqual(forced.processed, 9, "seven photos and two videos")
    }

    /// A camera's JPEG and its HEIC of the same name get a thumbnail each, on every run.
    func testTwoPhotosOfOneNameKeepTheirOwnThumbnails() throws {
        let pair = folder.path("pair")
        try FileManager.default.createDirectory(at: pair, withIntermediateDirectories: true)
        try Fixtures.photo(pair.appendingPathComponent("IMG_0001.JPG"), width: 800, height: 600, seed: 21)
        try Fixtures.photo(folder.path("portrait.jpg"), width: 600, height: 800, seed: 22)
        _ = try Fixtures.run("heif-enc", ["-q", "50", folder.path("portrait.jpg").path, "-o", pair.appendingPathComponent("IMG_0001.HEIC").path])
        let first = try run(try load("regenerate-thumbnails"), pair)
        XCTAssertEqual(first.failures, [])
        XCTAssertEqual(first.processed, 2)
        let jpeg = try Image.open(library.appendingPathComponent("Thumbnails/200/IMG_0001.jpg.jpg").path)
        let heic = try Image.open(library.appendingPathComponent("Thumbnails/200/IMG_0001.heic.jpg").path)
        XCTAssertEqual([jpeg.width, jpeg.height], [200, 150], "the landscape JPEG's own thumbnail")
        XCTAssertEqual([heic.width, heic.height], [150, 200], "the portrait HEIC's own thumbnail")

        let again = try run(try load("regenerate-thumbnails"), pair)
        XCTAssertEqual(again.failures, [])
        XCTAssertEqual(again.skipped, 2)
        XCTAssertEqual(again.published, [])
    }

    func testAnInterruptedRunPicksUpWhereItStopped() throws {
        // Stop a run after some photos by killing the process, then run again: only the rest is done.
        let command = try DarkroomCommand(workingDirectory: ImportTests.root)
        let pipeline = ImportTests.root.appendingPathComponent("pipelines/regenerate-thumbnails.yaml").path
        let roll = folder.path("roll")
        try FileManager.default.createDirectory(at: roll.appendingPathComponent("extra"), withIntermediateDirectories: true)
        for i in 1...12 { try Fixtures.photo(roll.appendingPathComponent("extra/photo-\(i).jpg"), width: 1800, height: 1200, seed: 100 + i) }
        let log = folder.path("interrupted-run.log")
        let process = try command.start(["run", pipeline, "--input", roll.path, "--library", library.path, "--jobs", "1"], log: log)
        // The loop ends as soon as six thumbnails are recorded, or when the run ends by itself (it
        // should not: then its output says why); the deadline only guards a hung run and is far
        // beyond what a loaded 2-core machine needs.
        let deadline = Date().addingTimeInterval(600)
        func published() -> Int { (try? Catalog.openIfPresent(library: library)?.allOutputs().count) ?? 0 }
        while Date() < deadline, process.isRunning, published() < 6 {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let endedByItself = !process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let doneBefore = try Catalog(library: library).allOutputs().count / 2
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        XCTAssertFalse(endedByItself && doneBefore == 0,
                       "the run ended by itself (status \(process.terminationStatus)) before any thumbnail:\n\(output)")
        XCTAssertGreaterThan(doneBefore, 0)
        XCTAssertLessThan(doneBefore, 21, "the run was interrupted before the end")

        let resumed = try run(try load("regenerate-thumbnails"), roll)
        XCTAssertEqual(resumed.failures, [])
        XCTAssertEqual(resumed.skipped, doneBefore)
        XCTAssertEqual(resumed.processed, 21 - doneBefore, "9 files of the samples and 12 more")
        XCTAssertEqual(try Catalog(library: library).allOutputs().count, 42)
    }
}
