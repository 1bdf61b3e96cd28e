import DarkroomTestSupport
import Foundation
import XCTest

/// FFmpeg's own lines (a damaged AVI's `No JPEG data found in image`, once per frame and thread) never
/// reach the terminal during an import: `darkroom` shows them at debug level only (`-vv`).
final class FFmpegLogTests: XCTestCase {
    func testADamagedVideoPrintsNoFFmpegLineUnlessAskedForDebugLines() throws {
        let command = try DarkroomCommand(workingDirectory: ShippedPipeline.repository)
        let folder = try TemporaryFolder("ffmpeg-log")
        let roll = folder.path("roll")
        try FileManager.default.createDirectory(at: roll, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Clips.undecodableAVI, to: roll.appendingPathComponent("MVI_0003.AVI"))
        let pipeline = folder.path("import.yaml")
        try Data(try ShippedPipeline.fastText().utf8).write(to: pipeline)

        let quiet = try command.run(["run", pipeline.path, "--input", roll.path, "--library", folder.path("quiet").path])
        XCTAssertEqual(quiet.status, 1, "the video fails: \(quiet.out)")
        XCTAssertTrue(quiet.out.contains("no frame of the video could be decoded"), quiet.out)
        XCTAssertFalse(quiet.err.contains("No JPEG data"), quiet.err)
        XCTAssertFalse(quiet.err.contains("mjpeg"), quiet.err)

        let verbose = try command.run(["run", pipeline.path, "--input", roll.path, "--library", folder.path("verbose").path, "-vv"])
        let ffmpegLines = verbose.err.split(separator: "\n").filter { $0.contains("No JPEG data found in image") }
        XCTAssertGreaterThanOrEqual(ffmpegLines.count, 30, "one a frame at least:\n\(verbose.err)")
        XCTAssertTrue(ffmpegLines.allSatisfy { $0.hasPrefix("debug:") }, "\(ffmpegLines.prefix(3))")
    }
}
