import Foundation
import Logging
import Synchronization
import XCTest

/// What libvips' own loaders (`vipsheader`, an independent reader of GIF and WebP) and the file's
/// first bytes say about an animation.
struct AnimationInspection {
    let url: URL

    /// The fields of `vipsheader -a`: `n-pages`, `delay` (ms, one a frame), `loop` (0: forever),
    /// `width`, `height` (of one frame), `vips-loader`.
    func header() throws -> [String: String] {
        let text = String(decoding: try Tool.run("vipsheader", ["-a", url.path]), as: UTF8.self)
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon]).trimmingCharacters(in: .whitespaces)] =
                String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    /// Each frame's delay in milliseconds.
    func delays() throws -> [Int] {
        try XCTUnwrap(header()["delay"], "no delay field").split(separator: " ").compactMap { Int($0) }
    }

    /// The number of frames.
    func frameCount() throws -> Int { Int(try header()["n-pages"] ?? "1") ?? -1 }

    /// The mean level of frame `page` (from 0) as libvips decodes it, over R, G and B (not alpha).
    func meanOfFrame(_ page: Int, scratch: URL) throws -> Double {
        let rgb = scratch.appendingPathComponent("frame-\(page).v").path
        _ = try Tool.run("vips", ["extract_band", url.path + "[page=\(page)]", rgb, "0", "--n", "3"])
        let mean = String(decoding: try Tool.run("vips", ["avg", rgb]), as: UTF8.self)
        return try XCTUnwrap(Double(mean.trimmingCharacters(in: .whitespacesAndNewlines)), "vips avg said '\(mean)'")
    }

    /// The file's first 16 bytes as text (`GIF89a`, `RIFF....WEBPVP8X`).
    func signature() throws -> String {
        String(decoding: try Data(contentsOf: url).prefix(16).map { $0 >= 32 && $0 < 127 ? $0 : 46 }, as: UTF8.self)
    }

    /// Whether the file holds the chunk or block `marker` (`ANIM`, `NETSCAPE2.0`).
    func contains(_ marker: String) throws -> Bool {
        try Data(contentsOf: url).range(of: Data(marker.utf8)) != nil
    }
}

/// Log lines a run writes, kept for a test to read (the CLI shows warnings on stderr).
final class CapturedLog: Sendable {
    private let lines = Mutex<[String]>([])

    /// A logger whose warnings and errors land here.
    var logger: Logger {
        Logger(label: "darkroom") { _ in Handler(log: self) }
    }

    /// Everything logged so far, one line each.
    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .warning

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
                 file: String, function: String, line: UInt) {
            log.append("\(level): \(message)")
        }
    }
}
