import DarkroomCore
import Foundation
import XCTest
import DarkroomCorrection
import DarkroomLibrary
import DarkroomModel
import DarkroomReport

/// Catalog inputs for tests.
enum CatalogFixtures {
    static func asset(_ hash: String, date: CaptureDate?, width: Int?, camera: String?) -> AssetFacts {
        AssetFacts(contentHash: hash, id: ContentHash.uuid(fromHex: hash), originalPath: "/card/\(hash.prefix(6)).jpg",
                   fileSize: 1234, captureDate: date, width: width, height: width.map { $0 * 3 / 4 },
                   orientation: width == nil ? nil : 1, camera: camera)
    }

    static func date(day: Int) -> CaptureDate {
        CaptureDate(local: LocalDateTime(year: 2024, month: 5, day: day, hour: 12, minute: 30)!, utcOffsetSeconds: 7200,
                    source: .exifOriginal, timeZoneSource: .metadata, confidence: .high)
    }

    static func output(_ path: String, step: String) -> PublishedOutput {
        PublishedOutput(step: step, path: path, size: Int64(path.utf8.count), sha256: ContentHash.of(path))
    }

    /// The same sequence of calls on any catalog, written down as text, so that two catalogs can be
    /// compared call by call.
    static func transcript(_ store: CorrectableCatalog) throws -> [String] {
        var lines: [String] = []
        func note(_ label: String, _ value: Any?) { lines.append("\(label): \(value.map { "\($0)" } ?? "nil")") }
        let photo = ContentHash.of("photo one"), rebuilt = ContentHash.of("photo two")
        let run = try store.beginRun(pipeline: "import.yaml")

        note("cached before", try store.cachedHash(path: "in/a.jpg", size: 10, mtimeNanoseconds: 99, inode: .max))
        try store.rememberHashes([
            FileFingerprint(path: "in/a.jpg", size: 10, mtimeNanoseconds: 99, inode: .max, hash: "old"),
            FileFingerprint(path: "in/a.jpg", size: 10, mtimeNanoseconds: 99, inode: .max, hash: photo),
        ])
        note("cached", try store.cachedHash(path: "in/a.jpg", size: 10, mtimeNanoseconds: 99, inode: .max))
        note("cached other inode", try store.cachedHash(path: "in/a.jpg", size: 10, mtimeNanoseconds: 99, inode: 1))

        try store.markPending(["Photos/one.heic", "Thumbnails/one.jpg", "Photos/orphan.heic"], run: run)
        note("stale 1", try store.commit(UnitCompletion(
            subject: photo, units: [.init(step: "heic", key: "k1"), .init(step: "thumb", key: "k2")],
            outputs: [output("Photos/one.heic", step: "heic"), output("Thumbnails/one.jpg", step: "thumb")],
            asset: asset(photo, date: date(day: 3), width: 4000, camera: nil)), run: run))
        note("orphans", try store.recoverPending())
        note("orphans again", try store.recoverPending())

        note("stale 2", try store.commit(UnitCompletion(
            subject: photo, units: [.init(step: "thumb", key: "k3")],
            outputs: [output("Thumbnails/one-400.jpg", step: "thumb")],
            asset: asset(photo, date: nil, width: nil, camera: "Pixel 8")), run: run))
        let state = try store.state(of: photo)
        note("units", state.unitKeys.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
        note("outputs", state.outputs.map(\.path).sorted())
        // What a run reads ahead: the units and outputs of its own steps alone (one it has not done among them).
        let ownSteps = try store.states(of: [photo, "none"], ofSteps: ["thumb", "motion"])
        note("own units", ownSteps.mapValues { $0.unitKeys.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } })
        note("own outputs", ownSteps.mapValues { $0.outputs.map(\.path) })
        note("old thumbnail", try store.output(at: "Thumbnails/one.jpg"))
        note("new thumbnail", try store.output(at: "Thumbnails/one-400.jpg"))
        let facts = try store.rememberedFacts(contentHash: photo)
        note("facts", facts.map { "\($0.captureDate?.description ?? "no date") \($0.width ?? 0)x\($0.height ?? 0)" })
        note("unknown facts", try store.rememberedFacts(contentHash: "none"))

        let id = "id:" + ContentHash.uuid(fromHex: rebuilt).uuidString.lowercased()
        _ = try store.commit(UnitCompletion(subject: id, units: [], outputs: [output("Photos/two.heic", step: "rebuilt")],
                                            asset: nil), run: run)
        note("adopted", try store.adopt(contentHash: rebuilt))
        note("adopted again", try store.adopt(contentHash: rebuilt))
        note("rebuilt outputs", try store.state(of: rebuilt).outputs.map(\.path))

        // A Live Photo: a still and a video imported on its own, which then becomes the still's motion part.
        let still = ContentHash.of("live still"), video = ContentHash.of("live video")
        var stillFacts = asset(still, date: date(day: 4), width: 4032, camera: "Apple iPhone 13")
        stillFacts.contentIdentifier = "8D3C-LIVE"
        stillFacts.location = GeoLocation(latitude: 48.8584, longitude: 2.2945, altitude: 35)
        _ = try store.commit(UnitCompletion(subject: still, units: [.init(step: "heic", key: "s1")],
                                            outputs: [output("Photos/live.heic", step: "heic")], asset: stillFacts), run: run)
        var videoFacts = AssetFacts(contentHash: video, id: ContentHash.uuid(fromHex: video), originalPath: "/card/IMG_1.MOV",
                                    fileSize: 99, captureDate: date(day: 1), width: 1080, height: 1920, orientation: nil,
                                    camera: "Apple iPhone 13")
        videoFacts.video = VideoFacts(duration: 2.5, codec: "hevc", bitDepth: 10, hdrTransfer: .hlg, audioCodec: "aac")
        videoFacts.contentIdentifier = "8D3C-LIVE"
        _ = try store.commit(UnitCompletion(subject: video, units: [.init(step: "video", key: "v1"), .init(step: "thumb", key: "v2")],
                                            outputs: [output("Videos/live.mov", step: "video"), output("Thumbnails/live.jpg", step: "thumb")],
                                            asset: videoFacts), run: run)
        note("paired", try store.assets(withContentIdentifier: "8D3C-LIVE").map { "\($0.mediaKind) \($0.motionOf ?? "-")" })
        videoFacts.motionOf = still
        note("retired", try store.commit(UnitCompletion(subject: video, units: [.init(step: "motion", key: "m1")],
                                                        outputs: [output("Photos/live.mov", step: "motion")], asset: videoFacts,
                                                        retiredSteps: ["video", "thumb"]), run: run).sorted())
        note("joined", try store.assets(withContentIdentifier: "8D3C-LIVE").map { "\($0.mediaKind) \($0.motionOf == still)" })
        let joined = try store.state(of: video)
        note("joined units", joined.unitKeys.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
        note("joined outputs", joined.outputs.map(\.path))
        let remembered = try store.rememberedFacts(contentHash: video)
        note("video facts", remembered.map { "\($0.mediaKind) \($0.contentIdentifier ?? "-") \($0.motionOf == still)" })

        // What a collection stage reads of the library (a gallery).
        _ = try store.commit(UnitCompletion(subject: "collection:monthly-grid/collage", units: [.init(step: "monthly-grid/collage", key: "c1")],
                                            outputs: [output("collages/2024-05-grid.jpg", step: "monthly-grid/collage")], asset: nil), run: run)
        let names = [photo: "photo", still: "still", video: "video"]
        note("pairing facts", try store.pairingFacts(contentHashes: [still, video, photo, "unknown"]).map { hash, facts in
            "\(names[hash] ?? "?") \(facts.mediaKind) \(facts.contentIdentifier ?? "-") motion-of-still:\(facts.motionOf == still)"
        }.sorted())
        note("assets", try store.assets(contentHashes: [video, still, photo, "unknown"]).map { facts in
            let place = facts.location.map { "\($0.latitude),\($0.longitude),\($0.altitude ?? 0)" } ?? "-"
            let video = facts.video.map { "\($0.codec) \($0.duration)s \($0.bitDepth)-bit \($0.hdrTransfer?.rawValue ?? "sdr") \($0.audioCodec ?? "silent")" } ?? "-"
            return "\(names[facts.contentHash] ?? "?") \(facts.mediaKind) id-ok:\(facts.id == ContentHash.uuid(fromHex: facts.contentHash)) "
                + "\(facts.captureDate?.description ?? "undated") \(facts.camera ?? "-") \(facts.width ?? 0)x\(facts.height ?? 0) "
                + "o\(facts.orientation ?? 0) \(facts.fileSize) \(place) \(video) \(facts.contentIdentifier ?? "-") motion-of-still:\(facts.motionOf == still)"
        }.sorted())
        note("outputs of", try store.outputs(ofSubjects: [still, video, "nobody"]).map { "\($0.path) \($0.step) \(names[$0.subject] ?? "?")" })
        note("motion parts of stills", try store.motionParts(ofStills: [still, photo]).map { "\($0.originalPath) of-still:\($0.motionOf == still)" })
        note("collection outputs", try store.collectionOutputs().map { "\($0.path) \($0.subject) \($0.sha256 == ContentHash.of($0.path))" })
        // Finding photos to correct, and a corrected date recorded with the facts read back.
        note("by camera", try store.assets(.camera("apple IPHONE 13")).map { "\($0.originalPath) \($0.mediaKind)" })
        note("by folder", try store.assets(.folder("/card")).map(\.originalPath))
        note("by a folder's prefix", try store.assets(.folder("/car")).map(\.originalPath))
        note("by path", try store.assets(.originalPath("/card/IMG_1.MOV")).map { $0.contentHash == video })
        note("motion parts", try store.assets(.motionParts(of: still)).map(\.originalPath))
        let read = try store.assets(.id(ContentHash.uuid(fromHex: video))).map(describe)
        note("read back", read)
        note("read back whole", read == [describe(videoFacts)])
        var corrected = try XCTUnwrap(try store.assets(.contentHash(still)).first)
        corrected.captureDate = DateChange.set(LocalDateTime(year: 2019, month: 6, day: 15, hour: 12)!, utcOffsetSeconds: nil)
            .date(for: corrected.captureDate)
        _ = try store.commit(UnitCompletion(subject: still, units: [], outputs: [], asset: corrected), run: run)
        note("corrected", try store.assets(.contentHash(still)).map(describe))
        note("corrected facts", try store.rememberedFacts(contentHash: still)?.captureDate)
        let later = try store.beginRun(pipeline: "/library/pipelines/monthly-grid.yaml")
        try store.finishRun(later, report: RunReport(pipeline: "monthly-grid.yaml", library: "/library"))
        note("pipelines", try store.recordedPipelines())

        var report = RunReport(pipeline: "import.yaml", library: "/library")
        report.processed = 1
        report.failed = 1
        report.failures = [try JSONDecoder().decode(RunReport.Failure.self,
                                                    from: Data(#"{"path":"in/bad.jpg","step":"decode","reason":"truncated"}"#.utf8))]
        try store.finishRun(run, report: report)
        return lines
    }

    /// Every fact of an asset, as text.
    static func describe(_ facts: AssetFacts) -> String {
        "\(facts.id) \(facts.originalPath) \(facts.fileSize) \(facts.captureDate?.description ?? "-") \(facts.width ?? 0)x\(facts.height ?? 0) "
            + "\(facts.orientation ?? 0) \(facts.camera ?? "-") \(facts.location.map { "\($0)" } ?? "-") \(facts.video.map { "\($0)" } ?? "-") "
            + "\(facts.contentIdentifier ?? "-") \(facts.motionOf ?? "-") \(facts.mediaKind)"
    }
}
