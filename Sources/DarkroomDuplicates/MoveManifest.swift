import DarkroomLibrary
import DarkroomModel
import Foundation

/// What `--move-to` moved into a folder, kept in the folder (`.darkroom-moved.json`): for each file,
/// the catalog row it had (path, step, subject, size, SHA-256), the key of the work unit that made
/// it and the photo's original, so that `--move-back` can put it back and record it exactly as it was.
///
/// Written whole to a temp file, fsynced, renamed over the old one and the folder fsynced: a crash
/// leaves the old manifest or the new one, never a part of one.
public struct MoveManifest: Codable, Sendable, Equatable {
    /// One file moved out.
    public struct Entry: Codable, Sendable, Equatable {
        /// Its library-relative path (and its path under the folder).
        public var path: String
        /// The catalog step that made it.
        public var step: String
        /// The catalog subject it belongs to: its photo's content hash (or a part's).
        public var subject: String
        /// Its size in bytes.
        public var size: Int64
        /// The SHA-256 the catalog recorded.
        public var sha256: String
        /// The key of the step's work unit when it was moved (nil: the step had none).
        public var unitKey: String?
        /// The photo's original file, as reports name it.
        public var original: String

        /// An entry for a catalogued output of the photo from `original`, made by the unit `unitKey`.
        public init(_ output: CatalogOutput, unitKey: String?, original: String) {
            path = output.path; step = output.step; subject = output.subject; size = output.size; sha256 = output.sha256
            self.unitKey = unitKey; self.original = original
        }

        /// The file as the catalog records it.
        public var output: PublishedOutput { PublishedOutput(step: step, path: path, size: size, sha256: sha256) }
    }

    /// The manifest's layout version.
    public var version = 1
    /// The files moved out and not moved back, sorted by path.
    public var files: [Entry] = []

    /// The manifest's name inside the folder.
    public static let fileName = ".darkroom-moved.json"

    /// An empty manifest.
    public init() {}

    /// Where the manifest of `folder` is.
    public static func location(in folder: URL) -> URL { folder.appendingPathComponent(fileName) }

    /// The manifest of `folder`; empty when it has none; throws (naming it) when it cannot be read.
    public static func read(in folder: URL) throws -> MoveManifest {
        let url = location(in: folder)
        guard FileManager.default.fileExists(atPath: url.path) else { return MoveManifest() }
        do {
            let manifest = try JSONDecoder().decode(MoveManifest.self, from: Data(contentsOf: url))
            guard manifest.version == 1 else { throw RunError("layout version \(manifest.version) is not one this Darkroom reads") }
            return manifest
        } catch {
            throw RunError("cannot read \(url.path), the list of files moved there: \(error)")
        }
    }

    /// This manifest with `entries` added (an entry for a path already listed replaces it).
    public func adding(_ entries: [Entry]) -> MoveManifest {
        let added = Set(entries.map(\.path))
        var manifest = self
        manifest.files = (files.filter { !added.contains($0.path) } + entries).sorted { $0.path < $1.path }
        return manifest
    }

    /// This manifest without the entries for `paths`.
    public func removing(_ paths: Set<String>) -> MoveManifest {
        var manifest = self
        manifest.files.removeAll { paths.contains($0.path) }
        return manifest
    }

    /// Writes the manifest into `folder` durably (removes it when it lists nothing).
    public func write(in folder: URL) throws {
        let url = Self.location(in: folder)
        if files.isEmpty {
            guard unlink(url.path) == 0 || errno == ENOENT else { throw RunError("cannot remove \(url.path): \(LibraryFiles.errnoText())") }
            try Publisher.fsync(path: folder.path)
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let temp = folder.appendingPathComponent(Self.fileName + ".writing")
        do {
            try encoder.encode(self).write(to: temp)
            try Publisher.fsync(path: temp.path)
            guard rename(temp.path, url.path) == 0 else { throw RunError(LibraryFiles.errnoText()) }
            try Publisher.fsync(path: folder.path)
        } catch {
            unlink(temp.path)
            throw RunError("cannot write \(url.path), the list of files moved there: \(error)")
        }
    }
}
