import DarkroomCore
import DarkroomTestSupport
import DarkroomVideo
import Foundation
import XCTest

/// Remuxing and transcoding, checked with ffprobe and the ffmpeg CLI.
final class VideoEncodeTests: XCTestCase {
    let limit = 100_000_000
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        try NativeLibraries.start()
        folder = try TemporaryFolder("video-encode")
    }

    func info(_ url: URL) throws -> VideoInfo { try VideoInfo.read(path: url.path, pixelLimit: limit) }

    func testAPortraitHDRClipTranscodesToAnUprightSDRH264() throws {
        let out = folder.path("out.mp4")
        let report = try VideoTranscode.run(from: try Clips.hdrPortraitMOV.path, to: out.path,
                                            settings: TranscodeSettings(codec: .h264, longEdge: 160, crf: 23, preset: "ultrafast"),
                                            pixelLimit: limit)
        XCTAssertEqual([report.width, report.height], [120, 160], "240x320 as shown, long edge capped at 160")
        XCTAssertEqual(report.audio, .copied)
        XCTAssertTrue(report.toneMapped)
        XCTAssertEqual(report.packetsSkipped, 0)

        let probe = try Probe(out)
        let video = try XCTUnwrap(probe.stream("video"))
        XCTAssertEqual(video["codec_name"] as? String, "h264")
        XCTAssertEqual(video["width"] as? Int, 120)
        XCTAssertEqual(video["height"] as? Int, 160)
        XCTAssertEqual(video["pix_fmt"] as? String, "yuv420p")
        XCTAssertEqual(video["color_primaries"] as? String, "bt709")
        XCTAssertEqual(video["color_transfer"] as? String, "bt709")
        XCTAssertEqual(video["color_space"] as? String, "bt709")
        XCTAssertNil(probe.rotation, "turned in the pixels, so no display matrix: never turned twice")
        XCTAssertEqual(probe.stream("audio")?["codec_name"] as? String, "aac")
        XCTAssertEqual(probe.tag("com.apple.quicktime.creationdate"), "2024-03-10T18:45:00-0700")
        XCTAssertTrue(try Probe.movieFirst(out))
        XCTAssertEqual(Double(probe.format["duration"] as? String ?? "") ?? 0, 2.5, accuracy: 0.15)

        // Upright: the red corner of the stored frame is at the top right once turned clockwise,
        // and still red after tone mapping.
        let frame = try Probe.firstFrame(out, width: 120, height: 160)
        let corner = Probe.colour(frame, width: 120, x: 95, y: 5, w: 20, h: 30)
        XCTAssertGreaterThan(corner[0], 150, "\(corner)")
        XCTAssertLessThan(corner[2], 90, "\(corner)")
        XCTAssertGreaterThan(Probe.colour(frame, width: 120, x: 5, y: 5, w: 20, h: 30)[2], 120, "top left is blue")
    }

    func testHEVCIsTaggedHvc1AndNeverEnlarged() throws {
        let out = folder.path("out.mp4")
        let report = try VideoTranscode.run(from: try Clips.appleMOV.path, to: out.path,
                                            settings: TranscodeSettings(codec: .hevc, longEdge: 1920, crf: 28, preset: "ultrafast"),
                                            pixelLimit: limit)
        XCTAssertEqual([report.width, report.height], [320, 240])
        let video = try XCTUnwrap(try Probe(out).stream("video"))
        XCTAssertEqual(video["codec_name"] as? String, "hevc")
        XCTAssertEqual(video["codec_tag_string"] as? String, "hvc1")
        XCTAssertEqual(video["pix_fmt"] as? String, "yuv420p")
        XCTAssertEqual(Int(video["nb_frames"] as? String ?? "") ?? 0, 90)
    }

    func testSoundThatIsNotAACIsEncodedToAAC() throws {
        let out = folder.path("out.mp4")
        let report = try VideoTranscode.run(from: try Clips.pcmMOV.path, to: out.path,
                                            settings: TranscodeSettings(codec: .h264, crf: 23, preset: "ultrafast"), pixelLimit: limit)
        XCTAssertEqual(report.audio, .encoded)
        let audio = try XCTUnwrap(try Probe(out).stream("audio"))
        XCTAssertEqual(audio["codec_name"] as? String, "aac")
        XCTAssertEqual(Double(audio["duration"] as? String ?? "") ?? 0, 2.5, accuracy: 0.1)
        XCTAssertEqual(try Fixtures.run("ffmpeg", ["-v", "error", "-i", out.path, "-f", "null", "-"]), "", "decodes cleanly")
    }

    func testARemuxKeepsTheCreationDatesTheKeysAndTheRotation() throws {
        let source = try Clips.rotatedMOV(rotate: 90)
        XCTAssertEqual(try VideoRemux.plan(for: try info(source), pixelLimit: limit), .remux)
        let out = folder.path("out.mp4")
        try VideoRemux.remux(from: source.path, to: out.path, pixelLimit: limit)
        let (before, after) = (try Probe(source), try Probe(out))
        XCTAssertEqual(after.tag("major_brand"), "isom", "an MP4 now")
        for key in ["com.apple.quicktime.creationdate", "com.apple.quicktime.content.identifier", "com.apple.quicktime.make",
                    "com.apple.quicktime.location.ISO6709"] {
            XCTAssertEqual(after.tag(key), before.tag(key), key)
        }
        XCTAssertEqual(after.tag("creation_time")?.prefix(19), "2012-11-26T23:33:10")
        XCTAssertEqual(after.rotation, 90)
        XCTAssertEqual(after.rotation, before.rotation)
        XCTAssertEqual(after.stream("video")?["codec_name"] as? String, "h264")
        XCTAssertEqual(after.stream("video")?["nb_frames"] as? String, before.stream("video")?["nb_frames"] as? String, "every frame copied")
        XCTAssertEqual(after.stream("audio")?["codec_name"] as? String, "aac")
        XCTAssertTrue(try Probe.movieFirst(out))
        // Read back by Darkroom: the same facts.
        let reread = try info(out)
        XCTAssertEqual(reread.video.rotation, 270)
        XCTAssertEqual(reread.metadata.appleCreationDate, "2012-11-26T15:33:10-0800")
    }

    func testAnAVCHDClipIsRemuxedIntoMP4() throws {
        let source = try Clips.cameraMTS
        XCTAssertEqual(try info(source).container, "mpegts")
        XCTAssertEqual(try VideoRemux.plan(for: try info(source), pixelLimit: limit), .remux)
        let out = folder.path("out.mp4")
        try VideoRemux.remux(from: source.path, to: out.path, pixelLimit: limit)
        let probe = try Probe(out)
        XCTAssertEqual(probe.stream("video")?["codec_name"] as? String, "h264")
        XCTAssertEqual(probe.stream("audio")?["codec_name"] as? String, "ac3")
        XCTAssertEqual(probe.stream("video")?["nb_frames"] as? String, "75")
        XCTAssertEqual(try Fixtures.run("ffmpeg", ["-v", "error", "-i", out.path, "-f", "null", "-"]), "", "decodes cleanly")
    }

    func testWhatDoesNotFitInMP4KeepsTheOriginalAndAFastStartMP4IsCopied() throws {
        guard case .keepOriginal(let reason) = try VideoRemux.plan(for: try info(try Clips.pcmMOV), pixelLimit: limit) else {
            return XCTFail("PCM sound cannot go in an MP4")
        }
        XCTAssertEqual(reason, "audio stream 1 (pcm_s16le 'sowt') cannot go in MP4")
        XCTAssertEqual(try VideoRemux.plan(for: try info(try Clips.fastStartMP4), pixelLimit: limit), .alreadyMP4)
        XCTAssertEqual(try VideoRemux.plan(for: try info(try Clips.androidMP4), pixelLimit: limit), .remux, "moov last: remuxed to put it first")
    }

    func testCorruptFramesAreLeftOutAndCounted() throws {
        let out = folder.path("out.mp4")
        let report = try VideoTranscode.run(from: try Clips.corruptedAVI.path, to: out.path,
                                            settings: TranscodeSettings(codec: .h264, crf: 23, preset: "ultrafast"), pixelLimit: limit)
        XCTAssertEqual(report.packetsSkipped, 4)
        XCTAssertEqual(report.framesWritten, 26)
        XCTAssertEqual(report.firstProblem, "Invalid data found when processing input")
        XCTAssertEqual(Int(try Probe(out).stream("video")?["nb_frames"] as? String ?? "") ?? 0, 26)
    }

    func testAVideoWithNoDecodableFrameFails() throws {
        let out = folder.path("out.mp4")
        XCTAssertThrowsError(try VideoTranscode.run(from: try Clips.undecodableAVI.path, to: out.path,
                                                    settings: TranscodeSettings(codec: .h264, crf: 23, preset: "ultrafast"), pixelLimit: limit)) {
            XCTAssertEqual(($0 as? VideoReadError)?.message,
                           "no frame of the video could be decoded: 30 packets failed (Invalid data found when processing input)")
        }
    }
}
