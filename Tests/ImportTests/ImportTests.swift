import DarkroomCore
import DarkroomCatalog
import DarkroomStages
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest
import DarkroomModel
import DarkroomReport

/// The camera-roll import, end to end, on `samples/camera-roll` with the shipped pipeline file.
final class ImportTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let samples = root.appendingPathComponent("samples/camera-roll")
    static let pipelinePath = root.appendingPathComponent("pipelines/import-camera-roll.yaml").path

    var folder: TemporaryFolder!
    var library: URL { folder.path("library") }

    override func setUpWithError() throws {
        try NativeLibraries.start()
        folder = try TemporaryFolder("import")
        try FileManager.default.copyItem(at: Self.samples, to: folder.path("roll"))
    }

    /// The shipped pipeline, with the encoder preset made fast for tests (everything else as shipped).
    func pipeline(_ edit: (String) -> String = { $0 }) throws -> Pipeline {
        try PipelineLoader(registry: BuiltInStages.registry).load(yaml: edit(try ShippedPipeline.fastText()), file: Self.pipelinePath)
    }

    func run(_ pipeline: Pipeline, inputs: [URL]? = nil) throws -> RunReport {
        try Runner(pipeline: pipeline, settings: RunSettings(library: library, timeZone: TimeZone(identifier: "UTC")!, jobs: 2))
            .run(inputs: inputs ?? [folder.path("roll")])
    }

    func id(of relativePath: String) throws -> String {
        ContentHash.uuid(fromHex: try ContentHash.ofFile(folder.path("roll/" + relativePath))).uuidString.lowercased()
    }

    func testFilesEveryPhotoByItsCaptureDate() throws {
        let report = try run(try pipeline())
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed, 9)
        XCTAssertEqual(report.duplicates, 1, "the backup copy is the same photo")
        XCTAssertEqual(report.livePhotoVideos.map(\.path), [folder.path("roll/Phone/IMG_4520.MOV").path])
        XCTAssertEqual(report.duplicateFiles.map { [$0.path, $0.sameAs] },
                       [[folder.path("roll/Backup/IMG_0001 (copy).JPG").path, folder.path("roll/DCIM/100CANON/IMG_0001.JPG").path]],
                       "the camera's file is the original, the backup copy the duplicate")
        let expected = [
            "DCIM/100CANON/IMG_0001.JPG": "2024/03",    // DateTimeOriginal +01:00
            "DCIM/100CANON/IMG_0002.JPG": "2024/03",
            "Phone/IMG_4512.HEIC": "2024/02",           // 23:59:58 on leap day in New York: local time decides
            "Phone/PXL_20240401_101530123.jpg": "2024/04",  // from the file name
            "Phone/beach.png": "2023/08",               // GPS time (UTC)
            "Phone/garden.webp": "2023/12",             // XMP photoshop:DateCreated
            "Phone/IMG_4520.HEIC": "2024/05",           // a Live Photo's still
        ]
        var published = Set<String>()
        for (input, month) in expected {
            let id = try id(of: input)
            published.insert("Photos/\(month)/\(id).heic")
            published.insert("Thumbnails/\(month)/\(id).jpg")
        }
        // The Live Photo's MOV beside its still, under the still's id; the phone's video in Videos/.
        published.insert("Photos/2024/05/\(try id(of: "Phone/IMG_4520.HEIC")).mov")
        let video = try id(of: "Phone/IMG_4531.MOV")
        published.formUnion(["Videos/2024/06/\(video).mp4", "Thumbnails/2024/06/\(video).jpg"])
        XCTAssertEqual(Set(report.published), published)
        for path in published { XCTAssertTrue(FileManager.default.fileExists(atPath: library.appendingPathComponent(path).path), path) }

        let assets = try Catalog(library: library).assets()
        XCTAssertEqual(assets.count, 9, "seven photos, the Live Photo's video and the phone's video")
        let sources = Dictionary(uniqueKeysWithValues: assets.map { (($0.originalPath as NSString).lastPathComponent, $0.captureSource ?? "") })
        XCTAssertEqual(sources["IMG_4512.HEIC"], "exif:DateTimeOriginal")
        XCTAssertEqual(sources["PXL_20240401_101530123.jpg"], "filename")
        XCTAssertEqual(sources["beach.png"], "exif:GPSDateTime")
        XCTAssertEqual(sources["garden.webp"], "xmp")
        XCTAssertEqual(sources["IMG_4531.MOV"], "quicktime:CreationDate")
        let heic = assets.first { $0.originalPath.hasSuffix("IMG_4512.HEIC") }
        XCTAssertEqual(heic?.captureLocal, "2024-02-29T23:59:58")

        let portrait = try Image.open(library.appendingPathComponent("Photos/2024/03/\(try id(of: "DCIM/100CANON/IMG_0002.JPG")).heic").path)
        XCTAssertEqual([portrait.width, portrait.height], [1200, 1600], "orientation 6 comes out upright")
        XCTAssertGreaterThan(try portrait.cropped(left: 0, top: 1550, width: 1200, height: 50).extractBand(0).average(), 200,
                             "the red bar along the stored right edge ends up at the bottom")
    }

    func testAMotionPhotoKeepsItsVideoBesideTheStill() throws {
        let samsung = try Corpus.file("immich-test-assets/formats/motionphoto/samsung-one-ui-6.heic")
        let motion = folder.path("motion")
        try FileManager.default.createDirectory(at: motion, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: samsung, to: motion.appendingPathComponent("samsung.heic"))
        // A JPEG whose XMP says a video follows, with none there: imported as a still, with a warning.
        let promise = motion.appendingPathComponent("promise.jpg")
        try FileManager.default.copyItem(at: Self.samples.appendingPathComponent("DCIM/100CANON/IMG_0002.JPG"), to: promise)
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-XMP-GCamera:MicroVideo=1",
                                       "-XMP-GCamera:MicroVideoOffset=99999999", promise.path])

        let report = try run(try pipeline(), inputs: [motion])
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed, 2)
        let samsungID = ContentHash.uuid(fromHex: try ContentHash.ofFile(motion.appendingPathComponent("samsung.heic"))).uuidString.lowercased()
        let video = library.appendingPathComponent("Photos/2024/01/\(samsungID).mp4")
        XCTAssertTrue(report.published.contains("Photos/2024/01/\(samsungID).mp4"), "\(report.published)")
        XCTAssertTrue(report.published.contains("Photos/2024/01/\(samsungID).heic"))
        let probe = try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name",
                                              "-of", "default=nw=1:nk=1", video.path])
        XCTAssertEqual(probe.trimmingCharacters(in: .whitespacesAndNewlines), "hevc", "the extracted file is the phone's HEVC clip")

        XCTAssertEqual(report.warnings.map(\.path), [promise.path])
        XCTAssertTrue(report.warnings.first?.reason.hasPrefix("a motion photo without its video") == true, "\(report.warnings)")
        XCTAssertTrue(report.summary.contains("warning: \(promise.path) [motion-video]: a motion photo without its video"), report.summary)
        let promiseID = ContentHash.uuid(fromHex: try ContentHash.ofFile(promise)).uuidString.lowercased()
        XCTAssertFalse(report.published.contains { $0.contains(promiseID) && $0.hasSuffix(".mp4") })
        XCTAssertTrue(report.published.contains { $0.contains(promiseID) && $0.hasSuffix(".heic") }, "the still is imported")
    }

    func testImportingTheSameCardAgainDoesNothing() throws {
        let first = try run(try pipeline())
        let stamps = try first.published.map { try FileManager.default.attributesOfItem(atPath: library.appendingPathComponent($0).path)[.modificationDate] as? Date }
        let second = try run(try pipeline())
        XCTAssertEqual(second.processed, 0)
        XCTAssertEqual(second.skipped, 9)
        XCTAssertEqual(second.published, [])
        XCTAssertEqual(second.livePhotoVideos, [], "the Live Photo's video was filed by the first run, not this one")
        XCTAssertFalse(second.summary.contains("Live Photo"), second.summary)
        let after = try first.published.map { try FileManager.default.attributesOfItem(atPath: library.appendingPathComponent($0).path)[.modificationDate] as? Date }
        XCTAssertEqual(stamps, after, "nothing is rewritten")
        XCTAssertLessThan(second.seconds, max(2, first.seconds / 2), "a generous bound: the machine may be loaded; the counts above are the real check")
    }

    func testTheSamePhotoInAnotherFolderIsImportedOnce() throws {
        _ = try run(try pipeline())
        let other = folder.path("other-card")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: folder.path("roll/Phone/garden.webp"), to: other.appendingPathComponent("renamed.webp"))
        let report = try run(try pipeline(), inputs: [other])
        XCTAssertEqual(report.skipped, 1)
        XCTAssertEqual(report.published, [])
    }

    func testALostCatalogIsRebuiltFromTheLibraryAndNothingIsEncodedAgain() throws {
        let first = try run(try pipeline())
        let stamps = try first.published.map { try FileManager.default.attributesOfItem(atPath: library.appendingPathComponent($0).path)[.modificationDate] as? Date }
        try FileManager.default.removeItem(at: library.appendingPathComponent(".darkroom"))

        let rebuilt = try Catalog(library: library).rebuild(library: library)
        XCTAssertEqual(rebuilt.files, 17)
        XCTAssertEqual(rebuilt.photos, 8, "seven photos and a video; the Live Photo's MOV is named with its still's id")
        let again = try run(try pipeline())
        XCTAssertEqual(again.failures, [])
        // Nothing is made again: not even the Live Photo's MOV, which a rebuild can only file under
        // its still's id: it is the video's own byte copy, so the video adopts it.
        XCTAssertEqual(again.published, [], "the library's files are adopted, not made again")
        XCTAssertEqual(try first.published.map { try FileManager.default.attributesOfItem(atPath: library.appendingPathComponent($0).path)[.modificationDate] as? Date },
                       stamps)
        let catalog = try Catalog(library: library)
        XCTAssertTrue(try catalog.verify(library: library).isClean)
        XCTAssertEqual(try catalog.assets().compactMap(\.captureLocal).count, 9, "capture dates are learned again")
        XCTAssertEqual(try run(try pipeline()).skipped, 9)
    }

    func testChangingTheThumbnailSizeRedoesOnlyThumbnails() throws {
        let first = try run(try pipeline())
        let photos = first.published.filter { $0.hasPrefix("Photos/") }
        let stamps = try photos.map { try FileManager.default.attributesOfItem(atPath: library.appendingPathComponent($0).path)[.modificationDate] as? Date }
        let second = try run(try pipeline { $0.replacingOccurrences(of: "size: 200", with: "size: 256") })
        XCTAssertEqual(second.failures, [])
        XCTAssertEqual(Set(second.published), Set(first.published.filter { $0.hasPrefix("Thumbnails/") }))
        let after = try photos.map { try FileManager.default.attributesOfItem(atPath: library.appendingPathComponent($0).path)[.modificationDate] as? Date }
        XCTAssertEqual(stamps, after, "HEIC files are not re-encoded for a thumbnail change")
        for path in second.published {
            let thumb = try Image.open(library.appendingPathComponent(path).path)
            XCTAssertEqual(max(thumb.width, thumb.height), 256, path)
        }
    }

    func testBadFilesAreReportedTheRestImportedAndOriginalsUntouched() throws {
        let roll = folder.path("roll")
        try Fixtures.truncated(roll.appendingPathComponent("DCIM/100CANON/IMG_0001.JPG"), to: roll.appendingPathComponent("cut.jpg"), bytes: 20_000)
        try Data().write(to: roll.appendingPathComponent("empty.jpg"))
        try Data("not an image at all".utf8).write(to: roll.appendingPathComponent("notes.heic"))
        try Bomb.png(width: 60_000, height: 60_000).write(to: roll.appendingPathComponent("bomb.png"))
        let before = try hashes(of: roll)

        let report = try run(try pipeline())
        XCTAssertEqual(report.processed, 9)
        let failures = Dictionary(uniqueKeysWithValues: report.failures.map { (($0.path as NSString).lastPathComponent, $0.reason) })
        XCTAssertEqual(Set(failures.keys), ["cut.jpg", "empty.jpg", "notes.heic", "bomb.png"])
        XCTAssertTrue(failures["cut.jpg"]?.contains("Premature end of") == true, failures["cut.jpg"] ?? "")
        XCTAssertTrue(failures["bomb.png"]?.contains("60000x60000 (3600 MP), over the limit of 100 MP") == true, failures["bomb.png"] ?? "")
        XCTAssertTrue(failures["notes.heic"]?.hasPrefix("cannot read image") == true, failures["notes.heic"] ?? "")
        XCTAssertEqual(report.published.count, 17, "nothing is published for a failed photo")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: library.appendingPathComponent(".darkroom/tmp").path), [])
        XCTAssertEqual(try hashes(of: roll), before, "originals are never modified")
    }

    func hashes(of folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            var isDirectory: ObjCBool = false
            let url = folder.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[path] = try ContentHash.ofFile(url)
            }
        }
        return result
    }
}

/// Files that claim to be enormous: refused from the header.
enum Bomb {
    /// A valid PNG header for `width` x `height` RGB with a tiny (wrong) body.
    static func png(width: UInt32, height: UInt32) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var ihdr = Data()
        for value in [width, height] { ihdr.append(contentsOf: withUnsafeBytes(of: value.bigEndian, Array.init)) }
        ihdr.append(contentsOf: [8, 2, 0, 0, 0])
        data.append(chunk("IHDR", ihdr))
        data.append(chunk("IDAT", Data([0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])))
        data.append(chunk("IEND", Data()))
        return data
    }

    private static func chunk(_ type: String, _ body: Data) -> Data {
        var out = Data(withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init))
        let typed = Data(type.utf8) + body
        out.append(typed)
        out.append(contentsOf: withUnsafeBytes(of: crc32(typed).bigEndian, Array.init))
        return out
    }

    private static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
