@testable import DarkroomCore
@testable import DarkroomCatalog
import DarkroomShards
import DarkroomTestSupport
import Foundation
import XCTest
@testable import DarkroomReport

/// Sharded sweeps: `darkroom run --shard I/N` as separate processes, then `darkroom catalog merge`.
final class ShardTests: XCTestCase {
    func testThreeShardsMakeWhatOneMachineMakesEachPhotoOnce() throws {
        let fixture = try FleetFixture("shards", extra: 9)
        let single = fixture.folder.path("single"), sharded = fixture.folder.path("sharded")
        let pipeline = fixture.pipeline("import-camera-roll")
        try fixture.darkroom(["run", pipeline, "--input", fixture.roll.path, "--library", single.path, "--jobs", "2"])

        let shards = try (0..<3).map { index in
            try fixture.command.start(["run", pipeline, "--input", fixture.roll.path, "--library", sharded.path,
                                       "--shard", "\(index)/3", "--jobs", "1", "--json"],
                                      log: fixture.folder.path("shard-\(index).json"))
        }
        for process in shards { process.waitUntilExit(); XCTAssertEqual(process.terminationStatus, 0) }

        // Each photo was processed by exactly one shard.
        var processedBy: [String: [Int]] = [:]
        for index in 0..<3 {
            let manifest = ShardManifest.folder(library: sharded).appendingPathComponent("import-camera-roll.\(index)-of-3.jsonl")
            for case .commit(let completion) in try ShardManifest.records(at: manifest).records {
                processedBy[completion.subject, default: []].append(index)
            }
        }
        let catalogA = try XCTUnwrap(Catalog.openIfPresent(library: single))
        XCTAssertEqual(Set(processedBy.keys), Set(try catalogA.assets().map(\.contentHash)))
        XCTAssertEqual(processedBy.values.filter { $0.count != 1 }.count, 0, "a photo done by two shards: \(processedBy)")
        XCTAssertGreaterThan(Set(processedBy.values.map { $0[0] }).count, 1, "the photos are spread over the shards")

        let merged = try fixture.darkroom(["catalog", "merge", "--library", sharded.path])
        XCTAssertTrue(merged.out.hasPrefix("merged 3 shard manifests: 18 photos, 0 collections, 35 outputs recorded"), merged.out)

        // Same files, same ids, same capture dates; the catalog matches the files.
        let filesA = try FleetFixture.files(of: single), filesB = try FleetFixture.files(of: sharded)
        XCTAssertEqual(filesA.count, 35)
        XCTAssertEqual(filesB.keys.sorted(), filesA.keys.sorted())
        XCTAssertEqual(filesB.filter { $0.key.hasSuffix(".jpg") }, filesA.filter { $0.key.hasSuffix(".jpg") }, "thumbnails are byte-identical")
        let catalogB = try XCTUnwrap(Catalog.openIfPresent(library: sharded))
        XCTAssertEqual(try catalogB.assets().map { [$0.id, $0.captureLocal ?? "-"] }, try catalogA.assets().map { [$0.id, $0.captureLocal ?? "-"] })
        XCTAssertTrue(try catalogB.verify(library: sharded).isClean)

        // The sweep again: every shard finds its work done.
        for index in 0..<3 {
            let again = try fixture.darkroom(["run", pipeline, "--input", fixture.roll.path, "--library", sharded.path, "--shard", "\(index)/3"])
            XCTAssertTrue(again.out.contains(" 0 processed"), again.out)
        }
        // And a single-machine run after the merge has nothing to do either.
        let after = try fixture.darkroom(["catalog", "merge", "--library", sharded.path])
        XCTAssertTrue(after.out.contains("0 outputs recorded"), after.out)
        let rerun = try fixture.darkroom(["run", pipeline, "--input", fixture.roll.path, "--library", sharded.path])
        XCTAssertTrue(rerun.out.hasPrefix("19 found: 0 processed, 18 already done, 1 duplicate"), rerun.out)
    }

    func testCollectionsAreShardedByOutput() throws {
        let fixture = try FleetFixture("shard-collages", extra: 6)
        let single = fixture.folder.path("single"), sharded = fixture.folder.path("sharded")
        let pipeline = fixture.pipeline("monthly-grid")
        try fixture.darkroom(["run", pipeline, "--input", fixture.roll.path, "--library", single.path])
        var madeBy: [String: [Int]] = [:]
        for index in 0..<3 {
            let result = try fixture.darkroom(["run", pipeline, "--input", fixture.roll.path, "--library", sharded.path,
                                               "--shard", "\(index)/3", "--json"])
            let report = try JSONDecoder().decode(RunReport.self, from: Data(result.out.utf8))
            for path in report.published { madeBy[path, default: []].append(index) }
        }
        try fixture.darkroom(["catalog", "merge", "--library", sharded.path])
        let collagesA = try FleetFixture.files(of: single), collagesB = try FleetFixture.files(of: sharded)
        XCTAssertEqual(collagesA.count, 12, "one collage per month: \(collagesA.keys.sorted())")
        XCTAssertEqual(collagesB, collagesA, "the same collages, byte for byte")
        XCTAssertEqual(Set(madeBy.keys), Set(collagesA.keys))
        XCTAssertTrue(madeBy.values.allSatisfy { $0.count == 1 }, "each collage made by one shard: \(madeBy)")
        XCTAssertGreaterThan(Set(madeBy.values.map { $0[0] }).count, 1, "the collages are spread over the shards")

        let again = try fixture.darkroom(["run", pipeline, "--input", fixture.roll.path, "--library", sharded.path, "-v"])
        XCTAssertTrue(again.err.contains("collage: up to date"), again.err)
    }

    func testShardComesFromTheArrayJobsEnvironment() throws {
        XCTAssertEqual(try Shard.parse("2/5"), try Shard(index: 2, count: 5))
        // Slurm: --array=1-3 gives task ids 1, 2, 3.
        XCTAssertEqual(try Shard.parse("auto", environment: ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1",
                                                            "SLURM_ARRAY_TASK_COUNT": "3"]), try Shard(index: 1, count: 3))
        // One task of a 0-15 array run again on its own (sbatch --array=7): still shard 7 of 16 when the count is declared.
        XCTAssertEqual(try Shard.parse("auto", environment: ["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "7",
                                                            "SLURM_ARRAY_TASK_COUNT": "1", "DARKROOM_SHARDS": "16"]), try Shard(index: 7, count: 16))
        XCTAssertEqual(try Shard.parse("auto/16", environment: ["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "7",
                                                               "SLURM_ARRAY_TASK_COUNT": "1"]), try Shard(index: 7, count: 16))
        XCTAssertEqual(try Shard.parse("auto/4", environment: ["JOB_COMPLETION_INDEX": "3"]), try Shard(index: 3, count: 4))
        XCTAssertEqual(try Shard.parse("auto", environment: ["AWS_BATCH_JOB_ARRAY_INDEX": "0", "DARKROOM_SHARDS": "2"]),
                       try Shard(index: 0, count: 2))
        func message(_ text: String, _ environment: [String: String] = [:]) -> String {
            do { _ = try Shard.parse(text, environment: environment); return "no error" } catch { return "\(error)" }
        }
        XCTAssertEqual(message("3/3"), "shard 3 is not one of 0...2 (shards are counted from 0)")
        XCTAssertTrue(message("auto").hasPrefix("--shard auto: none of JOB_COMPLETION_INDEX"))
        XCTAssertTrue(message("auto", ["JOB_COMPLETION_INDEX": "1"]).contains("write --shard auto/N or set DARKROOM_SHARDS"))
        XCTAssertEqual(message("two/3"), "--shard: the index in 'two/3' is not a number (or 'auto')")

        // The same through the command: a dry run lists each shard's share, every file in one of them;
        // a Slurm array task runs its share.
        let fixture = try FleetFixture("shard-env", extra: 0)
        var planned: [String] = []
        for index in 0..<3 {
            let plan = try fixture.darkroom(["run", fixture.pipeline("import-camera-roll"), "--input", fixture.roll.path,
                                             "--library", fixture.folder.path("lib").path, "--shard", "\(index)/3", "--dry-run", "--json"])
            planned += try JSONDecoder().decode(RunPlan.self, from: Data(plan.out.utf8)).entries.map(\.path)
        }
        XCTAssertEqual(planned.count, 10)
        XCTAssertEqual(Set(planned).count, 10)
        let result = try fixture.darkroom(["run", fixture.pipeline("import-camera-roll"), "--input", fixture.roll.path,
                                           "--library", fixture.folder.path("lib").path, "--shard", "auto"],
                                          environment: ["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_COUNT": "3"])
        XCTAssertTrue(result.out.hasPrefix("shard 2/3: "), result.out)
    }

    func testMergeWaitsForEveryShardAndRemovesWhatAKilledShardLeft() throws {
        let fixture = try FleetFixture("shard-merge", extra: 0)
        let library = fixture.folder.path("lib")
        try fixture.darkroom(["run", fixture.pipeline("import-camera-roll"), "--input", fixture.roll.path,
                              "--library", library.path, "--shard", "0/2"])
        let notStarted = try fixture.darkroom(["catalog", "merge", "--library", library.path], expecting: 2)
        XCTAssertTrue(notStarted.err.contains("import-camera-roll.1-of-2.jsonl (never started)"), notStarted.err)
        // Shard 1 was killed after linking a file, before recording it.
        let manifest = try ShardManifest(library: library, pipelineName: "import-camera-roll", shard: try Shard(index: 1, count: 2), snapshot: nil)
        _ = try manifest.beginRun(pipeline: "pipelines/import-camera-roll.yaml")
        try manifest.markPending(["Photos/2020/01/orphan.heic"], run: 0)
        try FileManager.default.createDirectory(at: library.appendingPathComponent("Photos/2020/01"), withIntermediateDirectories: true)
        try Data("half a photo".utf8).write(to: library.appendingPathComponent("Photos/2020/01/orphan.heic"))

        let refused = try fixture.darkroom(["catalog", "merge", "--library", library.path], expecting: 2)
        XCTAssertTrue(refused.err.contains("these shards have not finished"), refused.err)
        XCTAssertTrue(refused.err.contains("import-camera-roll.1-of-2.jsonl"), refused.err)

        // Shard 1 is run again and finishes: the merge takes both, and removes the orphan.
        try fixture.darkroom(["run", fixture.pipeline("import-camera-roll"), "--input", fixture.roll.path,
                              "--library", library.path, "--shard", "1/2"])
        let merged = try fixture.darkroom(["catalog", "merge", "--library", library.path])
        XCTAssertTrue(merged.out.contains("9 photos"), merged.out)
        XCTAssertTrue(merged.out.contains("1 orphans removed"), merged.out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.appendingPathComponent("Photos/2020").path))
        XCTAssertTrue(try Catalog(library: library).verify(library: library).isClean)
    }

    func testFUSEMountsAreToldApartByTheMountTable() throws {
        let mounts = """
            /dev/sda1 / ext4 rw 0 0
            server:/export /mnt/photos nfs4 rw 0 0
            /dev/sdb1 /mnt/photos/local\\040disk ext4 rw 0 0
            """
        XCTAssertEqual(NetworkFilesystem.filesystemType(of: "/mnt/photos/library", mounts: mounts), "nfs4")
        XCTAssertEqual(NetworkFilesystem.filesystemType(of: "/mnt/photos/local disk/library", mounts: mounts), "ext4")
        XCTAssertEqual(NetworkFilesystem.filesystemType(of: "/mnt/photosynth", mounts: mounts), "ext4")
        // The refusal itself (statfs's answer injected) is tested in RunnerTests.testSQLiteIsRefusedOnANetworkFilesystem.
    }
}
