import DarkroomCatalog
import DarkroomTestSupport
import Foundation
import XCTest

/// Two processes opening one catalog at once (issue 26 item 11): a run creating or upgrading the
/// catalog while another process (`explain --library`, a gallery run, a test's poll) opens it too.
/// Each round starts two `library-tool open` processes that begin opening at the same instant.
final class ConcurrentOpeningTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("concurrent-opening-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    func testTwoProcessesCreateOneCatalogAtOnce() throws {
        try race(rounds: 12) { _ in }
    }

    func testTwoProcessesUpgradeAnOldCatalogAtOnce() throws {
        // As the first release of the catalog left it: no video, place or Live Photo columns.
        try race(rounds: 12) { library in try Catalog.createOutdated(library: library, through: "v1") }
    }

    func testAnOldCatalogOpenedOnlyToReadIsNotUpgraded() throws {
        let library = folder.appendingPathComponent("old-library", isDirectory: true)
        try Catalog.createOutdated(library: library, through: "v1")
        XCTAssertThrowsError(try Catalog.openReadOnly(library: library)) { error in
            XCTAssertTrue("\(error)".contains("needs an upgrade") && "\(error)".contains("run an import"), "\(error)")
        }
        _ = try Catalog(library: library)
        let upgraded = try XCTUnwrap(try Catalog.openReadOnly(library: library))
        XCTAssertEqual(try upgraded.assets(.camera("any")).count, 0)
    }

    /// Opens a fresh library's catalog from two processes at once, `rounds` times; each must open
    /// it, and the catalog must end up whole (every column a run reads).
    private func race(rounds: Int, prepare: (URL) throws -> Void) throws {
        let tool = try DarkroomCommand(workingDirectory: folder, executable: "library-tool")
        for round in 1...rounds {
            let library = folder.appendingPathComponent("library-\(round)", isDirectory: true)
            try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
            try prepare(library)
            // Both begin at the same instant, a second from now (time enough to start on a loaded machine).
            let instant = String(Date().timeIntervalSince1970 + 1)
            let logs = (1...2).map { folder.appendingPathComponent("round-\(round)-process-\($0).log") }
            let processes = try logs.map { try tool.start(["open", library.path, "--at", instant], log: $0) }
            for process in processes { process.waitUntilExit() }
            for (process, log) in zip(processes, logs) {
                let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                XCTAssertEqual(process.terminationStatus, 0, "round \(round): \(output)")
            }
            let catalog = try XCTUnwrap(try Catalog.openReadOnly(library: library))
            XCTAssertEqual(try catalog.assets(.camera("any")).count, 0, "round \(round): the upgraded columns are there")
            XCTAssertNil(try catalog.rememberedFacts(contentHash: "none"))
        }
    }
}
