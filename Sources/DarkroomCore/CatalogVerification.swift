import Foundation

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

extension Catalog {
    /// Checks every catalogued output against its file (exists, size, SHA-256) and lists library
    /// files the catalog does not know. Reads everything; changes nothing.
    public func verify(library: URL) throws -> CatalogDrift {
        var drift = CatalogDrift()
        let outputs = try allOutputs()
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
        drift.untracked = Catalog.libraryFiles(library).filter { !known.contains($0) }
        return drift
    }

    /// Rebuilds a lost catalog from the library itself: every untracked file whose name carries a
    /// Darkroom content id is recorded as that photo's output (size and SHA-256 as found). The next
    /// run over the originals adopts them: a photo whose id matches gets its rows, and its work is
    /// taken as done (only metadata steps run again), so nothing is encoded twice.
    /// Returns how many files were recorded and for how many photos.
    public func rebuild(library: URL) throws -> (files: Int, photos: Int) {
        let known = Set(try allOutputs().map(\.path))
        var ids = Set<String>()
        var files = 0
        for path in Catalog.libraryFiles(library) where !known.contains(path) {
            let name = (path as NSString).lastPathComponent
            guard let match = Catalog.contentID.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)),
                  let range = Range(match.range, in: name) else { continue }
            let url = library.appendingPathComponent(path)
            guard let info = FileInfo(path: url.path), info.isRegularFile else { continue }
            let id = String(name[range])
            let sha = try ContentHash.ofFile(url)
            try database.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO outputs (path, step, subject, size, sha256, run_id) VALUES (?, 'rebuilt', ?, ?, ?, NULL)",
                               arguments: [path, "id:" + id, info.size, sha])
            }
            ids.insert(id)
            files += 1
        }
        return (files, ids.count)
    }

    /// Gives the outputs a rebuild recorded under a photo's id to the photo with that content hash;
    /// returns how many there were.
    public func adopt(contentHash: String) throws -> Int {
        let id = "id:" + ContentHash.uuid(fromHex: contentHash).uuidString.lowercased()
        return try database.write { db in
            try db.execute(sql: "UPDATE outputs SET subject = ? WHERE subject = ?", arguments: [contentHash, id])
            return db.changesCount
        }
    }

    /// A Darkroom content id (RFC 9562 version 8 UUID) inside a file name.
    static let contentID = try! NSRegularExpression(pattern: "[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")

    /// Every regular file below the library, outside `.darkroom`, as sorted library-relative paths.
    static func libraryFiles(_ library: URL) -> [String] {
        var files: [String] = []
        func walk(_ url: URL, _ relative: String) {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() {
                let path = relative.isEmpty ? name : relative + "/" + name
                guard path != ".darkroom", let info = FileInfo(path: url.appendingPathComponent(name).path) else { continue }
                if info.isDirectory { walk(url.appendingPathComponent(name), path) } else { files.append(path) }
            }
        }
        walk(library, "")
        return files
    }
}
