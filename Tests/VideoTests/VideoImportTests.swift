import DarkroomCatalog
import DarkroomCore
import DarkroomStages
import DarkroomTestSupport
import Foundation
import XCTest
import DarkroomModel
import DarkroomReport

/// A mixed camera roll through the shipped import pipeline: where each video lands, its poster,
/// and what happens to the ones that cannot be read.
final class VideoImportTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let pipelinePath = root.appendingPathComponent("pipelines/import-camera-roll.yaml").path

    var folder: TemporaryFolder!
    var roll: URL { folder.path("roll") }
    var library: URL { folder.path("library") }

    override func setUpWithError() throws {
        folder = try TemporaryFolder("video-import")
        try FileManager.default.createDirectory(at: roll, withIntermediateDirectories: true)
    }

    func add(_ clip: URL, as name: String? = nil) throws -> URL {
        let url = roll.appendingPathComponent(name ?? clip.lastPathComponent)
        try FileManager.default.copyItem(at: clip, to: url)
        return url
    }

    func importRoll(_ edit: (String) -> String = { $0 }) throws -> RunReport {
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(yaml: edit(try ShippedPipeline.fastText()), file: Self.pipelinePath)
        let settings = RunSettings(library: library, timeZone: TimeZone(identifier: "Europe/Paris")!, jobs: 2)
        return try Runner(pipeline: pipeline, settings: settings).run(inputs: [roll])
    }

    func id(_ url: URL) throws -> String {
        ContentHash.uuid(fromHex: try ContentHash.ofFile(url)).uuidString.lowercased()
    }

    func testVideosAreFiledByTheirCaptureDateWithPosterThumbnails() throws {
        let iphone = try add(try Clips.appleMOV)
        let android = try add(try Clips.androidMP4)
        let camera = try add(try Clips.pcmMOV)
        let photo = try add(Self.root.appendingPathComponent("samples/camera-roll/Phone/garden.webp"))

        let report = try importRoll()
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed, 4)
        let (iphoneID, androidID, cameraID, photoID) = (try id(iphone), try id(android), try id(camera), try id(photo))
        XCTAssertEqual(Set(report.published), [
            "Videos/2012/11/\(iphoneID).mp4", "Thumbnails/2012/11/\(iphoneID).jpg",   // Apple's creation date, its own zone
            "Videos/2023/07/\(androidID).mp4", "Thumbnails/2023/07/\(androidID).jpg", // creation_time in Paris
            "Videos/2021/05/\(cameraID).mov", "Thumbnails/2021/05/\(cameraID).jpg",   // PCM sound: the original file
            "Photos/2023/12/\(photoID).heic", "Thumbnails/2023/12/\(photoID).jpg",
        ])
        XCTAssertEqual(try ContentHash.ofFile(library.appendingPathComponent("Videos/2021/05/\(cameraID).mov")), try ContentHash.ofFile(camera),
                       "the original bytes")
        let remuxed = try Probe(library.appendingPathComponent("Videos/2012/11/\(iphoneID).mp4"))
        XCTAssertEqual(remuxed.tag("com.apple.quicktime.creationdate"), "2012-11-26T15:33:10-0800")
        XCTAssertEqual(remuxed.stream("video")?["codec_name"] as? String, "h264", "not re-encoded")

        let poster = try Fixtures.meanColour(of: library.appendingPathComponent("Thumbnails/2012/11/\(iphoneID).jpg"), x: 0, y: 0, width: 40, height: 30)
        XCTAssertGreaterThan(poster[0], 180, "the red corner, top left: \(poster)")

        let assets = try Catalog(library: library).assets()
        let sources = Dictionary(uniqueKeysWithValues: assets.map { (($0.originalPath as NSString).lastPathComponent, $0.captureSource ?? "") })
        XCTAssertEqual(sources["IMG_0001.MOV"], "quicktime:CreationDate")
        XCTAssertEqual(sources["VID_clip.mp4"], "quicktime:creation_time")
        XCTAssertEqual(assets.first { $0.originalPath.hasSuffix("IMG_0001.MOV") }?.captureLocal, "2012-11-26T15:33:10")

        let again = try importRoll()
        XCTAssertEqual(again.processed, 0)
        XCTAssertEqual(again.published, [], "nothing is copied twice")
    }

    func testTranscodingThroughThePipeline() throws {
        let hdr = try add(try Clips.hdrPortraitMOV)
        let report = try importRoll { $0.replacingOccurrences(of: "      codec: copy\n", with: "      codec: h264\n      long-edge: 160\n      preset: ultrafast\n") }
        XCTAssertEqual(report.failures, [])
        let video = library.appendingPathComponent("Videos/2024/03/\(try id(hdr)).mp4")
        let probe = try Probe(video)
        XCTAssertEqual(probe.stream("video")?["codec_name"] as? String, "h264")
        XCTAssertEqual([probe.stream("video")?["width"] as? Int, probe.stream("video")?["height"] as? Int], [120, 160])
        XCTAssertNil(probe.rotation)
    }

    func testUnreadableVideosFailWithTheReasonAndTheRestGoOn() throws {
        let good = try add(try Clips.appleMOV)
        let bad = [
            try add(try Clips.audioOnlyMP4): "cannot read video: no video stream (audio only: aac)",
            try add(try Clips.truncatedMOV): "cannot read video: truncated: no 'moov' box (the recording was not finished, or the file was cut short)",
            try add(try Clips.emptyMOV): "cannot read video: empty file (0 bytes)",
            try add(try Clips.header16K): "cannot read video: video frames are 16384x8640 (142 MP), over the limit of 100 MP; refused before decoding",
            try add(try Clips.undecodableAVI): "cannot make the video's poster frame: no frame of the video could be decoded (30 packets failed to decode: Invalid data found when processing input)",
        ]
        let notAVideo = try add(try Clips.notAVideo)
        let before = try bad.keys.map { try Data(contentsOf: $0) }

        let report = try importRoll()
        XCTAssertEqual(report.processed, 1)
        let failures = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.path, $0.reason) })
        for (url, reason) in bad { XCTAssertEqual(failures[url.path], reason, url.lastPathComponent) }
        XCTAssertTrue(failures[notAVideo.path]?.hasPrefix("cannot read video: not a video FFmpeg can read (") == true, failures[notAVideo.path] ?? "")
        XCTAssertEqual(report.failures.count, bad.count + 1)
        // Each counted by the kind the video layer said, and as videos: never "not a photo or video"
        // for a video whose frames do not decode.
        let kinds = Dictionary(uniqueKeysWithValues: report.failures.map { (($0.path as NSString).lastPathComponent, $0.kind ?? "-") })
        XCTAssertEqual(kinds, [try Clips.audioOnlyMP4.lastPathComponent: "no video stream", try Clips.truncatedMOV.lastPathComponent: "truncated",
                               try Clips.emptyMOV.lastPathComponent: "truncated", try Clips.header16K.lastPathComponent: "over the pixel limit",
                               try Clips.undecodableAVI.lastPathComponent: "undecodable video",
                               try Clips.notAVideo.lastPathComponent: "not a photo or video"])
        XCTAssertTrue(report.summary.hasPrefix("\(report.found) found: 1 processed, 0 already done, 0 duplicates, 6 failed "
                                               + "(2 truncated, 1 no video stream, 1 not a photo or video, 1 over the pixel limit, 1 undecodable video)"),
                      report.summary)

        let goodID = try id(good)
        XCTAssertEqual(Set(report.published), ["Videos/2012/11/\(goodID).mp4", "Thumbnails/2012/11/\(goodID).jpg"], "nothing for the bad ones")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: library.appendingPathComponent(".darkroom/tmp").path)
            .flatMap { try FileManager.default.contentsOfDirectory(atPath: library.appendingPathComponent(".darkroom/tmp/\($0)").path) }, [],
            "no temp file left")
        XCTAssertEqual(try bad.keys.map { try Data(contentsOf: $0) }, before, "originals untouched")
    }
}
