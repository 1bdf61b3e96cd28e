import DarkroomCatalog
import DarkroomLibrary
import DarkroomModel
import DarkroomReport
import Foundation
import Synchronization
import XCTest

/// The catalog's rules, each of which SQL once wrote twice (for SQLite and for PostgreSQL), run on
/// the SQLite catalog here and on the PostgreSQL one by `PostgresCatalogSemanticsTests`, which
/// inherits every test and only makes another store.
class CatalogSemanticsTests: XCTestCase {
    var library: URL!
    var catalog: RowCatalog!
    var run: Int64 = 0

    /// The store under test: the library's SQLite catalog here.
    func makeCatalog(library: URL) throws -> RowCatalog {
        try Catalog(library: library)
    }

    /// Runs SQL on the store's database behind the catalog's back (with the `sqlite3` CLI here), as
    /// an earlier Darkroom's own statements wrote it.
    func execute(_ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", "-bail", library.appendingPathComponent(".darkroom/catalog.sqlite").path, sql]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw RunError("sqlite3 failed (install it: scripts/setup.sh --tests): \(problem)") }
    }

    override func setUpWithError() throws {
        library = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-semantics-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        catalog = try makeCatalog(library: library)
        run = try catalog.beginRun(pipeline: "import.yaml")
    }

    override func tearDown() {
        catalog = nil
        try? FileManager.default.removeItem(at: library)
        super.tearDown()
    }

    // MARK: Which outputs become stale on commit

    func testACommitRetractsWhatItsUnitsNoLongerMake() throws {
        XCTAssertEqual(try commit("p", units: ["heic": "k1", "thumb": "k2"],
                                  outputs: ["Photos/p.heic": "heic", "Thumbs/p-200.jpg": "thumb", "Thumbs/p-extra.jpg": "thumb"]), [])
        XCTAssertEqual(try commit("q", units: ["thumb": "q1"], outputs: ["Thumbs/q.jpg": "thumb"]), [])
        XCTAssertEqual(try commit("p", units: ["thumb": "k3"], outputs: ["Thumbs/p-400.jpg": "thumb", "Thumbs/p-extra.jpg": "thumb"]),
                       ["Thumbs/p-200.jpg"], "only the thumbnail it no longer makes")
        let state = try catalog.state(of: "p")
        XCTAssertEqual(state.unitKeys, ["heic": "k1", "thumb": "k3"])
        XCTAssertEqual(state.outputs.map(\.path), ["Photos/p.heic", "Thumbs/p-400.jpg", "Thumbs/p-extra.jpg"], "by path")
        XCTAssertEqual(try catalog.state(of: "q").outputs.map(\.path), ["Thumbs/q.jpg"], "another subject's outputs of the step stay")
        XCTAssertNil(try catalog.output(at: "Thumbs/p-200.jpg"))
    }

    func testTheLastOfTwoUnitsOrOutputsForOneStepOrPathWins() throws {
        let completion = UnitCompletion(subject: "p", units: [.init(step: "thumb", key: "first"), .init(step: "thumb", key: "last")],
                                        outputs: [output("Thumbs/p.jpg", "thumb", bytes: "first"), output("Thumbs/p.jpg", "thumb", bytes: "last")],
                                        asset: nil)
        XCTAssertEqual(try catalog.commit(completion, run: run), [])
        XCTAssertEqual(try catalog.state(of: "p").unitKeys, ["thumb": "last"])
        XCTAssertEqual(try catalog.output(at: "Thumbs/p.jpg")?.sha256, ContentHash.of("last"))
    }

    func testRetiredStepsLoseTheirUnitsAndTheirOutputsAreStale() throws {
        _ = try commit("v", units: ["video": "v1", "thumb": "v2", "meta": "v3"],
                       outputs: ["Videos/v.mov": "video", "Thumbs/v.jpg": "thumb", "Thumbs/v-small.jpg": "thumb", "Meta/v.json": "meta"])
        let stale = try catalog.commit(UnitCompletion(subject: "v", units: [.init(step: "motion", key: "m1")],
                                                      outputs: [output("Photos/v.mov", "motion"), output("Thumbs/v.jpg", "thumb")],
                                                      asset: nil, retiredSteps: ["video", "thumb"]), run: run)
        XCTAssertEqual(stale, ["Thumbs/v-small.jpg", "Videos/v.mov"], "a retired step's outputs, but not one recorded again")
        let state = try catalog.state(of: "v")
        XCTAssertEqual(state.unitKeys, ["meta": "v3", "motion": "m1"])
        XCTAssertEqual(state.outputs.map(\.path), ["Meta/v.json", "Photos/v.mov", "Thumbs/v.jpg"])
    }

    // MARK: Pending notes

    func testPendingNotesNameWhatWasNeverRecordedOnce() throws {
        try catalog.markPending(["Photos/b.heic", "Photos/a.heic", "Photos/b.heic", "Photos/kept.heic"], run: run)
        try catalog.markPending([LibraryFiles.keptAsidePath(of: "Photos/replaced.heic"), LibraryFiles.keptAsidePath(of: "Photos/old.heic")],
                                run: run)
        _ = try commit("p", units: ["heic": "k"], outputs: ["Photos/kept.heic": "heic", "Photos/replaced.heic": "heic"])
        XCTAssertEqual(try catalog.recoverPending(), [".darkroom/replaced/Photos/old.heic", "Photos/a.heic", "Photos/b.heic"],
                       "sorted, each once; a commit clears the notes of what it records and of the old files they replaced")
        XCTAssertEqual(try catalog.recoverPending(), [])
        // A path noted again by a later run, and recorded by an earlier one, is not an orphan.
        try catalog.markPending(["Photos/kept.heic"], run: run)
        XCTAssertEqual(try catalog.recoverPending(), [])
    }

    func testNoNoteBelongsToAJobOutsideAQueue() throws {
        try catalog.markPending(["Photos/a.heic"], run: run)
        XCTAssertEqual(try catalog.recoverPending(.job(1)), [])
        XCTAssertEqual(try catalog.recoverPending(), ["Photos/a.heic"])
    }

    // MARK: The hash cache

    func testAHashIsRememberedForOneVersionOfAFile() throws {
        let version = (path: "/card/a.jpg", size: 10)
        XCTAssertNil(try catalog.cachedHash(path: version.path, size: 10, mtimeNanoseconds: 99, inode: .max))
        try catalog.rememberHashes([fingerprint(version.path, "old"), fingerprint(version.path, "new")])
        XCTAssertEqual(try catalog.cachedHash(path: version.path, size: 10, mtimeNanoseconds: 99, inode: .max), "new", "the last one wins")
        XCTAssertNil(try catalog.cachedHash(path: version.path, size: 11, mtimeNanoseconds: 99, inode: .max))
        XCTAssertNil(try catalog.cachedHash(path: version.path, size: 10, mtimeNanoseconds: 98, inode: .max))
        XCTAssertNil(try catalog.cachedHash(path: version.path, size: 10, mtimeNanoseconds: 99, inode: 1))
        XCTAssertNil(try catalog.cachedHash(path: "/card/b.jpg", size: 10, mtimeNanoseconds: 99, inode: .max))
    }

    func testManyFilesAskedAboutAtOnceComeBackEachOnceWithTheirOwnHash() throws {
        let paths = (0..<9_000).map { "/card/\($0).jpg" }
        try catalog.rememberHashes(paths.map { fingerprint($0, "hash of \($0)") })
        let asked = paths.reversed() + ["/card/never seen.jpg"]
        let read = try catalog.fingerprints(paths: asked)
        XCTAssertEqual(read.count, paths.count, "every remembered file once, the unknown one not at all")
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: read.map { ($0.path, $0.hash) }),
                       Dictionary(uniqueKeysWithValues: paths.map { ($0, "hash of \($0)") }))
        // The SQLite catalog reads so many keys in slices on its readers at once, one core each.
        guard let sqlite = catalog as? Catalog, ProcessInfo.processInfo.activeProcessorCount > 1 else { return }
        let statements = Mutex(0)
        sqlite.traceStatements { statement in if statement.contains("FROM file_stats") { statements.withLock { $0 += 1 } } }
        XCTAssertEqual(try sqlite.fingerprints(paths: asked).count, paths.count)
        XCTAssertEqual(statements.withLock { $0 }, min(4, ProcessInfo.processInfo.activeProcessorCount), "one lookup a slice")
    }

    // MARK: How dates and facts are recorded and corrected

    func testADateIsReplacedWholeAndKeptWhenARunFindsNone() throws {
        var asset = facts(h("a"), date: date(day: 3, offset: 7200, source: .exifOriginal))
        asset.width = 4000
        asset.height = 3000
        try record(asset)
        // A later run found no date, but the camera.
        var later = facts(h("a"), date: nil)
        later.camera = "Pixel 8"
        try record(later)
        XCTAssertEqual(try read(h("a")).captureDate, date(day: 3, offset: 7200, source: .exifOriginal))
        XCTAssertEqual(try read(h("a")).camera, "Pixel 8")
        XCTAssertEqual(try read(h("a")).width, 4000, "a fact the run did not learn is kept")
        // A date without an offset replaces the old date whole: the old offset does not linger.
        try record(facts(h("a"), date: date(day: 5, offset: nil, source: .filename)))
        let row = try XCTUnwrap(try catalog.rows.read { try $0.assets(.contentHashes([h("a")])) }.first)
        XCTAssertEqual(row.captureLocal, "2024-05-05T12:30:00")
        XCTAssertNil(row.captureUTCOffset)
        XCTAssertEqual(row.captureSource, "filename")
        XCTAssertEqual(row.captureConfidence, "low")
        XCTAssertEqual(try catalog.rememberedFacts(contentHash: h("a"))?.captureDate, date(day: 5, offset: nil, source: .filename))
    }

    func testACorrectedDateIsRecordedWithTheDateItOverrides() throws {
        try record(facts(h("a"), date: date(day: 3, offset: 7200, source: .exifOriginal)))
        var corrected = try read(h("a"))
        let found = try XCTUnwrap(corrected.captureDate)
        corrected.captureDate = CaptureDate(local: LocalDateTime(year: 2019, month: 6, day: 15, hour: 12)!, utcOffsetSeconds: 7200,
                                            source: .user, timeZoneSource: .metadata, confidence: .high, overrides: FoundDate(found))
        try record(corrected)
        XCTAssertEqual(try read(h("a")).captureDate, corrected.captureDate)
        XCTAssertEqual(try catalog.rememberedFacts(contentHash: h("a"))?.captureDate?.found, FoundDate(found))
        XCTAssertEqual(try catalog.assets(.contentHash(h("a"))).map(describe), [describe(corrected)], "every other fact kept")
    }

    func testAnAssetKeepsItsIdentityAndFirstRun() throws {
        try record(facts(h("a"), date: nil))
        let later = try catalog.beginRun(pipeline: "again.yaml")
        var elsewhere = facts(h("a"), date: nil)
        elsewhere.originalPath = "/backup/a.jpg"
        elsewhere.fileSize = 1
        _ = try catalog.commit(UnitCompletion(subject: h("a"), units: [], outputs: [], asset: elsewhere), run: later)
        let row = try XCTUnwrap(try catalog.rows.read { try $0.assets(.contentHashes([h("a")])) }.first)
        XCTAssertEqual(row.originalPath, "/card/\(h("a")).jpg")
        XCTAssertEqual(row.fileSize, 1234)
        XCTAssertEqual(row.firstRun, run)
        XCTAssertEqual(row.lastRun, later)
    }

    func testAPlaceAndAVideosEncodingAreReplacedWhole() throws {
        var video = facts(h("v"), date: nil, path: "/card/v.mov")
        video.location = GeoLocation(latitude: 48.8584, longitude: 2.2945, altitude: 35)
        video.video = VideoFacts(duration: 2.5, codec: "hevc", bitDepth: 10, hdrTransfer: .hlg, audioCodec: "aac")
        video.contentIdentifier = "LIVE"
        video.motionOf = h("still")
        try record(video)
        var again = facts(h("v"), date: nil, path: "/card/v.mov")
        again.location = GeoLocation(latitude: 1, longitude: 2)
        again.video = VideoFacts(duration: 3, codec: "h264", bitDepth: 8, hdrTransfer: nil, audioCodec: nil)
        try record(again)
        let read = try read(h("v"))
        XCTAssertEqual(read.location, GeoLocation(latitude: 1, longitude: 2), "no altitude left from the old place")
        XCTAssertEqual(read.video, VideoFacts(duration: 3, codec: "h264", bitDepth: 8, hdrTransfer: nil, audioCodec: nil))
        XCTAssertEqual(read.contentIdentifier, "LIVE", "kept: the run did not read one")
        XCTAssertNil(read.motionOf, "always the run's: the video is no longer a motion part")
        XCTAssertEqual(read.mediaKind, .video)
        try record(facts(h("v"), date: nil, path: "/card/v.mov"))
        XCTAssertEqual(try self.read(h("v")).location, GeoLocation(latitude: 1, longitude: 2), "a run that found no place keeps it")
        XCTAssertEqual(try self.read(h("v")).video?.codec, "h264")
    }

    // MARK: What listings return

    func testListingsAreInByteOrder() throws {
        _ = try commit("p", units: [:], outputs: ["É.jpg": "heic", "a.jpg": "heic", "Z.jpg": "heic", "B.jpg": "heic"])
        XCTAssertEqual(try catalog.outputs(ofSubjects: ["p"]).map(\.path), ["B.jpg", "Z.jpg", "a.jpg", "É.jpg"])
        XCTAssertEqual(try catalog.allOutputs().map(\.path), ["B.jpg", "Z.jpg", "a.jpg", "É.jpg"])
        XCTAssertEqual(try catalog.state(of: "p").outputs.map(\.path), ["B.jpg", "Z.jpg", "a.jpg", "É.jpg"])
        for (hash, path) in [(h("h1"), "/card/é.jpg"), (h("h2"), "/card/b.jpg"), (h("h3"), "/card/B.jpg"), (h("h0"), "/card/b.jpg")] {
            try record(facts(hash, date: nil, path: path))
        }
        let names = Dictionary(uniqueKeysWithValues: ["h0", "h1", "h2", "h3"].map { (h($0), $0) })
        let twins = [h("h0"), h("h2")].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { "/card/b.jpg \(names[$0]!)" }
        XCTAssertEqual(try catalog.assets(.folder("/card")).map { "\($0.originalPath) \(names[$0.contentHash]!)" },
                       ["/card/B.jpg h3"] + twins + ["/card/é.jpg h1"], "by the path's bytes, then content hash")
        XCTAssertEqual(try catalog.assets(contentHashes: [h("h3"), h("h1"), "unknown", h("h0")]).map(\.contentHash),
                       [h("h3"), h("h1"), h("h0")].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, "by content hash")
    }

    func testCollectionOutputsAreThoseOfCollectionSubjects() throws {
        _ = try commit("collection:grid/collage", units: ["grid/collage": "c"], outputs: ["collages/grid.jpg": "grid/collage"])
        _ = try commit("Collection:odd", units: [:], outputs: ["odd.jpg": "x"])
        _ = try commit("collectionless", units: [:], outputs: ["other.jpg": "x"])
        XCTAssertEqual(try catalog.collectionOutputs().map(\.path), ["collages/grid.jpg"])
        XCTAssertNil(try catalog.output(at: "collages/grid.jpg")?.sourcePath, "a collection has no original")
    }

    func testFindingPhotosToCorrect() throws {
        var iphone = facts(h("h1"), date: nil, path: "/card/sub/a.jpg")
        iphone.camera = "Apple iPhone 13"
        var eclair = facts(h("h2"), date: nil, path: "/card/b.jpg")
        eclair.camera = "Éclair"
        var video = facts(h("h3"), date: nil, path: "/cardboard/c.mov")
        video.motionOf = h("h1")
        for asset in [iphone, eclair, video] { try record(asset) }
        XCTAssertEqual(try catalog.assets(.folder("/card")).map(\.originalPath), ["/card/b.jpg", "/card/sub/a.jpg"], "not /cardboard")
        XCTAssertEqual(try catalog.assets(.camera("apple IPHONE 13")).map(\.contentHash), [h("h1")])
        XCTAssertEqual(try catalog.assets(.camera("éCLAIR")).map(\.contentHash), [h("h2")], "letters' case beyond ASCII too")
        XCTAssertEqual(try catalog.assets(.camera("Apple")).map(\.contentHash), [], "the whole name")
        XCTAssertEqual(try catalog.assets(.id(ContentHash.uuid(fromHex: h("h2")))).map(\.contentHash), [h("h2")])
        XCTAssertEqual(try catalog.assets(.originalPath("/cardboard/c.mov")).map(\.contentHash), [h("h3")])
        XCTAssertEqual(try catalog.assets(.motionParts(of: h("h1"))).map(\.contentHash), [h("h3")])
        XCTAssertEqual(try catalog.motionParts(ofStills: [h("h1"), h("h2")]).map(\.contentHash), [h("h3")])
    }

    func testAnOutputNamesTheOriginalItWasMadeFrom() throws {
        try record(facts(h("h1"), date: nil, path: "/card/a.jpg"))
        _ = try commit(h("h1"), units: ["heic": "k"], outputs: ["Photos/a.heic": "heic"])
        XCTAssertEqual(try catalog.output(at: "Photos/a.heic")?.sourcePath, "/card/a.jpg")
        XCTAssertNil(try catalog.output(at: "Photos/none.heic"))
    }

    func testRecordedPipelinesAreTheLatestFirstEachOnce() throws {
        for pipeline in ["import.yaml", "grid.yaml", "import.yaml", "book.yaml"] {
            let id = try catalog.beginRun(pipeline: pipeline)
            try catalog.finishRun(id, report: RunReport(pipeline: pipeline, library: library.path))
        }
        XCTAssertEqual(try catalog.recordedPipelines(), ["book.yaml", "import.yaml", "grid.yaml"])
    }

    // MARK: Adoption after `catalog rebuild`

    func testARebuiltCatalogsFilesAreAdoptedByTheirPhoto() throws {
        let hash = ContentHash.of("photo two")
        let id = ContentHash.uuid(fromHex: hash).uuidString.lowercased()
        for path in ["Photos/2024/\(id).heic", "Thumbnails/\(id)-400.jpg", "notes.txt"] {
            let url = library.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(path.utf8).write(to: url)
        }
        let rebuilt = try catalog.rebuild(library: library)
        XCTAssertEqual(rebuilt.files, 2)
        XCTAssertEqual(rebuilt.photos, 1)
        XCTAssertEqual(try catalog.output(at: "Photos/2024/\(id).heic")?.subject, "id:" + id)
        XCTAssertEqual(try catalog.output(at: "Photos/2024/\(id).heic")?.step, CatalogVerification.rebuiltStep)
        XCTAssertEqual(try catalog.rebuild(library: library).files, 0, "what is recorded is not recorded again")
        XCTAssertEqual(try catalog.adopt(contentHash: hash), 2)
        XCTAssertEqual(try catalog.adopt(contentHash: hash), 0)
        XCTAssertEqual(try catalog.state(of: hash).outputs.map(\.path), ["Photos/2024/\(id).heic", "Thumbnails/\(id)-400.jpg"])
        XCTAssertEqual(try catalog.verify(library: library).untracked, ["notes.txt"])
    }

    // MARK: A catalog an earlier Darkroom wrote

    /// Rows as main's SQL (before the rules moved to Swift) wrote them, then read and changed
    /// through the rules: nothing in the tables' shape changed, so an existing catalog works on.
    func testRowsAnEarlierDarkroomWroteAreReadAndChangedAlike() throws {
        let photo = h("old photo"), id = ContentHash.uuid(fromHex: photo).uuidString.lowercased()
        let found = date(day: 3, offset: 7200, source: .exifOriginal)
        let json = String(decoding: try JSONEncoder().encode(found), as: UTF8.self)
        try execute("""
            INSERT INTO assets (content_hash, id, original_path, file_size, capture_local, capture_utc_offset, capture_source,
                                capture_tz_source, capture_confidence, capture_json, width, height, orientation, camera,
                                first_run, last_run, media_kind)
            VALUES ('\(photo)', '\(id)', '/card/old.jpg', 1234, '2024-05-03T12:30:00', 7200, 'exif:DateTimeOriginal',
                    'metadata', 'high', '\(json)', 4000, 3000, 1, 'Pixel 8', \(run), \(run), 'photo');
            INSERT INTO units (step, subject, unit_key, run_id) VALUES ('heic', '\(photo)', 'k1', \(run)), ('thumb', '\(photo)', 'k2', \(run));
            INSERT INTO outputs (path, step, subject, size, sha256, run_id)
            VALUES ('Photos/old.heic', 'heic', '\(photo)', 10, 'aa', \(run)), ('Thumbs/old.jpg', 'thumb', '\(photo)', 11, 'bb', \(run)),
                   ('Photos/\(id).heic', 'rebuilt', 'id:\(id)', 12, 'cc', NULL);
            INSERT INTO file_stats (path, size, mtime_ns, inode, content_hash) VALUES ('/card/old.jpg', 1234, 99, -1, '\(photo)');
            INSERT INTO pending_outputs (path, run_id) VALUES ('Photos/orphan.heic', \(run));
            """)
        XCTAssertEqual(try catalog.state(of: photo).unitKeys, ["heic": "k1", "thumb": "k2"])
        XCTAssertEqual(try catalog.output(at: "Photos/old.heic")?.sourcePath, "/card/old.jpg")
        XCTAssertEqual(try catalog.cachedHash(path: "/card/old.jpg", size: 1234, mtimeNanoseconds: 99, inode: .max), photo,
                       "an inode stored as a signed 64-bit integer reads back unsigned")
        let remembered = try XCTUnwrap(try catalog.rememberedFacts(contentHash: photo))
        XCTAssertEqual(remembered.captureDate, found)
        XCTAssertEqual(remembered.width, 4000)
        XCTAssertEqual(remembered.mediaKind, .photo)
        XCTAssertEqual(try catalog.assets(.camera("PIXEL 8")).map(\.originalPath), ["/card/old.jpg"])
        XCTAssertEqual(try catalog.recoverPending(), ["Photos/orphan.heic"])
        XCTAssertEqual(try catalog.adopt(contentHash: photo), 1)
        // A later run remakes the thumbnail and learns no date: the old thumbnail is stale, the date kept.
        var later = facts(photo, date: nil, path: "/card/old.jpg")
        later.camera = "Pixel 8 Pro"
        XCTAssertEqual(try catalog.commit(UnitCompletion(subject: photo, units: [.init(step: "thumb", key: "k3")],
                                                         outputs: [output("Thumbs/new.jpg", "thumb")], asset: later), run: run),
                       ["Thumbs/old.jpg"])
        let read = try read(photo)
        XCTAssertEqual(read.captureDate, found)
        XCTAssertEqual(read.camera, "Pixel 8 Pro")
        XCTAssertEqual(read.width, 4000)
        XCTAssertEqual(read.orientation, 1)
        XCTAssertNil(read.location)
        XCTAssertNil(read.video)
        XCTAssertEqual(try catalog.state(of: photo).outputs.map(\.path), ["Photos/\(id).heic", "Photos/old.heic", "Thumbs/new.jpg"])
    }

    // MARK: Helpers

    /// A content hash for a name.
    func h(_ name: String) -> String { ContentHash.of(name) }

    /// Commits `units` (step: key) and `outputs` (path: step) for `subject`.
    func commit(_ subject: String, units: [String: String], outputs: [String: String]) throws -> [String] {
        try catalog.commit(UnitCompletion(subject: subject, units: units.sorted { $0.key < $1.key }.map { .init(step: $0.key, key: $0.value) },
                                          outputs: outputs.sorted { $0.key < $1.key }.map { output($0.key, $0.value) }, asset: nil),
                           run: run)
    }

    func record(_ asset: AssetFacts) throws {
        _ = try catalog.commit(UnitCompletion(subject: asset.contentHash, units: [], outputs: [], asset: asset), run: run)
    }

    func read(_ hash: String) throws -> AssetFacts {
        try XCTUnwrap(try catalog.assets(contentHashes: [hash]).first)
    }

    func output(_ path: String, _ step: String, bytes: String? = nil) -> PublishedOutput {
        PublishedOutput(step: step, path: path, size: Int64((bytes ?? path).utf8.count), sha256: ContentHash.of(bytes ?? path))
    }

    func fingerprint(_ path: String, _ hash: String) -> FileFingerprint {
        FileFingerprint(path: path, size: 10, mtimeNanoseconds: 99, inode: .max, hash: hash)
    }

    func facts(_ hash: String, date: CaptureDate?, path: String? = nil) -> AssetFacts {
        AssetFacts(contentHash: hash, id: ContentHash.uuid(fromHex: hash), originalPath: path ?? "/card/\(hash).jpg", fileSize: 1234,
                   captureDate: date, width: nil, height: nil, orientation: nil, camera: nil)
    }

    func date(day: Int, offset: Int?, source: CaptureDate.Source) -> CaptureDate {
        CaptureDate(local: LocalDateTime(year: 2024, month: 5, day: day, hour: 12, minute: 30)!, utcOffsetSeconds: offset, source: source,
                    timeZoneSource: offset == nil ? .unknown : .metadata, confidence: source == .filename ? .low : .high)
    }

    func describe(_ facts: AssetFacts) -> String {
        "\(facts.id) \(facts.originalPath) \(facts.fileSize) \(facts.captureDate.map { "\($0)" } ?? "-") \(facts.width ?? 0)x\(facts.height ?? 0) "
            + "\(facts.camera ?? "-") \(facts.location.map { "\($0)" } ?? "-") \(facts.video.map { "\($0)" } ?? "-") "
            + "\(facts.contentIdentifier ?? "-") \(facts.motionOf ?? "-") \(facts.mediaKind)"
    }
}
