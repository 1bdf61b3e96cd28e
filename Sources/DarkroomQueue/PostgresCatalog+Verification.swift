import DarkroomCore
import Foundation

extension PostgresCatalog {
    /// Checks every catalogued output against its file (exists, size, SHA-256) and lists library
    /// files the catalog does not know, as `Catalog.verify` does for SQLite. Only reads (SELECTs).
    public func verify(library: URL) throws -> CatalogDrift {
        var missing: [String] = [], changed: [String] = []
        let outputs = try allOutputs()
        for output in outputs {
            let url = library.appendingPathComponent(output.path)
            guard let size = PostgresCatalog.regularFileSize(url.path) else {
                missing.append(output.path)
                continue
            }
            if size != output.size || (try? ContentHash.ofFile(url)) != output.sha256 { changed.append(output.path) }
        }
        let known = Set(outputs.map(\.path))
        let untracked = PostgresCatalog.libraryFiles(library).filter { !known.contains($0) }
        return try PostgresCatalog.drift(missing: missing, changed: changed, untracked: untracked, checked: outputs.count)
    }

    /// Rebuilds a lost catalog from the library, as `Catalog.rebuild` does for SQLite: every
    /// untracked file whose name carries a Darkroom content id is recorded as that photo's output
    /// (step `rebuilt`, size and SHA-256 as found); the next run over the originals adopts them.
    /// Returns how many files were recorded and for how many photos.
    public func rebuild(library: URL) throws -> (files: Int, photos: Int) {
        let known = Set(try allOutputs().map(\.path))
        var ids = Set<String>()
        var files = 0
        for path in PostgresCatalog.libraryFiles(library) where !known.contains(path) {
            let name = (path as NSString).lastPathComponent
            guard let match = PostgresCatalog.contentID.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)),
                  let range = Range(match.range, in: name) else { continue }
            let url = library.appendingPathComponent(path)
            guard let size = PostgresCatalog.regularFileSize(url.path) else { continue }
            let id = String(name[range])
            let sha = try ContentHash.ofFile(url)
            try session.execute("""
                INSERT INTO outputs (path, step, subject, size, sha256, run_id) VALUES (\(path), 'rebuilt', \("id:" + id), \(size), \(sha), NULL)
                ON CONFLICT (path) DO UPDATE SET step = EXCLUDED.step, subject = EXCLUDED.subject, size = EXCLUDED.size,
                    sha256 = EXCLUDED.sha256, run_id = NULL
                """)
            ids.insert(id)
            files += 1
        }
        return (files, ids.count)
    }

    /// A Darkroom content id (RFC 9562 version 8 UUID) inside a file name (as `Catalog` matches it).
    static let contentID = try! NSRegularExpression(pattern: "[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")

    /// The size of a regular file (not following a symbolic link), or nil.
    static func regularFileSize(_ path: String) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular else { return nil }
        return (attributes[.size] as? NSNumber)?.int64Value
    }

    /// Every file below the library, outside `.darkroom`, as sorted library-relative paths.
    static func libraryFiles(_ library: URL) -> [String] {
        var files: [String] = []
        func walk(_ url: URL, _ relative: String) {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() {
                let path = relative.isEmpty ? name : relative + "/" + name
                let child = url.appendingPathComponent(name)
                guard path != ".darkroom", let attributes = try? FileManager.default.attributesOfItem(atPath: child.path) else { continue }
                if attributes[.type] as? FileAttributeType == .typeDirectory { walk(child, path) } else { files.append(path) }
            }
        }
        walk(library, "")
        return files
    }

    /// A `CatalogDrift` with these fields. DarkroomCore gives it no public initialiser, so it is
    /// made through its Codable form.
    static func drift(missing: [String], changed: [String], untracked: [String], checked: Int) throws -> CatalogDrift {
        struct Fields: Encodable { var missing, changed, untracked: [String]; var checked: Int }
        let data = try JSONEncoder().encode(Fields(missing: missing, changed: changed, untracked: untracked, checked: checked))
        return try JSONDecoder().decode(CatalogDrift.self, from: data)
    }
}
