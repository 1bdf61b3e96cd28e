import Foundation
import DarkroomModel
import DarkroomOptions

/// Walks input folders: include/exclude globs, a deterministic order (sorted by path), symbolic
/// links reported rather than followed (unless asked, and then without looping). Every regular file
/// under the inputs is either found or passed over with its reason: nothing is left out silently.
public struct Discovery: Sendable {
    /// A file found under an input folder.
    public struct Found: Sendable, Hashable {
        /// Its absolute path. A run holds every file it found at once: a path, where a `URL` would
        /// be an object of some 220 bytes more a file (22 MB a run of 100,000).
        public var path: String
        /// Path below its input folder, `/`-separated.
        public var relativePath: String
        public var size: Int64
        public var modificationDate: Date
        /// Modification time in nanoseconds since 1970, for change detection.
        public var modificationNanoseconds: Int64
        public var inode: UInt64
        /// Its sidecars (Takeout JSON, XMP), when the pipeline reads them.
        public var sidecars: [AttachedSidecar] = []

        /// The file found at `path`.
        public init(path: String, relativePath: String, size: Int64, modificationDate: Date, modificationNanoseconds: Int64,
                    inode: UInt64, sidecars: [AttachedSidecar] = []) {
            self.path = path
            self.relativePath = relativePath
            self.size = size
            self.modificationDate = modificationDate
            self.modificationNanoseconds = modificationNanoseconds
            self.inode = inode
            self.sidecars = sidecars
        }

        /// The file found at `url`.
        public init(url: URL, relativePath: String, size: Int64, modificationDate: Date, modificationNanoseconds: Int64,
                    inode: UInt64, sidecars: [AttachedSidecar] = []) {
            self.init(path: url.path, relativePath: relativePath, size: size, modificationDate: modificationDate,
                      modificationNanoseconds: modificationNanoseconds, inode: inode, sidecars: sidecars)
        }

        /// Its URL, made when asked.
        public var url: URL { URL(fileURLWithPath: path, isDirectory: false) }

        /// Its name, without its folder.
        public var name: String { Discovery.name(ofPath: path) }
    }

    /// The name of the file at `path`, without its folder.
    public static func name(ofPath path: String) -> String {
        // By bytes: a search by characters (grapheme breaking) showed in profiles of 100,000-file runs.
        let bytes = path.utf8
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[bytes.index(after: slash)...])
    }

    /// Something passed over, with the reason (a video in a photo pipeline, an edit sidecar, a hidden
    /// file, a symbolic link, an unreadable folder).
    public struct Skipped: Sendable, Hashable {
        public var path: String
        public var reason: String
        /// What it is, for counting in a summary: a singular noun phrase whose last word takes an
        /// `s` in the plural (`.AAE edit sidecar`, `hidden file`, `.mov video`).
        public var kind: String

        /// Whether it is a file (not a missing input or an unreadable folder): files count as found.
        public var isFile: Bool { kind != "missing input" && kind != "unreadable folder" }
    }

    public let spec: InputSpec
    /// Folders never entered (the library itself, when it lies inside an input folder).
    public let avoiding: [URL]
    /// The kinds of media the pipeline's steps take; a file of another kind is passed over.
    public let takes: Set<MediaKind>
    /// Matches sidecars to the inputs of each folder (nil: sidecars are passed over like any other file).
    public let sidecars: (any SidecarMatcher)?
    private let include: [Glob]
    private let exclude: [Glob]

    public init(spec: InputSpec, avoiding: [URL] = [], takes: Set<MediaKind> = [.photo], sidecars: (any SidecarMatcher)? = nil) {
        self.spec = spec
        self.avoiding = avoiding.map { $0.standardizedFileURL.resolvingSymlinksInPath() }
        self.takes = takes
        self.sidecars = sidecars
        include = spec.include.compactMap(Glob.init)
        exclude = spec.exclude.compactMap(Glob.init)
    }

    /// Every matching regular file under `folders` (a folder given twice is walked once).
    public func files(in folders: [URL]) -> (found: [Found], skipped: [Skipped]) {
        if folders.count > 1, let separate = separateWalks(of: folders) { return (separate.found, separate.skipped) }
        if folders.count == 1, let separate = subfolderWalks(of: folders[0]) { return (separate.found, separate.skipped) }
        var walked = Walked()
        for folder in folders { walk(input: folder, into: &walked) }
        return (walked.found, walked.skipped)
    }

    /// What walking input folders found, and the files and folders it went through.
    private struct Walked: Sendable {
        var found: [Found] = []
        var skipped: [Skipped] = []
        var seen = Set<String>()
        var visited = Set<FileID>()

        /// Takes in the files and folders that `walks`, made each on its own, went through: false
        /// when two of them (or one and this) went through the same one.
        mutating func join(_ walks: [Walked]) -> Bool {
            for walked in walks {
                guard seen.isDisjoint(with: walked.seen), visited.isDisjoint(with: walked.visited) else { return false }
                seen.formUnion(walked.seen)
                visited.formUnion(walked.visited)
            }
            return true
        }
    }

    /// The input folders walked each on its own, on every core: what they found, in the order of
    /// the folders, when no two of them went through the same file or folder (then walking them one
    /// after the other finds the same); nil when two did, for the folders to be walked again one after
    /// the other, each file and folder once.
    private func separateWalks(of folders: [URL]) -> Walked? {
        let walks = DarkroomThreads.map(count: folders.count, jobs: ProcessInfo.processInfo.activeProcessorCount) { index in
            var walked = Walked()
            self.walk(input: folders[index], into: &walked)
            return walked
        }
        var all = Walked()
        guard all.join(walks) else { return nil }
        all.found = walks.flatMap(\.found)
        all.skipped = walks.flatMap(\.skipped)
        return all
    }

    /// One input folder (a camera roll of 100,000 files in year and month folders) listed once, and
    /// each of its subfolders walked on its own, on every core: what walking it one folder after the
    /// other finds, in the same order; nil when it is not a folder, or when two of its subfolders went
    /// through the same file or folder (a symbolic link followed), for it to be walked one folder after
    /// the other.
    private func subfolderWalks(of input: URL) -> Walked? {
        let root = input.standardizedFileURL
        guard let info = FileInfo(path: root.path), info.isDirectory else { return nil }
        var top = Walked()
        guard let listing = listing(of: root, relative: "", passingOver: nil, skipped: &top.skipped, seen: &top.seen,
                                    visited: &top.visited) else { return top }
        let folders = listing.entries.compactMap { entry -> (url: URL, path: String, reason: Skipped?)? in
            guard case .folder(let url, let path, let reason) = entry else { return nil }
            return (url, path, reason)
        }
        let rootVisited = top.visited
        let walks = DarkroomThreads.map(count: folders.count, jobs: ProcessInfo.processInfo.activeProcessorCount) { index in
            // Each walk knows the input folder, so that a link back to it is not walked again.
            var walked = Walked(visited: rootVisited)
            self.walk(folders[index].url, relative: folders[index].path, passingOver: folders[index].reason, into: &walked.found,
                      skipped: &walked.skipped, seen: &walked.seen, visited: &walked.visited)
            walked.visited.subtract(rootVisited)
            return walked
        }
        guard top.join(walks) else { return nil }
        var walksInOrder = walks.makeIterator()
        for entry in listing.entries {
            switch entry {
            case .folder:
                guard let walked = walksInOrder.next() else { continue }
                top.found += walked.found
                top.skipped += walked.skipped
            case .input(let file): top.found.append(file)
            case .passedOver(let reason): top.skipped.append(reason)
            }
        }
        return top
    }

    /// Walks one input: a folder, or a single file given as input.
    private func walk(input folder: URL, into walked: inout Walked) {
        let root = folder.standardizedFileURL
        guard let info = FileInfo(path: root.path) else {
            walked.skipped.append(Skipped(path: root.path, reason: "input folder does not exist", kind: "missing input"))
            return
        }
        if info.isRegularFile {
            if walked.seen.insert(root.path).inserted {
                walked.found.append(Found(url: root, relativePath: root.lastPathComponent, size: info.size,
                                          modificationDate: info.modificationDate,
                                          modificationNanoseconds: info.modificationNanoseconds, inode: info.id.inode,
                                          sidecars: sidecars(ofFile: root)))
            }
            return
        }
        walk(root, relative: "", passingOver: nil, into: &walked.found, skipped: &walked.skipped, seen: &walked.seen,
             visited: &walked.visited)
    }

    /// Walks one folder. In a folder the globs exclude (`passingOver` holds why), every file is
    /// passed over with that reason. Sidecars matched to an input of this folder are attached to it
    /// (`Found.sidecars`) rather than passed over.
    private func walk(_ directory: URL, relative: String, passingOver folderReason: Skipped?, into found: inout [Found],
                      skipped: inout [Skipped], seen: inout Set<String>, visited: inout Set<FileID>) {
        guard let listing = listing(of: directory, relative: relative, passingOver: folderReason, skipped: &skipped, seen: &seen,
                                    visited: &visited) else { return }
        for entry in listing.entries {
            switch entry {
            case .folder(let url, let path, let reason):
                walk(url, relative: path, passingOver: reason, into: &found, skipped: &skipped, seen: &seen, visited: &visited)
            case .input(let file):
                found.append(file)
            case .passedOver(let reason):
                skipped.append(reason)
            }
        }
    }
}

extension Discovery {
    /// One folder's entries, each decided; nil for a folder not to walk (the library, one walked
    /// already) or one that cannot be listed (passed over in `skipped`).
    fileprivate func listing(of directory: URL, relative: String, passingOver folderReason: Skipped?, skipped: inout [Skipped],
                             seen: inout Set<String>, visited: inout Set<FileID>) -> FolderListing? {
        if avoiding.contains(where: { $0.path == directory.resolvingSymlinksInPath().path }) { return nil }
        if let info = FileInfo(path: directory.path, followLinks: true), !visited.insert(info.id).inserted { return nil }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        } catch {
            skipped.append(Skipped(path: directory.path, reason: "cannot list folder: \(error.localizedDescription)", kind: "unreadable folder"))
            return nil
        }
        return FolderListing(names: names, directory: directory, relative: relative, discovery: self, passingOver: folderReason, seen: &seen)
    }
}

/// One folder's entries, in name order, each decided: a folder to walk, an input (with its
/// sidecars), or a file passed over with its reason. Sidecars are matched once per folder.
private struct FolderListing {
    enum Entry {
        case folder(URL, path: String, passingOver: Discovery.Skipped?)
        case input(Discovery.Found)
        case passedOver(Discovery.Skipped)
    }

    private(set) var entries: [Entry] = []

    init(names: [String], directory: URL, relative: String, discovery: Discovery, passingOver folderReason: Discovery.Skipped?,
         seen: inout Set<String>) {
        // Made when first needed: only a passed-over edit or XMP sidecar's reason names a sibling.
        var siblings: Siblings?
        let namesIndexed = { () -> Siblings in
            if siblings == nil { siblings = Siblings(names) }
            return siblings!
        }
        // Files passed over by the generic rules, by name: candidates for being some input's sidecar.
        var passedOverFiles: [String: (url: URL, info: FileInfo, skipped: Discovery.Skipped)] = [:]
        var inputNames: [String] = []
        // Each file's path is the folder's and its name (the path of its URL, not worked out from it again).
        let folderPath = directory.path
        let folderPrefix = folderPath.hasSuffix("/") ? folderPath : folderPath + "/"
        for name in names {
            let filePath = folderPrefix + name
            let path = relative.isEmpty ? name : relative + "/" + name
            guard var info = FileInfo(path: filePath) else { continue }
            if info.isSymlink {
                guard discovery.spec.followSymlinks, let target = FileInfo(path: filePath, followLinks: true) else {
                    entries.append(.passedOver(.init(path: filePath, reason: "symbolic link not followed", kind: "symbolic link")))
                    continue
                }
                info = target
            }
            if info.isDirectory {
                entries.append(.folder(directory.appendingPathComponent(name, isDirectory: true), path: path,
                                       passingOver: folderReason ?? discovery.reasonToPassOver(folder: name, path: path)))
            } else if info.isRegularFile, seen.insert(filePath).inserted {
                if let folderReason {
                    entries.append(.passedOver(.init(path: filePath, reason: folderReason.reason, kind: folderReason.kind)))
                } else if let passedOver = discovery.passedOver(name: name, path: path, siblings: namesIndexed) {
                    let skipped = Discovery.Skipped(path: filePath, reason: passedOver.reason, kind: passedOver.kind)
                    passedOverFiles[name] = (directory.appendingPathComponent(name, isDirectory: false), info, skipped)
                    entries.append(.passedOver(skipped))
                } else {
                    inputNames.append(name)
                    entries.append(.input(Discovery.Found(path: filePath, relativePath: path, size: info.size, modificationDate: info.modificationDate,
                                                          modificationNanoseconds: info.modificationNanoseconds, inode: info.id.inode)))
                }
            }
        }
        guard folderReason == nil, let matcher = discovery.sidecars else { return }
        let index = matcher.index(folder: names)
        // A sidecar the globs exclude (a hidden file) stays passed over as such.
        let excluded = { (name: String) in discovery.isExcluded(relative.isEmpty ? name : relative + "/" + name) }
        var attached: [String: [AttachedSidecar]] = [:]
        var claimed = Set<String>()
        for name in inputNames {
            for match in index.sidecars(of: name) {
                guard let file = passedOverFiles[match.name], !excluded(match.name) else { continue }
                attached[name, default: []].append(AttachedSidecar(url: file.url, kind: match.kind, reason: match.reason, info: file.info))
                claimed.insert(match.name)
            }
        }
        entries = entries.compactMap { entry in
            switch entry {
            case .input(var file):
                file.sidecars = attached[file.name] ?? []
                return .input(file)
            case .passedOver(let skipped):
                let name = (skipped.path as NSString).lastPathComponent
                guard let file = passedOverFiles[name], file.skipped == skipped else { return entry }
                if claimed.contains(name) { return nil }
                guard !excluded(name), let role = index.passedOver(name) else { return entry }
                return .passedOver(.init(path: skipped.path, reason: role.reason, kind: role.kind))
            case .folder:
                return entry
            }
        }
    }
}

extension Discovery {
    /// The sidecars beside a file given on its own (an input that is a file, `darkroom explain`),
    /// matched among the names of its folder; none without a matcher or when the folder cannot be listed.
    public func sidecars(ofFile url: URL) -> [AttachedSidecar] {
        let folder = url.deletingLastPathComponent()
        guard let sidecars, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return sidecars.index(folder: names.sorted()).sidecars(of: url.lastPathComponent).compactMap { match in
            let sidecar = folder.appendingPathComponent(match.name)
            guard !match.name.hasPrefix("."), let info = FileInfo(path: sidecar.path), info.isRegularFile else { return nil }
            return AttachedSidecar(url: sidecar, kind: match.kind, reason: match.reason, info: info)
        }
    }

    /// Why every file of the folder `name` (at `path`) is passed over, when the globs exclude it.
    func reasonToPassOver(folder name: String, path: String) -> Skipped? {
        guard isExcluded(path) || exclude.contains(where: { $0.matches(path + "/_") }) else { return nil }
        return name.hasPrefix(".") ? Skipped(path: "", reason: "in the hidden folder \(path)", kind: "hidden file")
                                   : Skipped(path: "", reason: "in \(path), which the pipeline's globs exclude", kind: "excluded file")
    }

    /// Why a run of this pipeline would pass over the file at `url` given as an input of its own (a
    /// file of a kind no step takes, a sidecar, a RAW Debian's LibRaw cannot decode), or nil when it
    /// would be an input: what `explain` says instead of a decision.
    public func reasonToPassOver(file url: URL) -> String? {
        let name = url.lastPathComponent
        let folder = url.deletingLastPathComponent().path
        return passedOver(name: name, path: name, siblings: {
            Siblings((try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted() ?? [])
        })?.reason
    }

    /// Whether the exclude globs drop `path`.
    func isExcluded(_ path: String) -> Bool { exclude.contains { $0.matches(path) } }

    /// Why a file is not an input of this pipeline (nil when it is): hidden, excluded by the globs, or
    /// outside the include globs, said by what it is (a video, an edit sidecar, a RAW photo...).
    func passedOver(name: String, path: String, siblings: () -> Siblings) -> (reason: String, kind: String)? {
        if exclude.contains(where: { $0.matches(path) }) {
            return name.hasPrefix(".") ? ("hidden file", "hidden file") : ("excluded by the pipeline's globs", "excluded file")
        }
        let kind = MediaKind(fileName: name)
        let taken = takes.contains(kind)
        // The extension is worked out only for a file passed over (not for each of 100,000 inputs).
        if include.contains(where: { $0.matches(path) }) {
            if taken { return nil }
            let ext = (name as NSString).pathExtension
            return ("\(kind) (.\(ext)): no step of this pipeline takes \(kind.plural)", ".\(ext.lowercased()) \(kind)")
        }
        let ext = (name as NSString).pathExtension
        let stem = (name as NSString).deletingPathExtension
        func sibling() -> String? {
            // `IMG_1.AAE` for `IMG_1.HEIC`, and both `photo.jpg.xmp` and `photo.xmp` for `photo.jpg`;
            // a photo this pipeline takes first.
            let candidates = siblings().named(stem).filter { $0 != name }
            let folder = (path as NSString).deletingLastPathComponent
            let taken = candidates.first { candidate in
                include.contains { $0.matches(folder.isEmpty ? candidate : folder + "/" + candidate) }
            }
            return taken ?? candidates.first
        }
        switch ext.lowercased() {
        case _ where kind == .video:
            return (taken ? "video (.\(ext)): not in the pipeline's include globs" : "video (.\(ext)): this pipeline takes photos only",
                    ".\(ext.lowercased()) video")
        case "aae":
            return ("Apple edit sidecar (.\(ext))" + (sibling().map { " of \($0)" } ?? ""), ".AAE edit sidecar")
        case "xmp":
            return ("XMP sidecar" + (sibling().map { " of \($0)" } ?? ""), ".xmp sidecar")
        case _ where MediaKind.undecodedRawPhotoExtensions.contains(ext.lowercased()):
            return ("Sigma X3F RAW photo (.\(ext)): not read (Debian 12's LibRaw 0.20 is built without X3F)", ".\(ext.lowercased()) RAW photo")
        case _ where MediaKind.rawPhotoExtensions.contains(ext.lowercased()):
            return ("RAW photo (.\(ext)): not in the pipeline's include globs", ".\(ext.lowercased()) RAW photo")
        case "jxl":
            // LoaderPolicy.photoLibrary blocks libvips 8.14's JPEG XL loader (docs/runtime.md says why).
            return ("JPEG XL photo (.\(ext)): not read (libvips 8.14 marks its JPEG XL loader, libjxl 0.7, untrusted)",
                    ".\(ext.lowercased()) JPEG XL photo")
        case "":
            return ("not a photo or video: no extension", "extensionless file")
        default:
            return ("not a photo or video: .\(ext)", ".\(ext.lowercased()) file")
        }
    }
}

/// The names in one folder, indexed so a sidecar finds its photo without scanning the folder again
/// (an iPhone export can hold thousands of `.AAE` files beside their photos).
struct Siblings {
    private var byKey: [String: [String]] = [:]

    init(_ names: [String]) {
        for name in names {
            let full = name.lowercased()
            let stem = (full as NSString).deletingPathExtension
            byKey[full, default: []].append(name)
            if stem != full { byKey[stem, default: []].append(name) }
        }
    }

    /// The names that are `stem` (`photo.jpg` for `photo.jpg.xmp`) or whose name without its
    /// extension is `stem` (`IMG_1.HEIC` for `IMG_1.AAE`), ignoring case, in folder order.
    func named(_ stem: String) -> [String] { byKey[stem.lowercased()] ?? [] }
}
