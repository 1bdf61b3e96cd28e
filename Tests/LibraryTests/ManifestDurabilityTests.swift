import DarkroomCatalog
import DarkroomCore
import DarkroomLibrary
import DarkroomModel
import DarkroomReport
import DarkroomShards
import DarkroomTestSupport
import Foundation
import XCTest

/// A shard manifest's lines are whole or absent (issue 26 item 8): a write that stops short (a full
/// disk) leaves nothing of its record, and a line torn by a kill is skipped without taking the next
/// record with it.
final class ManifestDurabilityTests: XCTestCase {
    private var library: URL!

    override func setUpWithError() throws {
        library = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-durability-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    }

    override func tearDown() {
        FaultInjection.install(nil)
        try? FileManager.default.removeItem(at: library)
        super.tearDown()
    }

    func testAShortWriteLeavesNothingOfItsRecord() throws {
        let manifest = try ShardManifest(library: library, pipelineName: "import", shard: try Shard(index: 0, count: 1), snapshot: nil)
        _ = try manifest.beginRun(pipeline: "import.yaml")
        FaultInjection.install { point in
            if case .appending = point { return .shortWrite(25) }
            return .proceed
        }
        XCTAssertThrowsError(try manifest.rememberHashes([fingerprint("lost")])) { error in
            XCTAssertTrue("\(error)".contains("cannot write the shard manifest"), "\(error)")
        }
        FaultInjection.install(nil)
        try manifest.rememberHashes([fingerprint("kept")])
        let contents = try ShardManifest.records(at: manifest.url)
        XCTAssertEqual(contents.records.map(describe), ["start", "hashes kept"])
        XCTAssertEqual(contents.unreadable, 0)
    }

    func testALineTornByAKillSwallowsNoRecordOfTheRetriedShard() throws {
        let tool = try DarkroomCommand(workingDirectory: library, executable: "library-tool")
        let killed = try tool.run(["append-manifest", library.path, "import", "0", "1", "--kill-after-bytes", "30"])
        XCTAssertNotEqual(killed.status, 0, killed.out + killed.err)
        let url = ShardManifest.folder(library: library).appendingPathComponent("import.0-of-1.jsonl")
        let torn = try ShardManifest.records(at: url)
        XCTAssertEqual(torn.records.map(describe), ["start"])
        XCTAssertTrue(torn.tornTail, "the last line, torn, is skipped and reported")
        // The shard runs again (a retried pod) and appends to the same manifest.
        let manifest = try ShardManifest(library: library, pipelineName: "import", shard: try Shard(index: 0, count: 1), snapshot: nil)
        _ = try manifest.beginRun(pipeline: "import.yaml")
        try manifest.rememberHashes([fingerprint("again")])
        let contents = try ShardManifest.records(at: manifest.url)
        XCTAssertEqual(contents.records.map(describe), ["start", "start", "hashes again"])
        XCTAssertEqual(contents.unreadable, 1, "the torn line, reported")
        XCTAssertFalse(contents.tornTail)
    }

    func testAMergeSkipsAndReportsATornLine() throws {
        let tool = try DarkroomCommand(workingDirectory: library, executable: "library-tool")
        XCTAssertNotEqual(try tool.run(["append-manifest", library.path, "import", "0", "1", "--kill-after-bytes", "30"]).status, 0)
        let manifest = try ShardManifest(library: library, pipelineName: "import", shard: try Shard(index: 0, count: 1), snapshot: nil)
        let run = try manifest.beginRun(pipeline: "import.yaml")
        try manifest.rememberHashes([fingerprint("again")])
        try manifest.finishRun(run, report: RunReport(pipeline: "import.yaml", library: library.path))
        let catalog = try Catalog(library: library)
        let report = try CatalogMerge(library: library).merge(into: catalog)
        XCTAssertEqual(report.unreadableLines, 1)
        XCTAssertEqual(report.tornManifests, ["import.0-of-1.jsonl"])
        XCTAssertTrue(report.text.contains("1 torn manifest lines skipped (in import.0-of-1.jsonl)"), report.text)
        XCTAssertEqual(try catalog.cachedHash(path: "/card/again.jpg", size: 1, mtimeNanoseconds: 2, inode: 3), "again")
    }

    func testAMergePutsBackAFileAKilledShardReplacedWithoutRecordingIt() throws {
        let catalog = try Catalog(library: library)
        let run = try catalog.beginRun(pipeline: "import.yaml")
        _ = try catalog.commit(UnitCompletion(subject: "photo", units: [.init(step: "thumb", key: "k")],
                                              outputs: [PublishedOutput(step: "thumb", path: "Thumbs/a.jpg", size: 5, sha256: ContentHash.of("old a"))],
                                              asset: nil), run: run)
        // The shard noted the old bytes kept aside, replaced the file, and was killed before its commit.
        let aside = library.appendingPathComponent(LibraryFiles.keptAsidePath(of: "Thumbs/a.jpg"))
        try FileManager.default.createDirectory(at: aside.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("old a".utf8).write(to: aside)
        try FileManager.default.createDirectory(at: library.appendingPathComponent("Thumbs"), withIntermediateDirectories: true)
        try Data("new a".utf8).write(to: library.appendingPathComponent("Thumbs/a.jpg"))
        let manifest = try ShardManifest(library: library, pipelineName: "import", shard: try Shard(index: 0, count: 1), snapshot: nil)
        let shardRun = try manifest.beginRun(pipeline: "import.yaml")
        try manifest.markPending([LibraryFiles.keptAsidePath(of: "Thumbs/a.jpg")], run: shardRun)
        try manifest.finishRun(shardRun, report: RunReport(pipeline: "import.yaml", library: library.path))
        _ = try CatalogMerge(library: library).merge(into: catalog)
        XCTAssertEqual(try String(contentsOf: library.appendingPathComponent("Thumbs/a.jpg"), encoding: .utf8), "old a")
        XCTAssertFalse(FileManager.default.fileExists(atPath: aside.path))
        XCTAssertTrue(try catalog.verify(library: library).isClean)
    }

    private func fingerprint(_ hash: String) -> FileFingerprint {
        FileFingerprint(path: "/card/\(hash).jpg", size: 1, mtimeNanoseconds: 2, inode: 3, hash: hash)
    }

    private func describe(_ record: ShardManifest.Record) -> String {
        switch record {
        case .start: "start"
        case .hashes(let files): "hashes " + files.map(\.hash).joined(separator: ",")
        case .pending(let paths): "pending " + paths.joined(separator: ",")
        case .commit(let completion): "commit " + completion.subject
        case .finish: "finish"
        }
    }
}
