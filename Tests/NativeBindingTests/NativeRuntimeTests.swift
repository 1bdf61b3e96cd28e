import DarkroomHEIF
import DarkroomRaw
import DarkroomRuntime
import DarkroomTestSupport
import DarkroomVideo
import DarkroomVips
import Foundation
import Synchronization
import XCTest

/// `NativeRuntime`: every native library started once, from whichever thread asks first.
final class NativeRuntimeTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    func testStartsEveryLibraryOnceInOrderWhoeverAsks() throws {
        let starts = Mutex<[NativeRuntime.Started]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let started = try? NativeRuntime.start() { starts.withLock { $0.append(started) } }
        }
        let all = starts.withLock { $0 }
        XCTAssertEqual(all.count, 8)
        XCTAssertEqual(Set(all.map(\.startTime)).count, 1, "every caller gets the one start")
        XCTAssertEqual(all.first?.libraries.map(\.name), ["libvips", "FFmpeg libavcodec", "libheif", "x265 (one 64x64 encode)", "LibRaw"])
        XCTAssertEqual(all.first?.libraries.first?.version, "\(Vips.version) with modules heif+jxl", "only the modules the loader policy names")
        XCTAssertTrue(Vips.isStarted && FFmpeg.isStarted && HEIF.isStarted && LibRaw.started != nil)
    }

    func testEachStartGivesLibvipsItsThreads() throws {
        let before = Vips.concurrency
        defer { _ = try? NativeRuntime.start(threadsPerOperation: before) }
        try NativeRuntime.start(threadsPerOperation: 3)
        XCTAssertEqual(Vips.concurrency, 3)
        try NativeRuntime.start(threadsPerOperation: 1)
        XCTAssertEqual(Vips.concurrency, 1, "a later run with more photos in flight gets fewer threads per photo")
    }
}

/// What a process sees before anything starts the runtime, and where the libraries' lines go after.
/// It needs a process of its own: run in the test process, it runs itself again in a child process.
final class FreshProcessTests: XCTestCase {
    static let marker = "DARKROOM_FRESH_PROCESS"

    func testFactoriesRefuseUntilStartedAndLibraryLinesGoToTheLog() throws {
        guard ProcessInfo.processInfo.environment[Self.marker] == "1" else {
            let child = try runInChildProcess("NativeBindingTests.FreshProcessTests/testFactoriesRefuseUntilStartedAndLibraryLinesGoToTheLog")
            XCTAssertEqual(child.status, 0, child.output)
            XCTAssertTrue(child.output.contains("Executed 1 test, with 0 failures"), child.output)
            XCTAssertFalse(child.output.contains("VIPS-WARNING"), "libvips printed a warning itself:\n\(child.output)")
            XCTAssertFalse(child.output.contains("No JPEG data"), "FFmpeg printed a line itself:\n\(child.output)")
            return
        }
        let folder = try TemporaryFolder("fresh-process")
        let jpeg = folder.path("photo.jpg")
        try Fixtures.halves(jpeg, width: 320, height: 240)
        let video = folder.path("clip.avi")
        try Fixtures.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=10:d=1", "-c:v", "mjpeg", video.path])

        XCTAssertFalse(Vips.isStarted || FFmpeg.isStarted || HEIF.isStarted)
        assertNotStarted(try Image.open(jpeg.path))
        assertNotStarted(try Image.thumbnail(jpeg.path, width: 10, height: 10))
        assertNotStarted(try Image.jpeg(jpeg.path, shrink: 2, sequential: true))
        assertNotStarted(try Image.rgb(Data(count: 12), width: 2, height: 2))
        assertNotStarted(try Image.solid(width: 2, height: 2, colour: .white))
        assertNotStarted(try Image.text("x", font: "DejaVu Sans 10", colour: .white))
        assertNotStarted(try VideoInfo.read(path: video.path, pixelLimit: 100_000_000))
        assertNotStarted(try FrameConverter(width: 16, height: 16))
        assertNotStarted(try HEIFInfo.read(jpeg.path))
        assertNotStarted(try HEIFEncoder.encode(RGBPixels(bytes: Data(count: 12), width: 2, height: 2, hasAlpha: false),
                                                iccProfile: nil, exif: nil, settings: HEIFEncodeSettings(quality: 50, preset: "ultrafast"),
                                                to: folder.path("never.heic").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("never.heic").path))

        let lines = CapturedLog.bootstrap()
        try NativeRuntime.start()

        // libvips' warning about a cut JPEG read leniently, and FFmpeg's complaint per damaged frame.
        let noisy = folder.path("noisy.jpg")
        try Fixtures.photo(noisy, width: 320, height: 240)
        let cut = folder.path("cut.jpg")
        try Fixtures.truncated(noisy, to: cut, bytes: try Data(contentsOf: noisy).count / 2)
        _ = try Image.open(cut.path, failOn: .none).average()
        let vips = lines.matching(label: "darkroom.vips")
        XCTAssertTrue(vips.contains { $0.level == .debug && $0.message.contains("Premature end of JPEG file") }, "\(vips)")

        let damaged = folder.path("damaged.avi")
        try zeroFrames(of: video, to: damaged)
        XCTAssertThrowsError(try PosterFrame.picture(from: try VideoInfo.read(path: damaged.path, pixelLimit: 100_000_000),
                                                     width: 160, height: 120, pixelLimit: 100_000_000))
        let ffmpeg = lines.matching(label: "darkroom.ffmpeg")
        XCTAssertTrue(ffmpeg.contains { $0.level == .debug && $0.message.contains("No JPEG data found") }, "\(ffmpeg)")
        XCTAssertTrue(ffmpeg.allSatisfy { $0.level == .debug })
    }

    private func assertNotStarted<T>(_ expression: @autoclosure () throws -> T, line: UInt = #line) {
        XCTAssertThrowsError(try expression(), line: line) { error in
            let notStarted = (error as? VipsError)?.isNotStarted ?? (error as? VideoError)?.isNotStarted ?? (error as? HEIFError)?.isNotStarted
            XCTAssertEqual(notStarted, true, "\(error)", line: line)
            XCTAssertTrue("\(error)".contains("is not started: call NativeRuntime.start()"), "\(error)", line: line)
        }
    }

    /// Every frame of an MJPEG AVI overwritten with zeros after its JPEG start marker.
    private func zeroFrames(of source: URL, to destination: URL) throws {
        let listing = try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pos,size",
                                                   "-of", "csv=p=0", source.path])
        var data = try Data(contentsOf: source)
        for line in listing.split(separator: "\n") {
            let fields = line.split(separator: ",").compactMap { Int($0) }
            guard fields.count == 2 else { throw FixtureError("unexpected ffprobe line '\(line)'") }
            data.replaceSubrange(fields[1] + 2..<fields[1] + fields[0], with: Data(count: fields[0] - 2))
        }
        try data.write(to: destination)
    }

    /// Runs one test of this bundle in a new process, with the marker set; its output, both streams.
    private func runInChildProcess(_ test: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [test]
        process.environment = ProcessInfo.processInfo.environment.merging([Self.marker: "1"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
