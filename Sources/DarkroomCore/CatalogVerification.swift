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
