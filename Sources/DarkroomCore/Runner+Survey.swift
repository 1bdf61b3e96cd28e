import Foundation
import DarkroomLibrary
import DarkroomModel

extension Runner {
    // MARK: Survey: discover, hash, find duplicates

    struct SurveyEntry {
        enum State {
            /// A photo to work on: its identity, and whether the file is a rendition of it in the library.
            case unique(String, rendition: Bool)
            case duplicate(of: String, hash: String)
            case unreadable(String)
            /// A Live Photo's video, published as the motion part of the still with content hash
            /// `of` (found at `stillPath`, this run or an earlier one).
            case motionPart(of: String, hash: String, stillPath: String)
        }

        var found: Discovery.Found
        var state: State
        /// The Live Photo identifier of the file, read by the survey or remembered by the catalog,
        /// if the pipeline pairs (see `pairMotionParts`).
        var pairingKey: String?
        /// What the pipeline's prober read in the file's header, when the survey opened the file.
        var probe: ProbedSource?

        /// What decides which shard the entry belongs to: the photo's identity, so that duplicates
        /// go with their original; for a file that could not be read, its path.
        var owner: String {
            switch state {
            case .unique(let hash, _), .duplicate(_, let hash), .motionPart(let hash, _, _): return hash
            case .unreadable: return ContentHash.of(found.path)
            }
        }

        /// The photos and videos whose units and outputs working on the entry reads: its own, and a
        /// motion part's still's; none for a duplicate or an unreadable file.
        var subjects: [String] {
            switch state {
            case .unique(let hash, _): return [hash]
            case .motionPart(let still, let hash, _): return [hash, still]
            case .duplicate, .unreadable: return []
            }
        }

        /// For a Live Photo's video published as a motion part: the still's content hash.
        var stillHash: String? {
            guard case .motionPart(let still, _, _) = state else { return nil }
            return still
        }

        /// For a Live Photo's video published as a motion part: where its still is.
        var stillPath: String? {
            guard case .motionPart(_, _, let path) = state else { return nil }
            return path
        }

        /// Whether the entry is an original file (not a library rendition) of `kind`, to work on.
        func isOriginal(of kind: MediaKind) -> Bool {
            guard case .unique(_, rendition: false) = state else { return false }
            // Its relative path ends with its name (cheaper to read than the URL's last component).
            return MediaKind(fileName: found.relativePath) == kind
        }
    }

    struct Survey {
        var entries: [SurveyEntry]
        var skipped: [Discovery.Skipped]
        /// RAWs beside a still of the same name that is not the same shot, and why.
        var unpairedRaws: [RunReportNote] = []
    }

    /// A found file's content hash (or why it could not be read), what the pipeline's prober read in
    /// its header while it was open, its sidecars' hashes, and the fingerprints worked out now for the
    /// catalog to remember.
    private struct HashedFile {
        var content: Result<String, Error>
        var probe: ProbedSource?
        var sidecars: [String?]
        var fresh: [FileFingerprint]
    }

    /// Finds the input files, hashes them (unchanged files by the catalog's remembered hashes), and
    /// tells what each is: a photo to work on, a duplicate, a Live Photo's video, unreadable. What the
    /// run will ask the catalog about the files and their photos is read ahead here, in bulk (their
    /// units and outputs later, a block at a time: `inBlocks`).
    func survey(inputs: [URL], catalog: CatalogReadAhead?, remember: Bool) throws -> Survey {
        guard !inputs.isEmpty else { throw RunError("no input folders: give --input (or 'inputs: folders:' in the pipeline)") }
        // The library is never read as input from a folder above it; an input inside the library
        // (its Photos, to regenerate thumbnails) is read, but never its .darkroom folder.
        let library = settings.library.resolvingSymlinksInPath().path
        let insideLibrary = inputs.contains { ($0.standardizedFileURL.resolvingSymlinksInPath().path + "/").hasPrefix(library + "/") }
        let discovery = Discovery(spec: pipeline.inputs,
                                  avoiding: [settings.library.appendingPathComponent(".darkroom")] + (insideLibrary ? [] : [settings.library]),
                                  takes: pipeline.discovers, sidecars: pipeline.sidecars)
        var (found, skipped) = discovery.files(in: inputs)
        // Only an input inside the library, or a symbolic link followed into it, finds the library's
        // own files; otherwise no file's path is resolved (an lstat a path component) to look for them.
        let mayHoldLibraryFiles = insideLibrary || pipeline.inputs.followSymlinks
        // A file hashed now is probed in the same open, while its first bytes are in memory: it is
        // not opened again for its pairing identifier (nor, in the steps, for anything the probe read).
        let prober = pipeline.prober
        var libraryPaths = LibraryPaths(library: settings.library, followingLinks: pipeline.inputs.followSymlinks)
        // For a library file among the inputs, the photo it is a rendition of (its content hash): not
        // the catalog's whole record of the file, which held 40 MB more at 100,000.
        var hashed: [HashedFile] = [], renditionOf: [String?] = []
        hashed.reserveCapacity(found.count)
        // A block of files at a time: their remembered fingerprints, and the catalog's records of the
        // library's own files among them, are held while the block is worked on and let go of after
        // (at 100,000 files they were the largest part of what a gallery run held).
        for block in readAheadBlocks(count: found.count) {
            let hashBlock = { self.hash(found[block], prober: prober, catalog: catalog) }
            let paths = found[block].flatMap { [$0.path] + $0.sidecars.map(\.url.path) }
            hashed += try catalog?.withFingerprints(of: paths, hashBlock) ?? hashBlock()
            // Library files among the inputs (its Photos/, to regenerate thumbnails or make the gallery)
            // are the photos they were made from, by the catalog's records of them: only those photos'
            // facts are read ahead below, not the files' own.
            guard mayHoldLibraryFiles else { continue }
            let inLibrary = found[block].map { libraryPaths.relativePath(of: $0.path) }
            let findRenditions = { block.map { index -> String? in
                guard let path = inLibrary[index - block.lowerBound], let hash = try? hashed[index].content.get() else { return nil }
                return self.libraryOutput(at: path, hash: hash, catalog: catalog)?.subject
            } }
            renditionOf += try catalog?.withOutputs(atPaths: inLibrary.compactMap { $0 }, findRenditions) ?? findRenditions()
        }
        for index in found.indices {
            for (position, hash) in hashed[index].sidecars.enumerated() { found[index].sidecars[position].contentHash = hash }
        }
        // One transaction (one fsync) for all new hashes, not one per file.
        if remember { try catalog?.rememberHashes(hashed.flatMap(\.fresh)) }
        try catalog?.readPairingFacts(of: found.indices.compactMap { index in
            guard let hash = try? hashed[index].content.get() else { return nil }
            return renditionOf.isEmpty ? hash : renditionOf[index] ?? hash
        })
        var motionRenditions: [Discovery.Skipped] = []
        // Room for every file's entry at once, not a list doubled to it (both lists held while it is copied).
        var entries: [SurveyEntry] = []
        entries.reserveCapacity(found.count)
        for (index, file) in found.enumerated() {
            switch hashed[index].content {
            case .failure(let error):
                entries.append(SurveyEntry(found: file, state: .unreadable("cannot read: \(error.localizedDescription)")))
            case .success(let fileHash):
                let photo = renditionOf.isEmpty ? nil : renditionOf[index]
                let hash = photo ?? fileHash
                if photo != nil, let reason = motionPartRendition(file, subject: hash, catalog: catalog) {
                    motionRenditions.append(Discovery.Skipped(path: file.path, reason: reason, kind: "motion part"))
                    continue
                }
                entries.append(SurveyEntry(found: file, state: .unique(hash, rendition: photo != nil), probe: hashed[index].probe))
            }
        }
        markDuplicates(&entries)
        // RAWs first: a RAW that is a JPEG's is not a still a Live Photo's video is looked for among.
        let unpairedRaws = prober.map { pairRawParts(&entries, prober: $0) } ?? []
        if let prober { pairMotionParts(&entries, prober: prober, catalog: catalog) }
        // Paired: what pairing read of every photo is let go of (the work reads their facts a block at a time).
        catalog?.letGoOfPairingFacts()
        // Videos were found to be paired with their stills; those that are not, no step takes.
        let media = pipeline.media
        let untaken = entries.filter { entry in
            guard case .unique = entry.state else { return false }
            return !media.contains(MediaKind(fileName: entry.found.relativePath))
        }
        entries.removeAll { entry in untaken.contains { $0.found.path == entry.found.path } }
        let passedOver = untaken.flatMap { entry -> [Discovery.Skipped] in
            let ext = entry.found.url.pathExtension
            let kind = MediaKind(fileName: entry.found.name)
            let video = Discovery.Skipped(path: entry.found.path,
                                          reason: "\(kind) (.\(ext)): no step of this pipeline takes \(kind.plural), and no still of the run is its Live Photo",
                                          kind: ".\(ext.lowercased()) \(kind)")
            return [video] + entry.found.sidecars.map {
                Discovery.Skipped(path: $0.url.path, reason: "sidecar of \(entry.found.name), which this pipeline does not take",
                                  kind: "unused sidecar")
            }
        }
        // A sidecar shared by a file taken and one not taken (an edited copy's) is read all the same.
        let read = Set(entries.flatMap { $0.found.sidecars.map(\.url.path) })
        return Survey(entries: entries, skipped: skipped + motionRenditions + passedOver.filter { !read.contains($0.path) },
                      unpairedRaws: unpairedRaws)
    }

    /// Hashes `files` on the run's threads (an unchanged file by its remembered hash), each probed by
    /// `prober` in the same open when it is read now, with its sidecars.
    private func hash(_ files: ArraySlice<Discovery.Found>, prober: (any SourceProber)?, catalog: CatalogStore?) -> [HashedFile] {
        DarkroomThreads.map(count: files.count, jobs: settings.jobs) { position in
            let file = files[files.startIndex + position]
            var fresh: [FileFingerprint] = []
            var probe: ProbedSource?
            let readHeader = prober.map { prober in { (descriptor: Int32) in
                let kind = MediaKind(fileName: file.name)
                probe = prober.probe(OpenSource(url: file.url, kind: kind, descriptor: descriptor))
            } }
            let result = Result { () throws -> String in
                try Self.hash(path: file.path, size: file.size, mtimeNanoseconds: file.modificationNanoseconds, inode: file.inode,
                              catalog: catalog, whileOpen: readHeader) { fresh.append($0) }
            }
            // A sidecar that cannot be read keeps no hash: the step reading it says why.
            let sidecars = file.sidecars.map { sidecar in
                try? Self.hash(path: sidecar.url.path, size: sidecar.size, mtimeNanoseconds: sidecar.modificationNanoseconds,
                               inode: sidecar.inode, catalog: catalog) { fresh.append($0) }
            }
            return HashedFile(content: result, probe: probe, sidecars: sidecars, fresh: fresh)
        }
    }

    /// The content hash of a file, remembered by the catalog when its path, size, mtime and inode
    /// are unchanged; a hash worked out now is handed to `remember`. A file read now (opened once) is
    /// then handed, its descriptor back at the first byte, to `whileOpen` before it is closed.
    static func hash(path: String, size: Int64, mtimeNanoseconds: Int64, inode: UInt64, catalog: CatalogStore?,
                     whileOpen: ((Int32) -> Void)? = nil, remember: (FileFingerprint) -> Void) throws -> String {
        if let cached = try catalog?.cachedHash(path: path, size: size, mtimeNanoseconds: mtimeNanoseconds, inode: inode) {
            return cached
        }
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path, isDirectory: false))
        defer { try? handle.close() }
        let hash = try ContentHash.of(handle)
        remember(FileFingerprint(path: path, size: size, mtimeNanoseconds: mtimeNanoseconds, inode: inode, hash: hash))
        if let whileOpen, (try? handle.seek(toOffset: 0)) != nil { whileOpen(handle.fileDescriptor) }
        return hash
    }

    /// `0..<count` cut into blocks of `settings.photosReadAhead`: the photos a run reads ahead at once.
    func readAheadBlocks(count: Int) -> [Range<Int>] {
        let size = max(1, settings.photosReadAhead)
        return stride(from: 0, to: count, by: size).map { $0..<min($0 + size, count) }
    }

    /// Works through `indices` of `entries` a block of `settings.photosReadAhead` at a time, each block's
    /// photos' units and outputs of this pipeline's steps and their facts read ahead in a lookup each
    /// (`CatalogReadAhead.readStates`), the next block's while `body` works on this one, so that a run
    /// over 100,000 photos holds two blocks' of them rather than all.
    func inBlocks(_ indices: [Int], of entries: [SurveyEntry], catalog: CatalogReadAhead?,
                  _ body: (ArraySlice<Int>) throws -> Void) throws {
        let blocks = readAheadBlocks(count: indices.count).map { indices[$0] }
        // The run's own steps, and the files `catalog rebuild` recorded (a motion part takes its copy found by one).
        let steps = catalogIDs + [CatalogVerification.rebuiltStep]
        let reads = catalog.map { catalog in
            Ahead(count: blocks.count) { position in
                Result { try catalog.readStates(of: blocks[position].flatMap { entries[$0].subjects }, ofSteps: steps) }
            }
        }
        defer { reads?.stop() }
        for block in blocks {
            if let states = try reads?.next().get() { catalog?.hold(states) }
            try body(block)
        }
    }

    /// Of the files with the same content, keeps as the original the one a person would call the
    /// original (`DuplicateRanking`); the others become its duplicates. The original takes a
    /// duplicate's sidecar of a kind it has none of (a photo in a Takeout album whose year-folder
    /// copy lost its JSON), so the photo, imported once, is dated by it.
    func markDuplicates(_ entries: inout [SurveyEntry]) {
        // The files of each content seen more than once, in order (no list is made for the others).
        var first: [String: Int] = [:], byHash: [String: [Int]] = [:]
        first.reserveCapacity(entries.count)
        for index in entries.indices {
            guard case .unique(let hash, _) = entries[index].state else { continue }
            if let earlier = first[hash] { byHash[hash, default: [earlier]].append(index) } else { first[hash] = index }
        }
        for (hash, indices) in byHash {
            let original = DuplicateRanking.original(among: indices.map { entries[$0].found })
            let originalPath = entries[indices[original]].found.path
            for (position, index) in indices.enumerated() where position != original {
                entries[index].state = .duplicate(of: originalPath, hash: hash)
                let kinds = Set(entries[indices[original]].found.sidecars.map(\.kind))
                entries[indices[original]].found.sidecars += entries[index].found.sidecars.filter { !kinds.contains($0.kind) }
            }
        }
    }

    /// Why a library file that is one of an asset's outputs is not a rendition to work on: a still's
    /// motion part (a motion photo's video, a Live Photo's MOV), or nil for a real rendition (a HEIC in
    /// `Photos/`, a video in `Videos/`).
    func motionPartRendition(_ file: Discovery.Found, subject: String, catalog: CatalogStore?) -> String? {
        guard let facts = (try? catalog?.pairingFacts(contentHash: subject)) ?? nil else { return nil }
        if facts.motionOf != nil, MediaKind.isRawPhoto(file.name) {
            return "a RAW+JPEG pair's RAW in the library, kept beside its JPEG"
        }
        if facts.motionOf != nil { return "a Live Photo's video in the library, published as its still's motion part" }
        // A video made from a photo is that photo's motion part (a motion photo's video).
        if MediaKind(fileName: file.name) == .video && facts.mediaKind == .photo {
            return "a motion photo's video in the library, published as its still's motion part"
        }
        return nil
    }

    /// Which photo a file is. A file the catalog knows as one of the library's own outputs, unchanged
    /// (a HEIC in `Photos/`, read to regenerate thumbnails), is the photo it was made from: same
    /// content hash for the catalog, same `{id}`. Any other file is itself.
    func identity(of file: Discovery.Found, hash: String, catalog: CatalogStore?) -> String {
        var libraryPaths = LibraryPaths(library: settings.library, followingLinks: true)
        return libraryPaths.relativePath(of: file.path).flatMap { libraryOutput(at: $0, hash: hash, catalog: catalog) }?.subject ?? hash
    }

    /// The catalog's record of the library file at `relativePath` when it is one of the library's own
    /// outputs, unchanged (its bytes still hash to `hash`), and made for a photo or video rather than a collection.
    func libraryOutput(at relativePath: String, hash: String, catalog: CatalogStore?) -> CatalogOutput? {
        guard let catalog, let output = try? catalog.output(at: relativePath),
              output.sha256 == hash, !output.subject.hasPrefix("collection:") else { return nil }
        return output
    }
}

/// Where found files are inside the library, by their real paths: each folder's real path is
/// resolved once (an `lstat` a path component), not each file's, unless symbolic links are followed
/// (then a file may be a link to anywhere, and each is resolved).
struct LibraryPaths {
    private let library: String
    private let followingLinks: Bool
    private var realFolders: [String: String] = [:]

    init(library: URL, followingLinks: Bool) {
        self.library = library.resolvingSymlinksInPath().path + "/"
        self.followingLinks = followingLinks
    }

    /// The library-relative path of the file at `path` (absolute), or nil when it is not inside the library.
    mutating func relativePath(of path: String) -> String? {
        let real: String
        if followingLinks {
            real = URL(fileURLWithPath: path, isDirectory: false).resolvingSymlinksInPath().path
        } else {
            // By bytes, as `Discovery.Found.name`: asked of every file of a run.
            let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) ?? path.startIndex
            let folder = String(path[..<slash])
            let realFolder = realFolders[folder] ?? URL(fileURLWithPath: folder.isEmpty ? "/" : folder, isDirectory: true).resolvingSymlinksInPath().path
            realFolders[folder] = realFolder
            // The name with the slash before it.
            real = (realFolder.hasSuffix("/") ? String(realFolder.dropLast()) : realFolder) + path[slash...]
        }
        guard real.utf8.starts(with: library.utf8) else { return nil }
        return String(real[real.utf8.index(real.startIndex, offsetBy: library.utf8.count)...])
    }
}
