import Foundation
import DarkroomTestSupport
import Synchronization
import XCTest

/// What the real FFmpeg tools (ffprobe, ffmpeg) say about a video: the independent check on
/// what DarkroomVideo wrote.
struct VideoInspection {
    /// ffprobe's description of the first video stream and the container.
    struct Probe {
        var codec: String
        var codecTag: String
        var width: Int
        var height: Int
        var pixelFormat: String
        var colourPrimaries: String?
        var colourTransfer: String?
        var colourSpace: String?
        var frameRate: String
        /// Frames counted by decoding (`-count_frames`), not taken from the header.
        var decodedFrames: Int
        var duration: Double
    }

    let url: URL

    /// Runs ffprobe with frame counting.
    func probe() throws -> Probe {
        let output = try Tool.run("ffprobe", ["-v", "error", "-count_frames", "-show_streams", "-show_format", "-of", "json", url.path])
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        let streams = try XCTUnwrap(json["streams"] as? [[String: Any]])
        XCTAssertEqual(streams.count, 1, "expected one stream")
        let s = try XCTUnwrap(streams.first { $0["codec_type"] as? String == "video" })
        let format = try XCTUnwrap(json["format"] as? [String: Any])
        return Probe(codec: s["codec_name"] as? String ?? "", codecTag: s["codec_tag_string"] as? String ?? "",
                     width: s["width"] as? Int ?? 0, height: s["height"] as? Int ?? 0,
                     pixelFormat: s["pix_fmt"] as? String ?? "",
                     colourPrimaries: s["color_primaries"] as? String, colourTransfer: s["color_transfer"] as? String,
                     colourSpace: s["color_space"] as? String, frameRate: s["r_frame_rate"] as? String ?? "",
                     decodedFrames: Int(s["nb_read_frames"] as? String ?? "") ?? -1,
                     duration: Double(format["duration"] as? String ?? "") ?? -1)
    }

    /// Whatever ffmpeg complains about while decoding the whole file (empty when it decodes cleanly).
    func decodeErrors() throws -> String {
        try Tool.runCollectingErrors("ffmpeg", ["-v", "error", "-xerror", "-i", url.path, "-f", "null", "-"])
    }

    /// Where a frame sits on the timeline, in frame periods (1/`frameRate` s), from ffprobe's own
    /// timestamps and durations converted from the stream's time base.
    struct Timing: Equatable, CustomStringConvertible {
        var start: Double
        var length: Double
        var key = false
        var description: String { "\(start)+\(length)\(key ? "K" : "")" }
    }

    /// The frames a player shows, in presentation order: each decoded frame's pts (`ffprobe
    /// -show_frames`), how long it stays on screen (until the next frame's pts; the last one until
    /// the end of the file), and whether it is a key frame. (The decoder's own `pkt_duration` is no
    /// use once B-frames reorder the stream: it comes from the packet decoded last.)
    func shownFrames(frameRate: Int = 30) throws -> [Timing] {
        let output = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                              "stream=time_base:frame=pts,key_frame:format=duration", "-of", "json", url.path])
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        let stream = try XCTUnwrap((json["streams"] as? [[String: Any]])?.first)
        let base = try Self.seconds(XCTUnwrap(stream["time_base"] as? String)) * Double(frameRate)
        let end = try XCTUnwrap(Double(XCTUnwrap((json["format"] as? [String: Any])?["duration"] as? String))) * Double(frameRate)
        let frames = try XCTUnwrap(json["frames"] as? [[String: Any]])
        let starts = try frames.map { (start: Double(try XCTUnwrap($0["pts"] as? Int)) * base, key: $0["key_frame"] as? Int == 1) }
            .sorted { $0.start < $1.start }
        return starts.indices.map { index in
            let next = index + 1 < starts.count ? starts[index + 1].start : end
            return Timing(start: Self.rounded(starts[index].start), length: Self.rounded(next - starts[index].start), key: starts[index].key)
        }
    }

    /// `periods` to a thousandth, so that 9.000000001 periods read as 9.
    private static func rounded(_ periods: Double) -> Double { (periods * 1000).rounded() / 1000 }

    /// A time base such as `1/15360` in seconds.
    private static func seconds(_ rational: String) throws -> Double {
        let parts = rational.split(separator: "/").compactMap { Double($0) }
        guard parts.count == 2, parts[1] != 0 else { throw ToolError(message: "not a time base: \(rational)") }
        return parts[0] / parts[1]
    }

    /// The picture a player shows at `seconds`, as rgb24: the file decoded at `frameRate` (a held
    /// frame repeated at each tick it covers) and the first tick at or after `seconds` taken. (A
    /// plain `-ss` would not do: it drops a frame that starts before `seconds` even while it is still
    /// being shown.)
    func picture(at seconds: Double, width: Int, height: Int, frameRate: Int = 30) throws -> Data {
        let raw = try Tool.run("ffmpeg", ["-v", "error", "-i", url.path, "-vf", "fps=\(frameRate)", "-ss", String(format: "%.4f", seconds),
                                          "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        guard raw.count == width * height * 3 else {
            throw ToolError(message: "expected one \(width)x\(height) picture at \(seconds) s, got \(raw.count) bytes")
        }
        return raw
    }

    /// The frame a player shows at each 1/`frameRate` s tick, as 8-bit planes in `pixelFormat`
    /// (`gray`, `rgb24`, `yuv420p`), no scaling: a photo held for 9 periods is 9 frames here
    /// whether the file holds it as one frame or nine.
    func frames(pixelFormat: String, width: Int, height: Int, frameRate: Int = 30) throws -> [Data] {
        let bytesPerFrame: Int
        switch pixelFormat {
        case "gray": bytesPerFrame = width * height
        case "rgb24": bytesPerFrame = width * height * 3
        case "yuv420p": bytesPerFrame = width * height * 3 / 2
        default: throw XCTSkip("unsupported pixel format \(pixelFormat)")
        }
        let raw = try Tool.run("ffmpeg", ["-v", "error", "-i", url.path, "-r", "\(frameRate)", "-f", "rawvideo", "-pix_fmt", pixelFormat, "-"])
        XCTAssertEqual(raw.count % bytesPerFrame, 0, "raw output is not a whole number of frames")
        return stride(from: 0, to: raw.count - bytesPerFrame + 1, by: bytesPerFrame).map { raw.subdata(in: $0..<$0 + bytesPerFrame) }
    }

    /// The mean luma of each frame.
    func lumaMeans(width: Int, height: Int) throws -> [Double] {
        try frames(pixelFormat: "gray", width: width, height: height).map { Self.mean($0) }
    }

    /// The names of the top-level MP4 boxes in file order (`ftyp`, `moov`, `mdat`...).
    func topLevelBoxes() throws -> [String] {
        let data = try Data(contentsOf: url)
        var boxes: [String] = []
        var offset = 0
        while offset + 8 <= data.count {
            var size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            if size == 1, offset + 16 <= data.count { size = data[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) } }
            if size == 0 { size = data.count - offset }
            guard size >= 8 else { XCTFail("malformed box \(type) at \(offset)"); break }
            boxes.append(type)
            offset += size
        }
        return boxes
    }

    static func mean(_ data: Data) -> Double {
        data.isEmpty ? 0 : Double(data.reduce(0) { $0 + Int($1) }) / Double(data.count)
    }

    /// The mean of a rectangle of a `gray` frame `width` pixels wide.
    static func mean(_ frame: Data, width: Int, x: Int, y: Int, w: Int, h: Int) -> Double {
        var total = 0
        for row in y..<y + h { for column in x..<x + w { total += Int(frame[frame.startIndex + row * width + column]) } }
        return Double(total) / Double(w * h)
    }
}

/// Runs the FFmpeg command-line tools.
enum Tool {
    /// The tool's stdout; fails with its stderr when it exits non-zero. Skips when the tool is missing.
    static func run(_ name: String, _ arguments: [String]) throws -> Data {
        let (out, err, status) = try launch(name, arguments)
        guard status == 0 else { throw ToolError(message: "\(name) \(arguments.joined(separator: " ")) exited \(status): \(err)") }
        return out
    }

    /// Only the tool's stderr (and a note when it exits non-zero).
    static func runCollectingErrors(_ name: String, _ arguments: [String]) throws -> String {
        let (_, err, status) = try launch(name, arguments)
        return status == 0 ? err : err + "\n(exit status \(status))"
    }

    private static func launch(_ name: String, _ arguments: [String]) throws -> (Data, String, Int32) {
        guard let path = ["/usr/bin/\(name)", "/usr/local/bin/\(name)"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Prerequisite.missing("\(name) is not installed")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // stderr is read on another thread so that neither pipe can fill up and stall the tool.
        let errorText = StderrReader(err.fileHandleForReading)
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errorData = errorText.wait()
        process.waitUntilExit()
        return (output, String(decoding: errorData, as: UTF8.self), process.terminationStatus)
    }
}

/// Reads a file handle to its end on a thread of its own; `wait()` returns what it read.
private final class StderrReader: Sendable {
    private let data = Mutex(Data())
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            let read = handle.readDataToEndOfFile()
            data.withLock { $0 = read }
            done.signal()
        }.start()
    }

    func wait() -> Data {
        done.wait()
        return data.withLock { $0 }
    }
}

struct ToolError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
