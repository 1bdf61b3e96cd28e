import DarkroomCore
import Foundation

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
    static func transcript(_ store: CatalogStore) throws -> [String] {
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

        var report = RunReport(pipeline: "import.yaml", library: "/library")
        report.processed = 1
        report.failed = 1
        report.failures = [try JSONDecoder().decode(RunReport.Failure.self,
                                                    from: Data(#"{"path":"in/bad.jpg","step":"decode","reason":"truncated"}"#.utf8))]
        try store.finishRun(run, report: report)
        return lines
    }
}
