import DarkroomCore
import DarkroomStages
import DarkroomTestSupport
import Foundation
import XCTest

/// `darkroom duplicates --move-back`: what `--move-to` moved goes back, byte for byte, recorded as it
/// was; files in the way, changed copies and photos made again since are reported, never lost.
final class DuplicatesMoveBackTests: XCTestCase {
    func testMoveBackPutsEveryFileBackAndTheLibraryIsAsBeforeTheMove() throws {
        let fixture = try DuplicatesFixture("dupes-move-back")
        try fixture.importRoll()
        let target = fixture.folder.path("moved")
        let copyFiles = try fixture.copies.map(fixture.outputs)
        let bytes = try bytesOf(copyFiles.flatMap { $0 }, in: fixture.library)
        XCTAssertEqual(try verify(fixture).out, "10 outputs checked: 0 missing, 0 changed, 0 untracked\n")

        XCTAssertEqual(try fixture.duplicates(["--move-to", target.path]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: target.appendingPathComponent(".darkroom-moved.json").path), "the move lists what it moved")
        let back = try fixture.duplicates(["--move-back", target.path])
        XCTAssertEqual(back.status, 0, back.err)
        for (copy, files) in zip(fixture.copies, copyFiles) {
            XCTAssertTrue(back.out.contains("moved \(copy.path)'s library files back from \(target.path):\n" + files.map { "  \($0)" }.joined(separator: "\n")),
                          back.out)
            XCTAssertEqual(try fixture.outputs(of: copy), files, "the catalog records them again")
        }
        XCTAssertTrue(back.out.hasSuffix("6 files moved back, 0 skipped, 0 failed\n"), back.out)
        for (path, data) in bytes {
            XCTAssertEqual(try Data(contentsOf: fixture.library.appendingPathComponent(path)), data, "\(path) is back byte for byte")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: target.path), [], "nothing is left in the folder, not even its list")
        XCTAssertEqual(try verify(fixture).out, "10 outputs checked: 0 missing, 0 changed, 0 untracked\n")

        // A re-import finds everything done; the listing shows the copies in the library again.
        try fixture.importRollAgain()
        let listing = try fixture.duplicates([])
        XCTAssertTrue(listing.out.hasSuffix("1 near-duplicate group (3 copies), 0 bursts (0 frames)\n"), listing.out)
        for copy in fixture.copies { XCTAssertTrue(listing.out.contains("\(copy.path) ("), listing.out) }
        XCTAssertFalse(listing.out.contains("moved out of the library"), listing.out)

        // Moving back twice finds nothing to do; the group can be moved out and back again.
        let twice = try fixture.duplicates(["--move-back", target.path])
        XCTAssertEqual(twice.status, 0, twice.err)
        XCTAssertEqual(twice.out, "nothing to move back: \(target.path) lists no moved files (.darkroom-moved.json)\n")
        XCTAssertEqual(try fixture.duplicates(["--move-to", target.path]).status, 0)
        let secondMove = try fixture.duplicates(["--move-to", target.path])
        XCTAssertTrue(secondMove.out.contains("already out of the library: \(fixture.resaved.path)"), secondMove.out)
        XCTAssertEqual(try verify(fixture).out, "4 outputs checked: 0 missing, 0 changed, 0 untracked\n")
        let again = try fixture.duplicates(["--move-back", target.path])
        XCTAssertTrue(again.out.hasSuffix("6 files moved back, 0 skipped, 0 failed\n"), again.out)
        XCTAssertEqual(try verify(fixture).out, "10 outputs checked: 0 missing, 0 changed, 0 untracked\n")
    }

    func testFilesInTheWayAndChangedCopiesAreReportedAndNothingIsLost() throws {
        let fixture = try DuplicatesFixture("dupes-move-back-conflicts")
        try fixture.importRoll()
        let target = fixture.folder.path("moved")
        XCTAssertEqual(try fixture.duplicates(["--move-to", target.path]).status, 0)
        let (resaved, resized, cropped) = (try fixture.outputs(movedFrom: fixture.resaved, to: target), try fixture.outputs(movedFrom: fixture.resized, to: target),
                                           try fixture.outputs(movedFrom: fixture.cropped, to: target))
        // The re-saved copy's thumbnail changed in the folder; another file stands at the resized copy's
        // HEIC path; the cropped copy's files were copied back by hand (the library lists them as untracked).
        let changed = try XCTUnwrap(resaved.first { $0.hasPrefix("Thumbnails/") })
        let handle = try FileHandle(forWritingTo: target.appendingPathComponent(changed))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("edited".utf8))
        try handle.close()
        let blocked = try XCTUnwrap(resized.first { $0.hasSuffix(".heic") })
        let stranger = Data("not the moved file".utf8)
        for path in [blocked] + cropped {
            // The move removed the folders it left empty.
            try FileManager.default.createDirectory(at: fixture.library.appendingPathComponent(path).deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
        }
        try stranger.write(to: fixture.library.appendingPathComponent(blocked))
        for path in cropped {
            try FileManager.default.copyItem(at: target.appendingPathComponent(path), to: fixture.library.appendingPathComponent(path))
        }
        XCTAssertTrue(try verify(fixture).out.hasPrefix("4 outputs checked: 0 missing, 0 changed, 3 untracked\n"))

        let back = try fixture.duplicates(["--move-back", target.path])
        XCTAssertEqual(back.status, 1, "a file failed: \(back.out)")
        XCTAssertTrue(back.out.contains("failed \(changed) (of \(fixture.resaved.path)): \(target.appendingPathComponent(changed).path) changed since it was moved"),
                      back.out)
        XCTAssertTrue(back.out.contains("skipped \(blocked) (of \(fixture.resized.path)): \(fixture.library.appendingPathComponent(blocked).path) exists and is "
                                        + "another file: left both where they are"), back.out)
        XCTAssertTrue(back.out.contains("moved \(fixture.cropped.path)'s library files back from \(target.path):"), back.out)
        XCTAssertTrue(back.out.hasSuffix("4 files moved back, 1 skipped, 1 failed\n"), back.out)
        XCTAssertEqual(try Data(contentsOf: fixture.library.appendingPathComponent(blocked)), stranger, "the file in the way is untouched")
        XCTAssertTrue(FileManager.default.fileExists(atPath: target.appendingPathComponent(blocked).path), "the moved file stays in the folder")
        XCTAssertTrue(FileManager.default.fileExists(atPath: target.appendingPathComponent(changed).path), "the changed file stays in the folder")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.library.appendingPathComponent(changed).path))
        XCTAssertEqual(try fixture.outputs(of: fixture.cropped), cropped, "the files copied back by hand are recorded")
        XCTAssertEqual(try verify(fixture).out, "8 outputs checked: 0 missing, 0 changed, 1 untracked\n  untracked: \(blocked)\n")

        // With the file out of the way, the next move-back takes the resized copy's HEIC back; the
        // changed thumbnail is still reported.
        try FileManager.default.removeItem(at: fixture.library.appendingPathComponent(blocked))
        let again = try fixture.duplicates(["--move-back", target.path])
        XCTAssertEqual(again.status, 1, again.out)
        XCTAssertTrue(again.out.contains("moved \(fixture.resized.path)'s library files back from \(target.path):\n  \(blocked)\n"), again.out)
        XCTAssertTrue(again.out.hasSuffix("1 file moved back, 0 skipped, 1 failed\n"), again.out)
        XCTAssertEqual(try verify(fixture).out, "9 outputs checked: 0 missing, 0 changed, 0 untracked\n")
    }

    func testAPhotoMadeAgainSinceTheMoveKeepsItsNewFilesAndTheMovedOnesStayInTheFolder() throws {
        let fixture = try DuplicatesFixture("dupes-move-back-remade")
        try fixture.importRoll()
        let target = fixture.folder.path("moved")
        XCTAssertEqual(try fixture.duplicates(["--move-to", target.path]).status, 0)
        let heics = try fixture.copies.map { copy in try XCTUnwrap(try fixture.outputs(movedFrom: copy, to: target).first { $0.hasSuffix(".heic") }) }
        let moved = try bytesOf(heics, in: target)

        // The import changed (a higher HEIC quality): every photo's HEIC is made again, the copies' too.
        let settings = fixture.folder.path("import.yaml")
        let yaml = try String(contentsOf: settings, encoding: .utf8)
        try Data(yaml.replacingOccurrences(of: "quality: 30", with: "quality: 50").utf8).write(to: settings)
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(path: settings.path)
        let report = try Runner(pipeline: pipeline, settings: RunSettings(library: fixture.library, timeZone: TimeZone(identifier: "UTC")!, jobs: 2))
            .run(inputs: [fixture.roll])
        XCTAssertEqual(report.failed, 0, "\(report.failures)")

        for _ in 1...2 {
            let back = try fixture.duplicates(["--move-back", target.path])
            XCTAssertEqual(back.status, 0, back.out)
            for (copy, heic) in zip(fixture.copies, heics) {
                XCTAssertTrue(back.out.contains("skipped \(heic) (of \(copy.path)): the library has another file at that path now (made again since the move): "
                                                + "left both where they are"), back.out)
                XCTAssertTrue(try fixture.outputs(of: copy).contains(heic), "the new HEIC stays recorded")
            }
            XCTAssertEqual(try bytesOf(heics, in: target), moved, "the moved HEICs stay in the folder")
            let drift = try verify(fixture)
            XCTAssertEqual(drift.status, 0, drift.out)
            XCTAssertTrue(drift.out.hasSuffix(" 0 missing, 0 changed, 0 untracked\n"), drift.out)
        }
    }

    /// `darkroom catalog verify` on the fixture's library.
    private func verify(_ fixture: DuplicatesFixture) throws -> (status: Int32, out: String, err: String) {
        try fixture.command.run(["catalog", "verify", "--library", fixture.library.path])
    }

    /// The bytes of each of `paths` under `folder`.
    private func bytesOf(_ paths: [String], in folder: URL) throws -> [String: Data] {
        Dictionary(uniqueKeysWithValues: try paths.map { ($0, try Data(contentsOf: folder.appendingPathComponent($0))) })
    }
}

extension DuplicatesFixture {
    /// The paths the folder's manifest lists for the photo from `original`, sorted.
    func outputs(movedFrom original: URL, to folder: URL) throws -> [String] {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(".darkroom-moved.json"))) as? [String: Any]
        let files = try XCTUnwrap(manifest?["files"] as? [[String: Any]])
        return files.filter { $0["original"] as? String == original.path }.compactMap { $0["path"] as? String }.sorted()
    }
}
