import DarkroomCatalog
import DarkroomCore
import DarkroomStages
import DarkroomTestSupport
import Foundation
import XCTest
import DarkroomModel
import DarkroomReport

/// Live Photos through the shipped import pipeline: a real iPhone still of the corpus (its maker note
/// carries the identifier) and a generated MOV half. The MOV is the still's motion part:
/// `Photos/YYYY/MM/<still id>.mov`, no video or thumbnail of its own, whichever comes first.
final class LivePhotoImportTests: XCTestCase {
    /// `metadata-extractor-images/heic/IMG_2927.HEIC`: taken 2020-05-04 18:39:11 -04:00.
    static let stillPath = "metadata-extractor-images/heic/IMG_2927.HEIC"
    static let identifier = "1745E022-9712-43C7-B024-F308EC6413CB"

    var folder: TemporaryFolder!
    var library: URL { folder.path("library") }

    override func setUpWithError() throws {
        folder = try TemporaryFolder("live-photo")
    }

    func place(_ source: URL, at relative: String) throws -> URL {
        let url = folder.path(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: url)
        return url
    }

    func importFolders(_ names: String...) throws -> RunReport {
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(yaml: try ShippedPipeline.fastText(), file: VideoImportTests.pipelinePath)
        var settings = RunSettings(library: library, timeZone: TimeZone(identifier: "UTC")!, jobs: 2)
        settings.listsFiles = false  // as the command line runs it without a report: only stills' records are kept
        return try Runner(pipeline: pipeline, settings: settings).run(inputs: names.map { folder.path($0) })
    }

    func id(_ url: URL) throws -> String { ContentHash.uuid(fromHex: try ContentHash.ofFile(url)).uuidString.lowercased() }

    func libraryFiles() -> [String] {
        ((FileManager.default.enumerator(atPath: library.path)?.allObjects as? [String]) ?? [])
            .filter { !$0.hasPrefix(".darkroom") && FileInfo(path: library.appendingPathComponent($0).path)?.isRegularFile == true }
            .sorted()
    }

    func testAStillAndItsMOVAreOneAssetFiledByTheStill() throws {
        let still = try place(try Corpus.file(Self.stillPath), at: "roll/IMG_2927.HEIC")
        let mov = try place(try Clips.livePhotoMOV(identifier: Self.identifier), at: "roll/IMG_2927.MOV")
        let report = try importFolders("roll")
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed, 2)
        let stillID = try id(still)
        XCTAssertEqual(libraryFiles(), ["Photos/2020/05/\(stillID).heic", "Photos/2020/05/\(stillID).mov",
                                        "Thumbnails/2020/05/\(stillID).jpg"])
        XCTAssertEqual(try ContentHash.ofFile(library.appendingPathComponent("Photos/2020/05/\(stillID).mov")),
                       try ContentHash.ofFile(mov), "the MOV's own bytes")
        let catalog = try XCTUnwrap(try Catalog.openIfPresent(library: library))
        let facts = try XCTUnwrap(try catalog.rememberedFacts(contentHash: try ContentHash.ofFile(mov)))
        XCTAssertEqual(facts.motionOf, try ContentHash.ofFile(still))
        XCTAssertEqual(facts.mediaKind, .video)
        XCTAssertEqual(try catalog.rememberedFacts(contentHash: try ContentHash.ofFile(still))?.contentIdentifier, Self.identifier)

        let again = try importFolders("roll")
        XCTAssertEqual(again.processed, 0)
        XCTAssertEqual(again.published, [])
    }

    func testAMOVOfTheSameNameButAnotherIdentifierStaysAVideo() throws {
        let still = try place(try Corpus.file(Self.stillPath), at: "roll/IMG_2927.HEIC")
        let other = try place(try Clips.livePhotoMOV(identifier: "00000000-0000-4000-8000-000000000000"), at: "roll/IMG_2927.MOV")
        let report = try importFolders("roll")
        XCTAssertEqual(report.failures, [])
        let stillID = try id(still), otherID = try id(other)
        XCTAssertEqual(libraryFiles(), ["Photos/2020/05/\(stillID).heic", "Thumbnails/2020/05/\(otherID).jpg",
                                        "Thumbnails/2020/05/\(stillID).jpg", "Videos/2020/05/\(otherID).mp4"].sorted())
    }

    func testAMOVImportedFirstJoinsItsStillOnTheLaterRun() throws {
        let mov = try place(try Clips.livePhotoMOV(identifier: Self.identifier), at: "phone-videos/IMG_2927.MOV")
        let still = try place(try Corpus.file(Self.stillPath), at: "phone-photos/IMG_2927.HEIC")
        _ = try importFolders("phone-videos")
        let movID = try id(mov)
        XCTAssertEqual(libraryFiles(), ["Thumbnails/2020/05/\(movID).jpg", "Videos/2020/05/\(movID).mp4"], "alone, a video")

        let report = try importFolders("phone-photos")
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.joinedMotionParts.map(\.path), [mov.path])
        let stillID = try id(still)
        XCTAssertEqual(libraryFiles(), ["Photos/2020/05/\(stillID).heic", "Photos/2020/05/\(stillID).mov",
                                        "Thumbnails/2020/05/\(stillID).jpg"], "the video's own copy and poster are gone")
        let catalog = try XCTUnwrap(try Catalog.openIfPresent(library: library))
        XCTAssertTrue(try catalog.verify(library: library).isClean)
    }
}
