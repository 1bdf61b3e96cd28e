import DarkroomTestSupport
import Foundation
import XCTest

/// What ffprobe (a second, independent reader) says about a file.
struct Probe {
    let format: [String: Any]
    let streams: [[String: Any]]

    init(_ url: URL) throws {
        let json = try Fixtures.run("ffprobe", ["-v", "error", "-show_format", "-show_streams", "-of", "json", url.path])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        format = object["format"] as? [String: Any] ?? [:]
        streams = object["streams"] as? [[String: Any]] ?? []
    }

    /// The first stream of a type (`video`, `audio`).
    func stream(_ type: String) -> [String: Any]? { streams.first { $0["codec_type"] as? String == type } }

    /// A container tag.
    func tag(_ key: String) -> String? { (format["tags"] as? [String: Any])?[key] as? String }

    /// The video stream's display-matrix rotation as ffprobe reports it, nil without a matrix.
    var rotation: Double? {
        let sideData = stream("video")?["side_data_list"] as? [[String: Any]] ?? []
        return sideData.first { $0["side_data_type"] as? String == "Display Matrix" }.flatMap { ($0["rotation"] as? NSNumber)?.doubleValue }
    }

    /// Whether the `moov` box comes before `mdat` (fast start), from the file's bytes.
    static func movieFirst(_ url: URL) throws -> Bool {
        let data = try Data(contentsOf: url)
        guard let movie = data.range(of: Data("moov".utf8)), let media = data.range(of: Data("mdat".utf8)) else { return false }
        return movie.lowerBound < media.lowerBound
    }

    /// The first frame of the first video stream as packed RGB, decoded by the ffmpeg CLI.
    static func firstFrame(_ url: URL, width: Int, height: Int) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-v", "error", "-i", url.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(data.count, width * height * 3, "one \(width)x\(height) frame")
        return [UInt8](data)
    }

    /// The mean colour of a rectangle of a packed RGB frame `width` wide.
    static func colour(_ frame: [UInt8], width: Int, x: Int, y: Int, w: Int, h: Int) -> [Double] {
        var sums = [0.0, 0.0, 0.0]
        for row in y..<y + h { for column in x..<x + w { for band in 0..<3 { sums[band] += Double(frame[(row * width + column) * 3 + band]) } } }
        return sums.map { $0 / Double(w * h) }
    }
}
