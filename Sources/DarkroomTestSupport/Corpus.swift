import Foundation
import XCTest

/// The shared corpus of real public photos (`../shared/corpus`), found through the
/// `DARKROOM_CORPUS` environment variable that `.ci/run` sets.
public enum Corpus {
    /// The corpus folder, or nil when `DARKROOM_CORPUS` is unset or missing.
    public static var root: URL? {
        guard let path = ProcessInfo.processInfo.environment["DARKROOM_CORPUS"], !path.isEmpty else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// The corpus folder; skips the calling test with a message when it is not available (fails it under CI).
    public static func requireRoot() throws -> URL {
        guard let root else { throw Prerequisite.missing("set DARKROOM_CORPUS to ../shared/corpus to run corpus tests") }
        return root
    }

    /// A file of the corpus by its path in `manifest.tsv`; skips the test when the corpus is absent.
    public static func file(_ relativePath: String) throws -> URL {
        let url = try requireRoot().appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw Prerequisite.missing("corpus file \(relativePath) is missing")
        }
        return url
    }

    /// One row of `manifest.tsv`: what exiftool says about a corpus file.
    public struct Entry: Sendable {
        public var path: String
        public var fileType: String
        public var width: Int?
        public var height: Int?
        public var orientation: Int?
        public var dateTimeOriginal: String
        public var offsetTimeOriginal: String
        public var make: String
        public var model: String
        public var notes: String

        /// Whether the manifest marks the file as broken (empty, truncated, corrupt, fuzz, huge, unsupported).
        public var isBad: Bool {
            ["CORRUPT", "TRUNCATED", "HUGE", "EMPTY", "VALID-BUT-UNSUPPORTED", "fuzz"].contains { notes.contains($0) }
                || fileType.isEmpty
        }
    }

    /// Every row of `manifest.tsv`.
    public static func manifest() throws -> [Entry] {
        let text = try String(contentsOf: try requireRoot().appendingPathComponent("manifest.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 12 else { return nil }
            return Entry(path: f[0], fileType: f[3], width: Int(f[4]), height: Int(f[5]), orientation: Int(f[6]),
                         dateTimeOriginal: f[7], offsetTimeOriginal: f[8], make: f[9], model: f[10], notes: f[11])
        }
    }
}

/// A temporary folder removed when the value is deinitialised.
public final class TemporaryFolder: Sendable {
    public let url: URL

    public init(_ label: String = "darkroom-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A path inside the folder.
    public func path(_ relative: String) -> URL { url.appendingPathComponent(relative) }
}
