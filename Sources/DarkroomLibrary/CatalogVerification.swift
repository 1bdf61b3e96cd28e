import Foundation
import DarkroomModel

/// The result of checking a catalog against the library's files.
public struct CatalogDrift: Codable, Sendable, Equatable {
    /// Outputs the catalog lists whose file is gone.
    public var missing: [String] = []
    /// Outputs whose file no longer has the recorded size and SHA-256.
    public var changed: [String] = []
    /// Files in the library (outside `.darkroom`) that the catalog does not list.
    public var untracked: [String] = []
    /// How many catalogued outputs were checked.
    public var checked = 0

    /// Whether the catalog and the files agree.
    public var isClean: Bool { missing.isEmpty && changed.isEmpty && untracked.isEmpty }

    /// Lines for a terminal.
    public var text: String {
        var lines = ["\(checked) outputs checked: \(missing.count) missing, \(changed.count) changed, \(untracked.count) untracked"]
        lines += missing.map { "  missing: \($0)" } + changed.map { "  changed: \($0)" } + untracked.map { "  untracked: \($0)" }
        return lines.joined(separator: "\n")
    }
}

/// Checks any catalog's outputs against the library's files, and finds what a lost catalog can be
/// rebuilt from: the same rules for the SQLite catalog and the PostgreSQL one.
public enum CatalogVerification {
    /// The step `catalog rebuild` records library files under: it knows them only by the id in their names.
    public static let rebuiltStep = "rebuilt"

    /// What the subjects of the files `catalog rebuild` records begin with: `id:<content id>`.
    public static let rebuiltSubjectPrefix = "id:"

    /// The subject `catalog rebuild` records the files of the photo with content hash `contentHash` under.
    public static func rebuiltSubject(of contentHash: String) -> String {
        rebuiltSubjectPrefix + ContentHash.uuid(fromHex: contentHash).uuidString.lowercased()
    }

    /// A library file whose name carries a photo's content id, as `catalog rebuild` records it.
    public struct Found: Sendable {
        public var path: String
        /// The content id in the file's name (a version 8 UUID).
        public var id: String
        public var size: Int64
        public var sha256: String
    }

    /// Checks every catalogued output against its file (exists, size, SHA-256) and lists library
    /// files the catalog does not know. Reads everything; changes nothing.
    public static func verify(outputs: [CatalogOutput], library: URL) -> CatalogDrift {
        var drift = CatalogDrift()
        drift.checked = outputs.count
        for output in outputs {
            let url = library.appendingPathComponent(output.path)
            guard let info = FileInfo(path: url.path), info.isRegularFile else {
                drift.missing.append(output.path)
                continue
            }
            if info.size != output.size || (try? ContentHash.ofFile(url)) != output.sha256 { drift.changed.append(output.path) }
        }
        let known = Set(outputs.map(\.path))
        drift.untracked = libraryFiles(library).filter { !known.contains($0) }
        return drift
    }

    /// The library's files outside `known` whose names carry a Darkroom content id, hashed: what a
    /// rebuild records as that photo's outputs.
    public static func rebuildable(library: URL, known: Set<String>) throws -> [Found] {
        try libraryFiles(library).filter { !known.contains($0) }.compactMap { path in
            let name = (path as NSString).lastPathComponent
            guard let match = contentID.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)),
                  let range = Range(match.range, in: name) else { return nil }
            let url = library.appendingPathComponent(path)
            guard let info = FileInfo(path: url.path), info.isRegularFile else { return nil }
            return Found(path: path, id: String(name[range]), size: info.size, sha256: try ContentHash.ofFile(url))
        }
    }

    /// A Darkroom content id (RFC 9562 version 8 UUID) inside a file name.
    static let contentID = try! NSRegularExpression(pattern: "[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")

    /// Every regular file below the library (or any folder), outside `.darkroom`, as sorted relative paths.
    package static func libraryFiles(_ library: URL) -> [String] {
        var files: [String] = []
        func walk(_ url: URL, _ relative: String) {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() {
                let path = relative.isEmpty ? name : relative + "/" + name
                let child = url.appendingPathComponent(name, isDirectory: false)
                guard path != ".darkroom", let info = FileInfo(path: child.path) else { continue }
                if info.isDirectory { walk(child, path) } else { files.append(path) }
            }
        }
        walk(library, "")
        return files
    }
}
