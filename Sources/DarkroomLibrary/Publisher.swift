import Foundation
import Synchronization
import DarkroomModel

/// Puts finished files into the library so that a crash never leaves a partial one.
///
/// A photo's outputs are first *staged*: written to temp files under `.darkroom/tmp`. Only when every
/// step of the photo has succeeded are they *published* together: the temp files are fsynced, their
/// paths noted in the catalog's journal (one transaction), each is linked into place without replacing
/// anything (or renamed over an older output of the same photo, or of the same step whose source
/// changed, whose old bytes are kept aside until the catalog records the new file), and the folders
/// are fsynced. A failed photo leaves the library as it was.
package final class Publisher: Sendable {
    package let library: URL
    package let catalog: CatalogStore?
    package let run: Int64
    package let temporaryFolder: URL
    /// Library-relative paths published this run (two photos may not claim one path).
    private let publishedThisRun = Mutex(Set<String>())

    /// A complete temp file waiting to be published (and fsynced then).
    package struct Staged {
        package var relativePath: String
        package var step: String
        package var owner: String
        /// The original file of the photo (nil for a collection's outputs).
        package var source: String?
        /// The id the photo's files are named with (`{id}`): its own, or a Live Photo video's
        /// still's; nil for a collection's outputs.
        package var pathID: UUID?
        package var temp: URL
        package var size: Int64
        package var digest: String
    }

    /// A publisher staging its temp files in `temporaryFolder` (inside the library's `.darkroom`, so
    /// that publishing is a rename on one filesystem).
    package init(library: URL, catalog: CatalogStore?, run: Int64, temporaryFolder: URL) throws {
        self.library = library
        self.catalog = catalog
        self.run = run
        self.temporaryFolder = temporaryFolder
        try FileManager.default.createDirectory(at: temporaryFolder, withIntermediateDirectories: true)
    }

    /// Where temp files of all processes go: `.darkroom/tmp`.
    package static func sharedTemporaryFolder(library: URL) -> URL {
        library.appendingPathComponent(".darkroom/tmp", isDirectory: true)
    }

    /// Removes every temp file and folder crashed runs left behind, and old bytes kept aside whose
    /// replacement was recorded (recovery has put back those whose replacement was not). Only for a
    /// run holding the library's exclusive lock: no other process can be publishing then.
    package static func removeLeftovers(library: URL) {
        let folder = sharedTemporaryFolder(library: library)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        try? FileManager.default.removeItem(at: library.appendingPathComponent(LibraryFiles.keptAsideFolder))
    }

    /// A temp folder of this process's own, `.darkroom/tmp/<host>-<pid>`, for processes that share the
    /// library (shards, queue workers). Folders of dead processes on this host are removed first;
    /// those of other hosts are left to their own host or to the next single-machine run.
    package static func processTemporaryFolder(library: URL) throws -> URL {
        let folder = sharedTemporaryFolder(library: library)
        let host = ProcessInfo.processInfo.hostName
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(host + "-") {
            if let pid = Int32(name.dropFirst(host.count + 1)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
        let own = folder.appendingPathComponent("\(host)-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        return own
    }

    /// Writes one output to a temp file (via `write`), made durable when it is published (so that a
    /// photo's steps never wait on the disk); `owner` is the catalog subject it belongs to (a photo's
    /// content hash, or a collection step's subject), `source` the photo's file.
    package func stage(_ relativePath: String, step: String, owner: String, source: String? = nil, pathID: UUID? = nil,
               write: (URL) throws -> Void) throws -> Staged {
        _ = try Publisher.checkedComponents(relativePath)
        let ext = (relativePath as NSString).pathExtension
        let temp = temporaryFolder.appendingPathComponent(UUID().uuidString + (ext.isEmpty ? "" : "." + ext))
        do {
            try write(temp)
            guard let info = FileInfo(path: temp.path), info.isRegularFile, info.size > 0 else {
                throw StageError("\(step) produced no data for \(relativePath)")
            }
            return Staged(relativePath: relativePath, step: step, owner: owner, source: source, pathID: pathID, temp: temp, size: info.size,
                          digest: try ContentHash.ofFile(temp))
        } catch {
            unlink(temp.path)
            throw error
        }
    }

    /// The outputs of one subject, staged and published together (see `Publication`).
    package func publication(subject: String, source: String?, pathID: UUID? = nil) -> Publication {
        Publication(publisher: self, subject: subject, source: source, pathID: pathID)
    }

    /// Whether the library already holds exactly `file`'s bytes at its path: the catalog records that
    /// path as an output of the same subject and step (or of the collection step a group of it
    /// belongs to: `<step>#<group>`, a file the step made before it made groups) with the same size
    /// and SHA-256, and the file on disk (a regular file, not a link) has them too. Such a file need
    /// not be written again.
    package func holdsUnchanged(_ file: Staged) -> Bool {
        guard let known = (try? catalog?.output(at: file.relativePath)) ?? nil, known.subject == file.owner,
              known.step == file.step || file.step.hasPrefix(known.step + "#"),
              known.size == file.size, known.sha256 == file.digest else { return false }
        let url = library.appendingPathComponent(file.relativePath)
        guard let info = FileInfo(path: url.path), info.isRegularFile, info.size == file.size else { return false }
        return (try? ContentHash.ofFile(url)) == file.digest
    }

    /// Drops staged files (their photo failed).
    package func discard(_ staged: [Staged]) {
        for file in staged { unlink(file.temp.path) }
    }

    /// What `publish` put in the library: the outputs, and those of their paths whose older file
    /// it replaced (its old bytes kept aside until the catalog records the new one).
    package struct Published {
        package var outputs: [PublishedOutput]
        package var replaced: [String]
    }

    /// Publishes staged files together: their temp files are fsynced; the new paths and the places of
    /// replaced files' old bytes are journalled (one transaction); each replaced file is linked aside
    /// (`LibraryFiles.keptAsidePath`) and made durable, then renamed over; each new path is linked
    /// into place; then every folder with a new entry is fsynced (each file's folder, and the parent
    /// of each folder made). On failure the library is put back as it was (new files and folders
    /// removed, replaced files' old bytes back), every temp file is removed, and the error is thrown.
    package func publish(_ staged: [Staged]) throws -> Published {
        defer { discard(staged) }
        guard !staged.isEmpty else { return Published(outputs: [], replaced: []) }
        var changes = PublishedChanges()
        var replaced: [String] = []
        do {
            for file in staged { try Publisher.fsync(path: file.temp.path) }
            var targets: [(file: Staged, final: URL, replacing: Bool)] = []
            for file in staged {
                let components = try Publisher.checkedComponents(file.relativePath)
                let folder = try PublishedChanges.makeFolders(components.dropLast(), under: library, noting: &changes.madeFolders)
                let final = folder.appendingPathComponent(components.last!)
                if let existing = FileInfo(path: final.path) {
                    guard !existing.isSymlink else { throw StageError("refusing to write through the symbolic link \(final.path)") }
                    try checkReplaceable(file)
                    targets.append((file, final, true))
                } else {
                    targets.append((file, final, false))
                }
            }
            try catalog?.markPending(targets.map { $0.replacing ? LibraryFiles.keptAsidePath(of: $0.file.relativePath) : $0.file.relativePath },
                                     run: run)
            // Noted before a file appears: another photo of this run that finds it before this one's
            // commit records it is told the two map to one path, not that Darkroom did not make it.
            // A path another photo claimed since this one found it free is refused here, before either
            // links it: only the first claim places a file.
            let claimedByAnother = publishedThisRun.withLock { claimed in
                defer { claimed.formUnion(staged.map(\.relativePath)) }
                return targets.first { !$0.replacing && claimed.contains($0.file.relativePath) }
            }
            if let taken = claimedByAnother { throw StageError.sharedOutputPath(taken.file.relativePath, thisRun: true) }
            for target in targets {
                // New paths are linked (never replacing a file that appeared meanwhile); an older
                // output of the same photo or step is replaced atomically, its bytes kept aside.
                if target.replacing {
                    try changes.keepAside(target.file.relativePath, library: library)
                    guard rename(target.file.temp.path, target.final.path) == 0 else {
                        throw SystemCallError.last("cannot replace \(target.file.relativePath)")
                    }
                    changes.replaced(target.file.relativePath)
                    replaced.append(target.file.relativePath)
                } else {
                    guard link(target.file.temp.path, target.final.path) == 0 else {
                        throw SystemCallError.last("cannot publish \(target.file.relativePath)")
                    }
                    changes.linked.append(target.final)
                }
                try FaultInjection.pass(.placed(target.file.relativePath))
            }
            for folder in changes.foldersToSync(placed: targets.map(\.final)) { try Publisher.fsync(path: folder) }
        } catch {
            changes.undo(library: library)
            throw error
        }
        return Published(outputs: staged.map { PublishedOutput(step: $0.step, path: $0.relativePath, size: $0.size, sha256: $0.digest) },
                         replaced: replaced)
    }

    /// An existing file may be replaced only when Darkroom made it from the same source: for the
    /// same photo, or by the same step from the same original file (edited since), and not earlier
    /// in this run. Another photo never takes a path: its own work would count as done without it.
    private func checkReplaceable(_ file: Staged) throws {
        let relativePath = file.relativePath
        // A path that carries this photo's id (its own, or for a Live Photo's video its still's) can
        // only have been made by Darkroom from this photo.
        let namedForThis = file.pathID.map { relativePath.contains($0.uuidString.lowercased()) } ?? false
        guard let known = try catalog?.output(at: relativePath) else {
            // Not in the catalog (a lost catalog being rebuilt by a re-run).
            if namedForThis { return }
            if publishedThisRun.withLock({ $0.contains(relativePath) }) { throw StageError.sharedOutputPath(relativePath, thisRun: true) }
            throw StageError("\(relativePath) already exists in the library and was not made by Darkroom; left untouched",
                             kind: .outputPathTaken)
        }
        if publishedThisRun.withLock({ $0.contains(relativePath) }) { throw StageError.sharedOutputPath(relativePath, thisRun: true) }
        if known.subject == file.owner { return }
        // Recorded by `catalog rebuild` (which knows files only by the id in their names) and adopted
        // by the still: a Live Photo video named with that id takes its own file back.
        if known.step == CatalogVerification.rebuiltStep && namedForThis { return }
        let sameOriginal = file.source != nil && known.sourcePath == file.source
        if known.step == file.step && sameOriginal { return }
        throw StageError.sharedOutputPath(relativePath, thisRun: false, other: known.sourcePath)
    }



    /// A library-relative path split into components, refusing anything that could leave the library.
    package static func checkedComponents(_ relativePath: String) throws -> [String] {
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !relativePath.hasPrefix("/"), !components.isEmpty,
              !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." || $0.contains("\0") }),
              components.first != ".darkroom" else {
            throw StageError("output path '\(relativePath)' would leave the library or enter its .darkroom folder")
        }
        return components
    }

    /// Makes a file's bytes or a folder's entries durable (an injected fault may fail it: `FaultPoint.syncing`).
    package static func fsync(path: String) throws {
        try FaultInjection.pass(.syncing(path))
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw SystemCallError.last("cannot open \(path) to sync") }
        defer { close(fd) }
        guard Foundation.fsync(fd) == 0 else { throw SystemCallError.last("cannot sync \(path)") }
    }


}

extension StageError {
    /// Two inputs whose outputs would land on one path.
    package static func sharedOutputPath(_ path: String, thisRun: Bool, other: String? = nil) -> StageError {
        StageError("\(path) is already the output of another photo\(thisRun ? " in this run" : other.map { " (\($0))" } ?? ""); "
                   + "two inputs map to the same output path (add {id} or {ext} to the template)", kind: .outputPathTaken)
    }
}
