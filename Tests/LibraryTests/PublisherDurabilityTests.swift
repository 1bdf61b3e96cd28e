import DarkroomCatalog
import DarkroomLibrary
import DarkroomTestSupport
import Foundation
import Logging
import Synchronization
import XCTest

/// Putting files into the library survives a failure or a kill at each step (issue 26 item 8): a
/// replaced file comes back when its unit fails, and every new folder is made durable.
final class PublisherDurabilityTests: XCTestCase {
    private var library: URL!

    override func setUpWithError() throws {
        library = FileManager.default.temporaryDirectory.appendingPathComponent("publisher-durability-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    }

    override func tearDown() {
        FaultInjection.install(nil)
        try? FileManager.default.removeItem(at: library)
        super.tearDown()
    }

    // MARK: A replaced file

    func testAReplacedFileComesBackWhenALaterFileOfItsUnitFails() throws {
        let catalog = try Catalog(library: library)
        try publish(["Photos/a.jpg": "old a"], catalog: catalog)
        FaultInjection.install { $0 == .placed("Photos/b.jpg") ? .fail(.ioError) : .proceed }
        XCTAssertThrowsError(try publish(["Photos/a.jpg": "new a", "Photos/b.jpg": "new b"], catalog: catalog)) { error in
            XCTAssertTrue("\(error)".contains("placed Photos/b.jpg"), "\(error)")
        }
        FaultInjection.install(nil)
        XCTAssertEqual(text("Photos/a.jpg"), "old a", "the unit failed: the file it replaced is back")
        XCTAssertNil(text("Photos/b.jpg"))
        XCTAssertNil(text(LibraryFiles.keptAsidePath(of: "Photos/a.jpg")))
        let drift = try catalog.verify(library: library)
        XCTAssertTrue(drift.isClean, drift.text)
    }

    func testAReplacedFileComesBackAfterAKill() throws {
        try publish(["Photos/a.jpg": "old a"], catalog: Catalog(library: library))
        let tool = try DarkroomCommand(workingDirectory: library, executable: "library-tool")
        let killed = try tool.run(["publish", library.path, "photo", "--kill-at", "placed Photos/2024/b.jpg",
                                   "Photos/a.jpg=new a", "Photos/2024/b.jpg=new b"])
        XCTAssertNotEqual(killed.status, 0, killed.out + killed.err)
        XCTAssertEqual(text("Photos/a.jpg"), "new a", "killed after replacing it, before recording it")

        let catalog = try Catalog(library: library)
        try LibraryRecovery.recover(catalog, library: library, logger: Logger(label: "test"))
        XCTAssertEqual(text("Photos/a.jpg"), "old a", "the file the catalog records is back")
        XCTAssertNil(text("Photos/2024/b.jpg"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.appendingPathComponent(LibraryFiles.keptAsideFolder).path))
        let drift = try catalog.verify(library: library)
        XCTAssertTrue(drift.isClean, drift.text)
    }

    func testTheOldBytesAreKeptUntilTheCommitRecordsTheNewOnes() throws {
        let catalog = try Catalog(library: library)
        try publish(["Photos/a.jpg": "old a"], catalog: catalog)
        let publication = try published(["Photos/a.jpg": "new a"], catalog: catalog)
        XCTAssertEqual(text("Photos/a.jpg"), "new a")
        XCTAssertEqual(text(LibraryFiles.keptAsidePath(of: "Photos/a.jpg")), "old a", "kept aside until the commit")
        try publication.commit(units: [.init(step: "test", key: "k2")], asset: nil, to: catalog)
        XCTAssertNil(text(LibraryFiles.keptAsidePath(of: "Photos/a.jpg")))
        XCTAssertEqual(try catalog.recoverPending(), [], "the commit cleared the note of the old bytes")
        let drift = try catalog.verify(library: library)
        XCTAssertTrue(drift.isClean, drift.text)
    }

    /// A photo whose commit failed on a full disk takes back what it published at once: its new file
    /// goes, the file it replaced gets its old bytes back, and the next run's recovery, reading the
    /// notes the full disk could not clear, finds nothing more to undo.
    func testAPublicationWithdrawnAfterItsCommitFailedLeavesTheLibraryAsTheCatalogRecordsIt() throws {
        let catalog = try Catalog(library: library)
        try publish(["Photos/a.jpg": "old a"], catalog: catalog)
        let publication = try published(["Photos/a.jpg": "new a", "Photos/b.jpg": "new b"], catalog: catalog)
        XCTAssertEqual(text("Photos/b.jpg"), "new b")

        publication.withdraw()
        XCTAssertEqual(text("Photos/a.jpg"), "old a", "the file it replaced has its old bytes back")
        XCTAssertNil(text("Photos/b.jpg"), "the new file is gone")
        XCTAssertNil(text(LibraryFiles.keptAsidePath(of: "Photos/a.jpg")))
        XCTAssertEqual(publication.published, [])
        XCTAssertTrue(try catalog.verify(library: library).isClean)

        try LibraryRecovery.recover(catalog, library: library, logger: Logger(label: "test"))
        XCTAssertEqual(text("Photos/a.jpg"), "old a", "recovery, reading the notes the commit did not clear, leaves it")
        let drift = try catalog.verify(library: library)
        XCTAssertTrue(drift.isClean, drift.text)
    }

    // MARK: Staged files

    func testEveryStagedFileIsMadeDurableBeforeAnyIsPlaced() throws {
        let events = Mutex<[FaultPoint]>([])
        FaultInjection.install { point in
            events.withLock { $0.append(point) }
            return .proceed
        }
        try publish(["Photos/a.jpg": "a", "Photos/b.jpg": "b"], catalog: Catalog(library: library))
        let seen = events.withLock { $0 }
        let temporary = Publisher.sharedTemporaryFolder(library: library).path
        let stagedSyncs = seen.indices.filter { if case .syncing(let path) = seen[$0] { path.hasPrefix(temporary + "/") } else { false } }
        let placings = seen.indices.filter { if case .placed = seen[$0] { true } else { false } }
        XCTAssertEqual(stagedSyncs.count, 2, "each staged file is synced once: \(seen)")
        XCTAssertEqual(placings.count, 2, "\(seen)")
        XCTAssertLessThan(stagedSyncs.max() ?? .max, placings.min() ?? .min, "both are durable before the first is linked into place: \(seen)")
    }

    func testAStagedFileThatCannotBeSyncedIsNotPublished() throws {
        let catalog = try Catalog(library: library)
        let temporary = Publisher.sharedTemporaryFolder(library: library).path
        FaultInjection.install { point in
            if case .syncing(let path) = point, path.hasPrefix(temporary + "/") { return .fail(.ioError) }
            return .proceed
        }
        XCTAssertThrowsError(try publish(["Photos/a.jpg": "a"], catalog: catalog))
        FaultInjection.install(nil)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: library.path).sorted(), [".darkroom"])
        XCTAssertEqual(try catalog.allOutputs(), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [], "the temp file is removed")
    }

    // MARK: New folders

    func testEveryNewFolderAndItsParentAreSynced() throws {
        let synced = Mutex<[String]>([])
        FaultInjection.install { point in
            if case .syncing(let path) = point { synced.withLock { $0.append(path) } }
            return .proceed
        }
        try publish(["Photos/2024/05/a.jpg": "a"], catalog: Catalog(library: library))
        let folders = Set(synced.withLock { $0 })
        for folder in ["Photos/2024/05", "Photos/2024", "Photos"] {
            XCTAssertTrue(folders.contains(library.appendingPathComponent(folder).path), "\(folder) in \(folders.sorted())")
        }
        XCTAssertTrue(folders.contains(library.path), "the library, where Photos was made: \(folders.sorted())")
    }

    func testAFolderThatCannotBeSyncedLeavesTheLibraryAsItWas() throws {
        let catalog = try Catalog(library: library)
        let photos = library.appendingPathComponent("Photos").path
        FaultInjection.install { $0 == .syncing(photos) ? .fail(.ioError) : .proceed }
        XCTAssertThrowsError(try publish(["Photos/2024/a.jpg": "a"], catalog: catalog))
        FaultInjection.install(nil)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: library.path).sorted(), [".darkroom"])
        XCTAssertEqual(try catalog.allOutputs(), [])
    }

    // MARK: Helpers

    /// Publishes `files` (path: text) for `subject` and records them, as a run does.
    private func publish(_ files: [String: String], subject: String = "photo", catalog: Catalog) throws {
        let publication = try published(files, subject: subject, catalog: catalog)
        defer { publication.discard() }
        try publication.commit(units: [.init(step: "test", key: "k")], asset: nil, to: catalog)
    }

    /// `files` (path: text) published in a run of their own for `subject`, not committed yet.
    private func published(_ files: [String: String], subject: String = "photo", catalog: Catalog) throws -> Publication {
        let run = try catalog.beginRun(pipeline: "test")
        let publisher = try Publisher(library: library, catalog: catalog, run: run,
                                      temporaryFolder: Publisher.sharedTemporaryFolder(library: library))
        let publication = publisher.publication(subject: subject, source: nil)
        do {
            for (path, text) in files.sorted(by: { $0.key < $1.key }) {
                try publication.stage(path, step: "test") { try Data(text.utf8).write(to: $0) }
            }
            try publication.publish()
        } catch {
            publication.discard()
            throw error
        }
        return publication
    }

    private func text(_ path: String) -> String? {
        (try? Data(contentsOf: library.appendingPathComponent(path))).map { String(decoding: $0, as: UTF8.self) }
    }
}
