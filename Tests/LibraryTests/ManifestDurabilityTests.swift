import DarkroomCore
import DarkroomLibrary
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
        // The shard runs again (a retried pod) and appends to the same manifest.
        let manifest = try ShardManifest(library: library, pipelineName: "import", shard: try Shard(index: 0, count: 1), snapshot: nil)
        _ = try manifest.beginRun(pipeline: "import.yaml")
        try manifest.rememberHashes([fingerprint("again")])
        let contents = try ShardManifest.records(at: manifest.url)
        XCTAssertEqual(contents.records.map(describe), ["start", "start", "hashes again"])
        XCTAssertEqual(contents.unreadable, 1, "the torn line, reported")
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
