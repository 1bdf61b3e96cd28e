import DarkroomCatalog
import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// `set-date` killed (SIGKILL) at random moments, between moving files and recording them included:
/// each photo is in its old state or its new one, every file is somewhere, and a rerun converges.
final class KilledCorrectionTests: XCTestCase {
    func testKilledAtRandomMomentsEveryFileIsKeptAndARerunConverges() throws {
        let fixture = try LibraryFixture("set-date-killed")
        var photos: [URL] = []
        for index in 1...8 {
            photos.append(try fixture.photo("DCIM/IMG_\(index).JPG", date: "2024:05:0\(index) 12:00:00", seed: 30 + index))
        }
        XCTAssertEqual(try fixture.run().failures, [])
        let originals = try fixture.rollHashes()
        // Where each photo's files are at each date it takes here.
        var paths: [URL: [String: [String]]] = [:]
        for photo in photos {
            paths[photo] = try ["2024/05", "2021/01", "2019/06"].reduce(into: [:]) { $0[$1] = try fixture.expectedOutputs(of: photo, month: $1) }
        }
        let arguments = { (date: String) in ["--folder", fixture.roll.path, date, "--library", fixture.library.path] }

        // How long one uninterrupted correction of the 8 photos takes, to kill inside that time.
        let started = Date()
        XCTAssertEqual(try fixture.setDate(["--folder", fixture.roll.path, "2021-01-02T08:00"]).status, 0)
        let duration = Date().timeIntervalSince(started)

        var generator = SystemRandomNumberGenerator()
        var kills = 0
        for attempt in 1...24 {
            let date = attempt % 2 == 0 ? "2021-01-02T08:00" : "2019-06-15T12:00"
            let process = try fixture.command.start(["catalog", "set-date"] + arguments(date))
            usleep(UInt32(duration * Double.random(in: 0.05...1.1, using: &generator) * 1_000_000))
            if process.isRunning { kill(process.processIdentifier, SIGKILL); kills += 1 }
            process.waitUntilExit()
            try assertEachPhotoInOneState(fixture, photos: photos, paths: paths, context: "after kill \(attempt)")
        }

        let result = try fixture.setDate(["--folder", fixture.roll.path, "2019-06-15T12:00"])
        XCTAssertEqual(result.status, 0, result.err + result.out)
        let drift = try fixture.catalog.verify(library: fixture.library)
        XCTAssertTrue(drift.isClean, drift.text)
        XCTAssertEqual(try fixture.libraryFiles(), photos.flatMap { paths[$0]!["2019/06"]! }.sorted(), "each file once, in June 2019")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: fixture.library.appendingPathComponent(".darkroom/tmp").path), [])
        XCTAssertEqual(try fixture.rollHashes(), originals, "originals untouched")
        XCTAssertGreaterThan(kills, 8, "a third of the corrections at least were interrupted (one takes \(duration) s)")
        print("set-date crash test: \(kills) kills in corrections of \(String(format: "%.2f", duration)) s, 0 files lost")
    }

    /// The catalog says each photo's date and where its files are, and they are there with their
    /// recorded bytes; a file it does not list can only be the same photo's at its other date
    /// (published or not yet retracted when the kill came), which the next run or correction removes.
    func assertEachPhotoInOneState(_ fixture: LibraryFixture, photos: [URL], paths: [URL: [String: [String]]], context: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let drift = try fixture.catalog.verify(library: fixture.library)
        XCTAssertEqual(drift.missing, [], context, file: file, line: line)
        XCTAssertEqual(drift.changed, [], context, file: file, line: line)
        var leftovers = Set(drift.untracked)
        for photo in photos {
            let date = try XCTUnwrap(try fixture.asset(photo).captureDate, context)
            let month = String(format: "%04d/%02d", date.local.year, date.local.month)
            XCTAssertEqual(try fixture.outputs(of: photo), paths[photo]![month], "\(context): \(photo.lastPathComponent) at \(date)",
                           file: file, line: line)
            for other in paths[photo]!.values where other != paths[photo]![month] { leftovers.subtract(other) }
        }
        XCTAssertEqual(leftovers, [], "\(context): files that are no photo's at any of its dates", file: file, line: line)
    }
}
