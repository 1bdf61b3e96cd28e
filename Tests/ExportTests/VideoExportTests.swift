import DarkroomTestSupport
import Foundation
import XCTest

/// Videos export as H.264 MP4 at most 1080p (their streams copied when they already are one),
/// without location; a Live Photo's video goes beside its still under the same name with `--motion`.
final class VideoExportTests: XCTestCase {
    /// A clip made by the ffmpeg CLI with Apple's location and creation keys.
    private func clip(_ url: URL, size: String, codec: String, creation: String) throws {
        try Fixtures.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=\(size):rate=30", "-f", "lavfi", "-i", "sine=frequency=440",
                                    "-t", "1", "-c:v", codec, "-pix_fmt", "yuv420p", "-c:a", "aac", "-movflags", "use_metadata_tags",
                                    "-metadata", "com.apple.quicktime.location.ISO6709=+48.8582+002.2945+035.000/",
                                    "-metadata", "com.apple.quicktime.creationdate=\(creation)", "-metadata", "location=+48.8582+002.2945/",
                                    "-y", url.path])
    }

    /// ffprobe's container and stream tags and the video stream's codec and size.
    private func probe(_ url: URL) throws -> (tags: [String: String], codec: String, width: Int, height: Int) {
        let json = try Fixtures.run("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", url.path])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        var tags = (object["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
        let streams = object["streams"] as? [[String: Any]] ?? []
        for stream in streams { tags.merge(stream["tags"] as? [String: String] ?? [:]) { a, _ in a } }
        let video = try XCTUnwrap(streams.first { $0["codec_type"] as? String == "video" })
        return (tags, video["codec_name"] as? String ?? "", video["width"] as? Int ?? 0, video["height"] as? Int ?? 0)
    }

    func testVideosAreSharedAsH264WithoutLocation() throws {
        try Prerequisite.require(tool: "ffmpeg")
        let fixture = try ExportFixture("export-video")
        try clip(fixture.roll.appendingPathComponent("small.mov"), size: "1280x720", codec: "libx264", creation: "2024-06-02T11:05:00+0100")
        try clip(fixture.roll.appendingPathComponent("large.mov"), size: "2560x1440", codec: "libx265", creation: "2024-06-03T12:00:00+0100")
        try fixture.importRoll()
        let out = fixture.folder.path("out")
        let result = try fixture.export(["--to", out.path])
        XCTAssertEqual(result.status, 0, result.err + result.out)
        XCTAssertEqual(try ExportFixture.files(out), ["2024-06-02 11.05.00.mp4", "2024-06-03 12.00.00.mp4"])

        let small = try probe(out.appendingPathComponent("2024-06-02 11.05.00.mp4"))
        XCTAssertEqual([small.codec, "\(small.width)x\(small.height)"], ["h264", "1280x720"], "already H.264 within 1080p: copied")
        let large = try probe(out.appendingPathComponent("2024-06-03 12.00.00.mp4"))
        XCTAssertEqual([large.codec, "\(large.width)x\(large.height)"], ["h264", "1920x1080"], "HEVC 1440p: encoded to H.264 1080p")
        for file in [small, large] {
            XCTAssertEqual(file.tags.filter { $0.key.lowercased().contains("location") }, [:])
            XCTAssertNotNil(file.tags["com.apple.quicktime.creationdate"], "the creation date is kept")
        }

        let kept = fixture.folder.path("kept")
        XCTAssertEqual(try fixture.export(["--to", kept.path, "--keep-location"]).status, 0)
        XCTAssertEqual(try probe(kept.appendingPathComponent("2024-06-02 11.05.00.mp4")).tags["com.apple.quicktime.location.ISO6709"],
                       "+48.8582+002.2945+035.000/")
    }

    func testLivePhotoVideoGoesBesideItsStillWithMotion() throws {
        try Prerequisite.require(tool: "ffmpeg")
        let fixture = try ExportFixture("export-live-photo")
        let samples = ShippedPipeline.repository.appendingPathComponent("samples/camera-roll/Phone")
        try FileManager.default.copyItem(at: samples.appendingPathComponent("IMG_4520.HEIC"), to: fixture.roll.appendingPathComponent("IMG_4520.HEIC"))
        // The sample's MOV with a position added (its Live Photo identifier kept).
        try Fixtures.run("ffmpeg", ["-v", "error", "-i", samples.appendingPathComponent("IMG_4520.MOV").path, "-map", "0", "-c", "copy",
                                    "-map_metadata", "0", "-movflags", "use_metadata_tags",
                                    "-metadata", "com.apple.quicktime.location.ISO6709=+48.8582+002.2945+035.000/",
                                    fixture.roll.appendingPathComponent("IMG_4520.MOV").path])
        try fixture.importRoll()
        let out = fixture.folder.path("out")
        let still = try fixture.export(["--to", out.path])
        XCTAssertEqual(still.status, 0, still.err)
        XCTAssertEqual(try ExportFixture.files(out), ["2024-05-18 17.42.10.jpg"], "the video goes with its still, and only with --motion")

        let result = try fixture.export(["--to", out.path, "--motion"])
        XCTAssertEqual(result.status, 0, result.err + result.out)
        XCTAssertEqual(try ExportFixture.files(out), ["2024-05-18 17.42.10.jpg", "2024-05-18 17.42.10.mov"])
        let motion = try probe(out.appendingPathComponent("2024-05-18 17.42.10.mov"))
        XCTAssertEqual(motion.tags.filter { $0.key.lowercased().contains("location") }, [:])
        XCTAssertEqual(motion.tags["com.apple.quicktime.content.identifier"], "0F2A4C1E-7B7D-4E57-9A3B-2C6E1D9F0A11")
    }
}
