import Foundation
import DarkroomTestSupport
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

    /// Every decoded frame as 8-bit planes in `pixelFormat` (`gray`, `rgb24`, `yuv420p`), no scaling.
    func frames(pixelFormat: String, width: Int, height: Int) throws -> [Data] {
        let bytesPerFrame: Int
        switch pixelFormat {
        case "gray": bytesPerFrame = width * height
        case "rgb24": bytesPerFrame = width * height * 3
        case "yuv420p": bytesPerFrame = width * height * 3 / 2
        default: throw XCTSkip("unsupported pixel format \(pixelFormat)")
        }
        let raw = try Tool.run("ffmpeg", ["-v", "error", "-i", url.path, "-f", "rawvideo", "-pix_fmt", pixelFormat, "-"])
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
        var errorData = Data()
        let stderrRead = DispatchGroup()
        stderrRead.enter()
        DispatchQueue.global().async { errorData = err.fileHandleForReading.readDataToEndOfFile(); stderrRead.leave() }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        stderrRead.wait()
        process.waitUntilExit()
        return (output, String(decoding: errorData, as: UTF8.self), process.terminationStatus)
    }
}

struct ToolError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
