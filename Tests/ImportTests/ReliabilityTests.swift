import DarkroomCore
import DarkroomCatalog
import DarkroomStages
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest
import DarkroomModel
import DarkroomReport

/// What must hold whatever a camera roll and a machine throw at an import.
final class ReliabilityTests: XCTestCase {
    var folder: TemporaryFolder!
    var roll: URL { folder.path("roll") }
    var library: URL { folder.path("library") }

    override func setUpWithError() throws {
        folder = try TemporaryFolder("reliability")
        try FileManager.default.createDirectory(at: roll, withIntermediateDirectories: true)
    }

    /// The shipped import pipeline with a fast encoder, written next to the inputs for the CLI.
    func fastPipeline() throws -> URL {
        let text = try ShippedPipeline.fastText()
        let url = folder.path("import.yaml")
        try Data(text.utf8).write(to: url)
        return url
    }

    func run(pipeline: URL, pixelLimit: Int = 100_000_000) throws -> RunReport {
        let loaded = try PipelineLoader(registry: BuiltInStages.registry).load(path: pipeline.path)
        return try Runner(pipeline: loaded, settings: RunSettings(library: library, pixelLimit: pixelLimit,
                                                                  timeZone: TimeZone(identifier: "UTC")!, jobs: 2)).run(inputs: [roll])
    }

    /// Every catalogued output exists with its recorded hash; nothing else is in the library but
    /// files a crashed run journalled (which the next run removes).
    func assertConsistent(_ context: String, allowJournalled: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        guard let catalog = try Catalog.openIfPresent(library: library) else { return }
        let drift = try catalog.verify(library: library)
        XCTAssertEqual(drift.missing, [], context, file: file, line: line)
        XCTAssertEqual(drift.changed, [], context, file: file, line: line)
        if !allowJournalled { XCTAssertEqual(drift.untracked, [], context, file: file, line: line) }
    }

    func testKilledAtThirtyRandomMomentsTheLibraryConverges() throws {
        for i in 1...10 {
            try Fixtures.photo(roll.appendingPathComponent("IMG_\(i).jpg"), width: 900, height: 600, seed: i,
                               exif: ["-DateTimeOriginal=2022:0\(1 + i % 9):1\(i % 10) 10:00:00"])
        }
        let originals = try hashes(roll)
        let command = try DarkroomCommand(workingDirectory: ImportTests.root)
        let pipeline = try fastPipeline()
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        for attempt in 1...30 {
            // Every other run redoes all work (--force), so kills also land while outputs are being replaced.
            let process = try command.start(["run", pipeline.path, "--input", roll.path, "--library", library.path, "--jobs", "2"]
                                            + (attempt % 2 == 0 ? ["--force"] : []))
            usleep(UInt32.random(in: 20_000...900_000, using: &generator))
            if process.isRunning { kill(process.processIdentifier, SIGKILL); kills += 1 }
            process.waitUntilExit()
            try assertConsistent("after kill \(attempt)", allowJournalled: true)
        }
        let report = try run(pipeline: pipeline)
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed + report.skipped, 10)
        try assertConsistent("after the final run", allowJournalled: false)
        let catalog = try Catalog(library: library)
        XCTAssertEqual(try catalog.assets().count, 10, "nothing imported twice, nothing missing")
        XCTAssertEqual(try catalog.allOutputs().count, 20)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: library.appendingPathComponent(".darkroom/tmp").path), [])
        XCTAssertEqual(try hashes(roll), originals, "originals untouched")
        XCTAssertGreaterThan(kills, 10, "at least a third of the runs were interrupted mid-work")
        print("crash test: \(kills) kills survived, 0 files lost")
    }

    func testDiskFullStopsCleanlyAndARerunCompletes() throws {
        guard getuid() == 0 else { throw XCTSkip("mounting a small tmpfs needs root") }
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        guard (try? Fixtures.run("mount", ["-t", "tmpfs", "-o", "size=2500k", "tmpfs", library.path])) != nil else {
            throw XCTSkip("cannot mount a tmpfs here")
        }
        defer { _ = try? Fixtures.run("umount", [library.path]) }
        for i in 1...8 {
            try Fixtures.photo(roll.appendingPathComponent("IMG_\(i).jpg"), width: 2400, height: 1600, seed: 40 + i,
                               exif: ["-DateTimeOriginal=2021:05:0\(i) 10:00:00"])
        }
        let pipeline = try fastPipeline()
        let full = try run(pipeline: pipeline)
        XCTAssertNotNil(full.stopped, "the run must stop with a clear error: \(full.summary)")
        XCTAssertTrue(full.summary.contains("error: the disk is full"), full.summary)
        XCTAssertFalse(full.succeeded)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: library.appendingPathComponent(".darkroom/tmp").path), [],
                       "the abandoned file's temp is removed")
        try assertConsistent("after the disk filled up", allowJournalled: false)

        try Fixtures.run("mount", ["-o", "remount,size=64m", library.path])
        let rerun = try run(pipeline: pipeline)
        XCTAssertEqual(rerun.failures, [])
        XCTAssertNil(rerun.stopped)
        XCTAssertEqual(try Catalog(library: library).assets().count, 8)
        try assertConsistent("after the re-run", allowJournalled: false)
    }

    func testEveryBadFileOfTheCorpusIsReportedAndTheBatchGoesOn() throws {
        let corpus = try Corpus.requireRoot()
        let bad = try Corpus.manifest().filter(\.isBad)
        XCTAssertGreaterThan(bad.count, 15)
        for (index, entry) in bad.enumerated() {
            let name = "\(index)-" + (entry.path as NSString).lastPathComponent
            try FileManager.default.copyItem(at: corpus.appendingPathComponent(entry.path), to: roll.appendingPathComponent(name))
        }
        try FileManager.default.copyItem(at: ImportTests.samples.appendingPathComponent("Phone/garden.webp"), to: roll.appendingPathComponent("good.webp"))
        let originals = try hashes(roll)
        let started = Date()
        let report = try run(pipeline: try fastPipeline())
        let failed = Set(report.failures.map { ($0.path as NSString).lastPathComponent })
        let notFailed = (try FileManager.default.contentsOfDirectory(atPath: roll.path)).filter { $0 != "good.webp" && !failed.contains($0) }
        XCTAssertEqual(notFailed.sorted(), [], "every broken, truncated, hostile or unsupported file is reported")
        XCTAssertTrue(report.failures.allSatisfy { !$0.reason.isEmpty && $0.path.hasPrefix(roll.path) })
        XCTAssertEqual(report.processed, 1, "the batch goes on")
        XCTAssertEqual(report.published.count, 2, "no partial output for a bad file")
        XCTAssertLessThan(Date().timeIntervalSince(started), 120, "bombs are refused from the header, not decoded")
        XCTAssertEqual(try hashes(roll), originals)
        print("bad corpus files tried: \(bad.count), all reported")
    }

    func testHostileMetadataCannotSteerOutputPaths() throws {
        let hostile: [(String, [String])] = [
            ("traversal.jpg", ["-m", "-DateTimeOriginal#=../../../../tmp/evil", "-Make=../../..", "-Model=/etc/passwd"]),
            ("absurd.jpg", ["-m", "-DateTimeOriginal#=9999:99:99 99:99:99", "-CreateDate#=0000:00:00 00:00:00"]),
            ("ancient.jpg", ["-m", "-DateTimeOriginal#=1850:01:01 00:00:00"]),
        ]
        let packet = folder.path("hostile.xmp")
        try Data("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:DateCreated="2024-01-01T00:00:00/../../x"/>
            </rdf:RDF></x:xmpmeta>
            """.utf8).write(to: packet)
        try Fixtures.photo(roll.appendingPathComponent("xmp.jpg"), width: 300, height: 200, seed: 79, exif: ["-xmp<=\(packet.path)"])
        for (index, (name, tags)) in hostile.enumerated() {
            try Fixtures.photo(roll.appendingPathComponent(name), width: 300, height: 200, seed: 70 + index, exif: tags)
        }
        try Fixtures.photo(roll.appendingPathComponent("IMG_20230405_101112.jpg"), width: 300, height: 200, seed: 80,
                           exif: ["-m", "-DateTimeOriginal#=2099:01:01 00:00:00"])
        let report = try run(pipeline: try fastPipeline())
        XCTAssertEqual(report.failures, [])
        let pattern = try NSRegularExpression(pattern: "^(Photos|Thumbnails)/(19|20)\\d\\d/(0[1-9]|1[0-2])/[0-9a-f-]{36}\\.(heic|jpg)$")
        for path in report.published {
            XCTAssertNotNil(pattern.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)), path)
        }
        XCTAssertTrue(report.published.contains { $0.hasPrefix("Photos/2023/04/") }, "a date in the future falls through to the file name")
        XCTAssertEqual(try Catalog(library: library).verify(library: library).untracked, [])
    }

    func hashes(_ folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            let url = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[name] = try ContentHash.ofFile(url)
            }
        }
        return result
    }
}
