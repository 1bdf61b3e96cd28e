import DarkroomLibrary
import DarkroomModel
import DarkroomReport
import Foundation

/// Puts back into the library what `--move-to` moved into a folder (`--move-back`): each file the
/// folder's manifest lists goes back to its library path through the library's `Publisher` and is
/// recorded in the catalog as it was (path, step, subject, size, SHA-256), so that `darkroom catalog
/// verify` is clean, a re-import finds the work done and `darkroom duplicates` shows the photo's
/// files again. A file is never written over another one.
///
/// For each photo (each catalog subject), crash-safe at every moment:
///
///     check ──▶ stage ──▶ publish ──▶ commit ──▶ remove from the folder ──▶ unlist
///
/// staged and published as a run's outputs are (temp file in `.darkroom/tmp`, fsynced, SHA-256
/// checked; path journalled, linked into place without replacing anything, folders fsynced), then
/// recorded in one transaction. Killed before the commit, recovery removes the journalled files and
/// the folder still holds and lists them; killed after it, the next move-back finds them in the
/// library as recorded and only removes the folder's copies.
public struct DuplicateRestorer {
    /// What became of one listed file.
    public enum Result: Sendable, Equatable {
        /// Back in the library and recorded (or already there: the folder's copy removed).
        case restored
        /// Left where it is, for a reason that is no fault (the library holds another file there).
        case skipped(String)
        /// Left where it is: something is wrong with the file (missing, changed, unwritable).
        case failed(String)
    }

    /// One file and what became of it.
    public struct File: Sendable {
        /// Its library-relative path.
        public var path: String
        /// Its photo's original (nil for a file the manifest does not list).
        public var original: String?
        public var result: Result

        /// The path, and the photo's original when known.
        var named: String { original.map { "\(path) (of \($0))" } ?? path }
    }

    /// What a move-back did.
    public struct Outcome: Sendable {
        /// Every file the manifest listed, and files in the folder it did not list (skipped).
        public var files: [File] = []

        /// Whether any file failed (the command exits 1).
        public var hasFailures: Bool { files.contains { if case .failed = $0.result { true } else { false } } }

        /// Lines for a terminal: the photos whose files were moved back, each file skipped or failed
        /// and why, and the counts.
        public func lines(folder: URL) -> [String] {
            guard !files.isEmpty else { return ["nothing to move back: \(folder.path) lists no moved files (\(MoveManifest.fileName))"] }
            let restored = files.filter { $0.result == .restored }
            var lines = Dictionary(grouping: restored, by: { $0.original ?? "" }).sorted { $0.key < $1.key }.flatMap { group in
                ["moved \(group.key)'s library files back from \(folder.path):"] + group.value.map { "  \($0.path)" }.sorted()
            }
            var skipped = 0, failed = 0
            for file in files {
                switch file.result {
                case .restored: continue
                case .skipped(let reason): skipped += 1; lines.append("skipped \(file.named): \(reason)")
                case .failed(let reason): failed += 1; lines.append("failed \(file.named): \(reason)")
                }
            }
            return lines + ["\(restored.count) \(restored.count == 1 ? "file" : "files") moved back, \(skipped) skipped, \(failed) failed"]
        }
    }

    /// The library the files go back to.
    public let library: URL
    /// The folder `--move-to` moved them to.
    public let folder: URL
    let catalog: any CatalogStore

    /// A restorer into `library` (held exclusively by the caller, and recovered) from `folder`
    /// (which must exist, outside the library).
    public init(library: URL, folder: URL, catalog: any CatalogStore) throws {
        self.library = library.standardizedFileURL
        self.folder = folder.standardizedFileURL
        self.catalog = catalog
        try DuplicateMover.refuseInside(self.folder, library: self.library, option: "--move-back", give: "the folder --move-to moved files to")
        guard FileInfo(path: self.folder.path)?.isDirectory == true else { throw RunError("--move-back \(self.folder.path): no such folder") }
    }

    /// Moves back every file the folder's manifest lists, one photo at a time; then removes the
    /// folder's copies of the files now in the library and unlists them.
    public func restore() throws -> Outcome {
        let manifest = try MoveManifest.read(in: folder)
        let listed = Set(manifest.files.map(\.path))
        var outcome = Outcome()
        outcome.files = CatalogVerification.libraryFiles(folder).filter { !listed.contains($0) && !isManifest($0) }.map {
            File(path: $0, original: nil, result: .skipped("not in \(MoveManifest.fileName) (not moved there by this Darkroom): left here"))
        }
        guard !manifest.files.isEmpty else { return outcome }

        let run = try catalog.beginRun(pipeline: "duplicates --move-back")
        let publisher = try Publisher(library: library, catalog: catalog, run: run, temporaryFolder: Publisher.sharedTemporaryFolder(library: library))
        let subjects = Array(Set(manifest.files.map(\.subject)))
        let known = Set(try catalog.assets(contentHashes: subjects).map(\.contentHash))
        let states = try catalog.states(of: subjects)
        let recorded = Dictionary(try catalog.outputs(atPaths: Array(listed)).map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        var results: [String: Result] = [:]
        for (subject, entries) in Dictionary(grouping: manifest.files, by: \.subject).sorted(by: { $0.key < $1.key }) {
            var plan = Plan()
            for entry in entries {
                switch check(entry, known: known.contains(subject), state: states[subject], recorded: recorded[entry.path]) {
                case .publish: plan.publish.append(entry)
                case .record: plan.record.append(entry)
                case .back: results[entry.path] = .restored
                case .leave(let result): results[entry.path] = result
                }
            }
            for (path, result) in put(plan, subject: subject, publisher: publisher) { results[path] = result }
        }

        let back = Set(results.filter { $0.value == .restored }.keys)
        for path in back.sorted() { removeCopy(path) }
        try manifest.removing(back).write(in: folder)
        outcome.files = manifest.files.map { File(path: $0.path, original: $0.original, result: results[$0.path] ?? .failed("not looked at")) }
            + outcome.files

        var record = RunReport(pipeline: "duplicates --move-back", library: library.path)
        record.processed = back.count
        let failures = outcome.files.compactMap { file -> RunReport.Failure? in
            guard case .failed(let reason) = file.result else { return nil }
            return RunReport.Failure(path: file.path, step: "move-back", reason: reason)
        }
        record.failed = failures.count
        record.failures = failures
        try catalog.finishRun(run, report: record)
        return outcome
    }

    /// What to do with one listed file.
    enum Decision {
        /// Publish the folder's copy into the library and record it.
        case publish
        /// Record the identical file the library already holds there (copied back by hand).
        case record
        /// Already back and recorded: only the folder's copy is to go.
        case back
        /// Leave it where it is.
        case leave(Result)
    }

    /// One photo's files to publish, and those to record as the library holds them.
    struct Plan {
        var publish: [MoveManifest.Entry] = []
        var record: [MoveManifest.Entry] = []
    }

    /// Decides what becomes of `entry`, from the catalog (does it know the photo, does the step's
    /// unit still have the key that made the file, what does it record at the path) and the files.
    func check(_ entry: MoveManifest.Entry, known: Bool, state: SubjectState?, recorded: CatalogOutput?) -> Decision {
        guard known else { return .leave(.skipped("its photo is not in the catalog of \(library.path): left here")) }
        let inLibrary = library.appendingPathComponent(entry.path)
        let there = FileInfo(path: inLibrary.path)
        let holdsIt = there?.isRegularFile == true && there?.size == entry.size && (try? ContentHash.ofFile(inLibrary)) == entry.sha256
        if let recorded {
            guard recorded.subject == entry.subject, recorded.step == entry.step, recorded.sha256 == entry.sha256 else {
                return .leave(.skipped("the library has another file at that path now (made again since the move): left both where they are"))
            }
            if holdsIt { return .back }
        }
        guard state?.unitKeys[entry.step] == entry.unitKey else {
            return .leave(.skipped("its photo's \(entry.step) work was done again since the move: left here"))
        }
        if holdsIt { return recorded == nil ? .record : .back }
        if there != nil { return .leave(.skipped("\(inLibrary.path) exists and is another file: left both where they are")) }
        let copy = folder.appendingPathComponent(entry.path)
        guard FileInfo(path: copy.path)?.isRegularFile == true else { return .leave(.failed("\(copy.path) is missing")) }
        guard (try? ContentHash.ofFile(copy)) == entry.sha256 else {
            return .leave(.failed("\(copy.path) changed since it was moved (its SHA-256 is not the one recorded): left where it is"))
        }
        return .publish
    }

    /// Publishes and records one photo's planned files together; returns what became of each.
    func put(_ plan: Plan, subject: String, publisher: Publisher) -> [String: Result] {
        let files = plan.publish + plan.record
        guard let first = files.first else { return [:] }
        let publication = publisher.publication(subject: subject, source: first.original)
        do {
            for entry in plan.publish {
                let digest = try publication.stage(entry.path, step: entry.step) { temp in try linkOrCopy(entry.path, to: temp) }
                guard digest == entry.sha256 else { throw RunError("\(entry.path) changed while it was moved back") }
            }
            try publication.publish()
            try publication.commit(units: [], asset: nil, unchanged: plan.record.map(\.output), to: catalog)
            return Dictionary(uniqueKeysWithValues: files.map { ($0.path, Result.restored) })
        } catch {
            publication.discard()
            // Published and not recorded: journalled, and removed by the recovery that follows.
            return Dictionary(uniqueKeysWithValues: files.map { ($0.path, Result.failed("\(error)")) })
        }
    }

    /// Hard-links (or, across file systems, copies) the folder's copy of `path` to `temp`.
    func linkOrCopy(_ path: String, to temp: URL) throws {
        let copy = folder.appendingPathComponent(path)
        if link(copy.path, temp.path) != 0 {
            guard [EPERM, EXDEV, EMLINK].contains(errno) else { throw RunError("cannot link \(copy.path) to \(temp.path): \(LibraryFiles.errnoText())") }
            try FileManager.default.copyItem(at: copy, to: temp)
        }
    }

    /// Removes the folder's copy of a file that is back in the library, and the folders it leaves empty.
    func removeCopy(_ path: String) {
        LibraryFiles.retract(path, library: folder)
    }

    /// Whether a path under the folder is its manifest (or one being written).
    func isManifest(_ path: String) -> Bool { path.hasPrefix(MoveManifest.fileName) }
}
