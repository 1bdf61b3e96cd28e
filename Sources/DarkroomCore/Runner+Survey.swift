import Foundation

extension Runner {
    // MARK: Survey: discover, hash, find duplicates

    struct SurveyEntry {
        enum State {
            /// A photo to work on: its identity, and whether the file is a rendition of it in the library.
            case unique(String, rendition: Bool)
            case duplicate(of: String, hash: String)
            case unreadable(String)
        }

        var found: Discovery.Found
        var state: State

        /// What decides which shard the entry belongs to: the photo's identity, so that duplicates
        /// go with their original; for a file that could not be read, its path.
        var owner: String {
            switch state {
            case .unique(let hash, _), .duplicate(_, let hash): return hash
            case .unreadable: return ContentHash.of(found.url.path)
            }
        }
    }

    struct Survey {
        var entries: [SurveyEntry]
        var skipped: [Discovery.Skipped]
    }

    func survey(inputs: [URL], catalog: CatalogStore?, remember: Bool) throws -> Survey {
        guard !inputs.isEmpty else { throw RunError("no input folders: give --input (or 'inputs: folders:' in the pipeline)") }
        // The library is never read as input from a folder above it; an input inside the library
        // (its Photos, to regenerate thumbnails) is read, but never its .darkroom folder.
        let library = settings.library.resolvingSymlinksInPath().path
        let insideLibrary = inputs.contains { ($0.standardizedFileURL.resolvingSymlinksInPath().path + "/").hasPrefix(library + "/") }
        let discovery = Discovery(spec: pipeline.inputs,
                                  avoiding: [settings.library.appendingPathComponent(".darkroom")] + (insideLibrary ? [] : [settings.library]),
                                  takes: pipeline.media)
        let (found, skipped) = discovery.files(in: inputs)
        var hashes: [Result<String, Error>?] = Array(repeating: nil, count: found.count)
        var fresh: [FileFingerprint] = []
        let lock = NSLock()
        DarkroomThreads.forEach(count: found.count, jobs: settings.jobs) { index in
            let file = found[index]
            let result = Result { () throws -> String in
                if let cached = try catalog?.cachedHash(path: file.url.path, size: file.size,
                                                        mtimeNanoseconds: file.modificationNanoseconds, inode: file.inode) {
                    return cached
                }
                let hash = try ContentHash.ofFile(file.url)
                let remembered = FileFingerprint(path: file.url.path, size: file.size,
                                                  mtimeNanoseconds: file.modificationNanoseconds, inode: file.inode, hash: hash)
                lock.lock(); fresh.append(remembered); lock.unlock()
                return hash
            }
            lock.lock(); hashes[index] = result; lock.unlock()
        }
        // One transaction (one fsync) for all new hashes, not one per file.
        if remember { try catalog?.rememberHashes(fresh) }
        var firstPath: [String: String] = [:]
        let entries = found.enumerated().map { index, file -> SurveyEntry in
            switch hashes[index]! {
            case .failure(let error):
                return SurveyEntry(found: file, state: .unreadable("cannot read: \(error.localizedDescription)"))
            case .success(let fileHash):
                let hash = identity(of: file, hash: fileHash, catalog: catalog)
                if let original = firstPath[hash] { return SurveyEntry(found: file, state: .duplicate(of: original, hash: hash)) }
                firstPath[hash] = file.url.path
                return SurveyEntry(found: file, state: .unique(hash, rendition: hash != fileHash))
            }
        }
        return Survey(entries: entries, skipped: skipped)
    }

    /// Which photo a file is. A file the catalog knows as one of the library's own outputs, unchanged
    /// (a HEIC in `Photos/`, read to regenerate thumbnails), is the photo it was made from: same
    /// content hash for the catalog, same `{id}`. Any other file is itself.
    func identity(of file: Discovery.Found, hash: String, catalog: CatalogStore?) -> String {
        let library = settings.library.resolvingSymlinksInPath().path + "/"
        let path = file.url.resolvingSymlinksInPath().path
        guard path.hasPrefix(library), let catalog,
              let output = try? catalog.output(at: String(path.dropFirst(library.count))),
              output.sha256 == hash, !output.subject.hasPrefix("collection:") else { return hash }
        return output.subject
    }
}
