@testable import DarkroomCore
import DarkroomCatalog
import DarkroomTestSupport
import Foundation
import XCTest
@testable import DarkroomModel
@testable import DarkroomOptions
@testable import DarkroomReport

/// A gallery-like collection stage outside the built-in modules: a page per month listing its files
/// with what the catalog knows of them, and an index; made again on every run, published only if changed.
struct MonthPages: CollectionStage {
    static let name = "month-pages"
    static let summary = "A text page per month of the items, with their catalogued date sources, and an index."
    static let media: Set<MediaKind> = [.photo, .video]
    static let readsLibrary = true
    typealias Options = NoOptions

    init(options: NoOptions) {}

    func run(_ items: [ItemRecord], context: CollectionContext) throws {
        Invocations.shared.record(Self.name)
        let facts = try context.library.assets(items.map(\.contentHash))
        let months = Dictionary(grouping: items) { item in
            item.captureDate.map { String(format: "%04d-%02d", $0.local.year, $0.local.month) } ?? "undated"
        }
        for (month, items) in months {
            let lines = items.map { "\($0.fileName) \($0.mediaKind) \(facts[$0.contentHash]?.captureDate?.source.rawValue ?? "unknown")" }
            try context.publishIfChanged("pages/\(month).txt") { url in try Data(lines.sorted().joined(separator: "\n").utf8).write(to: url) }
        }
        let index = months.keys.sorted().map { "\($0): \(months[$0]!.count)" }.joined(separator: "\n")
        try context.publishIfChanged("pages/index.txt") { url in try Data(index.utf8).write(to: url) }
    }
}

/// `CollectionContext.publishIfChanged`: a run rewrites only the outputs whose bytes changed, each
/// atomically, keeps the others as they are (same inode, same modification time), and retracts the
/// ones no longer made; a stage that reads the library runs on every run.
final class PublishIfChangedTests: XCTestCase {
    var folder: TemporaryFolder!
    var inputs: URL { folder.path("in") }
    var library: URL { folder.path("library") }
    let registry = testRegistry.adding([StageDescriptor(MonthPages.self)])

    override func setUpWithError() throws {
        folder = try TemporaryFolder("publish-if-changed")
        Invocations.shared.reset()
        try write("2024-03-05 spring", to: "in/a.txt")
        try write("2023-12-24 winter", to: "in/b.txt")
        try write("2024-01-10 january", to: "in/c.txt")
    }

    func write(_ text: String, to path: String) throws {
        let url = folder.path(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func runPages(steps: String = "text-date, month-pages") throws -> RunReport {
        let pipeline = try PipelineLoader(registry: registry).load(yaml: """
            inputs: { include: ["**/*.{txt,mov}"] }
            steps: [\(steps)]
            """, file: "pages.yaml")
        let report = try Runner(pipeline: pipeline, settings: RunSettings(library: library, jobs: 2)).run(inputs: [inputs])
        XCTAssertEqual(report.failures, [])
        return report
    }

    /// Inode and modification time of a page: what changes when it is written again.
    func stamp(_ page: String) throws -> [Int64] {
        let info = try XCTUnwrap(FileInfo(path: library.appendingPathComponent("pages/\(page)").path), "no pages/\(page)")
        return [Int64(bitPattern: info.id.inode), info.modificationNanoseconds]
    }

    func text(_ page: String) throws -> String {
        try String(contentsOf: library.appendingPathComponent("pages/\(page)"), encoding: .utf8)
    }

    func testARunRewritesOnlyThePagesThatChanged() throws {
        let first = try runPages()
        XCTAssertEqual(first.published.sorted(), ["pages/2023-12.txt", "pages/2024-01.txt", "pages/2024-03.txt", "pages/index.txt"])
        XCTAssertEqual(try text("2024-01.txt"), "c.txt photo filename", "the stage read the catalog's date source")
        let before = try ["2023-12.txt", "2024-01.txt", "2024-03.txt", "index.txt"].map(stamp)
        let oldJanuary = try FileHandle(forReadingFrom: library.appendingPathComponent("pages/2024-01.txt"))
        defer { try? oldJanuary.close() }

        usleep(20_000)  // so that a rewritten page's modification time would differ
        try write("2024-01-20 more january", to: "in/d.txt")
        let second = try runPages()
        XCTAssertEqual(second.published.sorted(), ["pages/2024-01.txt", "pages/index.txt"], "only the changed pages are written")
        XCTAssertEqual(try stamp("2023-12.txt"), before[0], "an unchanged page keeps its inode and modification time")
        XCTAssertEqual(try stamp("2024-03.txt"), before[2])
        XCTAssertNotEqual(try stamp("2024-01.txt")[0], before[1][0], "a changed page is a new file renamed into place")
        XCTAssertNotEqual(try stamp("index.txt")[0], before[3][0])
        XCTAssertEqual(try text("2024-01.txt"), "c.txt photo filename\nd.txt photo filename")
        XCTAssertEqual(try text("index.txt"), "2023-12: 1\n2024-01: 2\n2024-03: 1")
        // Atomic: a reader of the old page still reads the whole old page, never a mix.
        XCTAssertEqual(String(decoding: try oldJanuary.readToEnd() ?? Data(), as: UTF8.self), "c.txt photo filename")

        // Every page is still recorded, with the bytes on disk.
        let catalog = try Catalog(library: library)
        for page in ["2023-12.txt", "2024-01.txt", "2024-03.txt", "index.txt"] {
            let output = try XCTUnwrap(try catalog.output(at: "pages/\(page)"), "pages/\(page) is no longer recorded")
            XCTAssertEqual(output.sha256, try ContentHash.ofFile(library.appendingPathComponent("pages/\(page)")), page)
        }
    }

    func testAStageThatReadsTheLibraryRunsEveryTimeAndWritesNothingUnchanged() throws {
        _ = try runPages()
        let stamps = try ["2023-12.txt", "2024-01.txt", "2024-03.txt", "index.txt"].map(stamp)
        let again = try runPages()
        XCTAssertEqual(Invocations.shared.count("month-pages"), 2, "it ran again although its items did not change")
        XCTAssertEqual(again.published, [])
        XCTAssertEqual(try ["2023-12.txt", "2024-01.txt", "2024-03.txt", "index.txt"].map(stamp), stamps)
    }

    func testAPageNoLongerMadeIsRemovedAndAnEditedOneIsWrittenBack() throws {
        _ = try runPages()
        try FileManager.default.removeItem(at: inputs.appendingPathComponent("b.txt"))
        try Data("scribbled over".utf8).write(to: library.appendingPathComponent("pages/2024-03.txt"))
        let report = try runPages()
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.appendingPathComponent("pages/2023-12.txt").path))
        XCTAssertEqual(try text("2024-03.txt"), "a.txt photo filename", "a page changed on disk is written again")
        XCTAssertEqual(report.published.sorted(), ["pages/2024-03.txt", "pages/index.txt"])
    }

    /// Videos reach a collection stage that takes them, though the pipeline's only making step
    /// (`shout`) takes photos; a photos-only collection (`roll`) still gets photos only.
    func testAVideoReachesACollectionStageThatTakesVideos() throws {
        try write("2024-03-09 a clip", to: "in/clip.mov")
        let report = try runPages(steps: "text-date, shout, month-pages, roll")
        XCTAssertEqual(report.passedOver, [])
        XCTAssertEqual(Invocations.shared.count("shout"), 3, "shout takes photos only")
        XCTAssertEqual(try text("2024-03.txt"), "a.txt photo filename\nclip.mov video filename")
        let roll = try String(contentsOf: library.appendingPathComponent("roll.txt"), encoding: .utf8)
        XCTAssertFalse(roll.contains("clip.mov"), roll)
    }
}
