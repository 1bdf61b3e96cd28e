import DarkroomLibrary
import DarkroomModel
import DarkroomReport
import Foundation

/// Moves the library files of near-duplicates that are not kept out of the library (`--move-to`),
/// recorded in the catalog, so that `darkroom catalog verify` stays clean and later runs do not make
/// them again. Burst frames are never moved; originals are never touched.
///
/// Crash-safe at every moment (every photo is placed before any is listed, then each is journalled,
/// committed and retracted in turn):
///
///     place ──▶ list ──▶ journal ──▶ commit ──▶ retract
///       │        │          │           │          └ the library files removed
///       │        │          │           └ the outputs dropped from the catalog, the units kept (a later run
///       │        │          │             finds the work done and does not make the files again), one transaction
///       │        │          └ the library paths noted as pending: killed after the commit, recovery removes them
///       │        └ the folder's manifest (`MoveManifest`) lists each file's catalog row and unit key,
///       │          written durably: what `--move-back` (`DuplicateRestorer`) puts back
///       └ each file hard-linked (or copied) to a temp name in the folder, fsynced, its SHA-256 checked
///         against the catalog's, renamed to its library-relative path there, the folder fsynced
///
/// Killed before the commit, the library is as it was (copies may wait in the folder, listed or not;
/// the next move takes a copy with the right SHA-256 as placed, and a move-back finds the file still
/// in the library). Killed after it, the catalog no longer lists the files, and the next run or move
/// (recovery, under the library's lock) removes them.
public struct DuplicateMover {
    /// One photo moved out.
    public struct Moved: Sendable {
        /// The photo's original (untouched).
        public var original: String
        /// The library-relative paths moved, each now at the same path under the folder.
        public var paths: [String]
    }

    /// What a move did.
    public struct Outcome: Sendable {
        /// The photos whose files were moved.
        public var moved: [Moved] = []
        /// Photos left in place, with why.
        public var failures: [(original: String, reason: String)] = []
        /// Photos with no file left in the library (moved out before): nothing to do.
        public var alreadyOut: [String] = []

        /// Lines for a terminal: each photo moved and its files, each left in place and why.
        public func lines(folder: URL) -> [String] {
            moved.flatMap { photo in
                ["moved \(photo.original)'s library files to \(folder.path):"] + photo.paths.map { "  \($0)" }
            } + alreadyOut.map { "already out of the library: \($0)" } + failures.map { "not moved: \($0.original): \($0.reason)" }
        }
    }

    /// The library the files leave.
    public let library: URL
    /// The folder they go to.
    public let folder: URL
    let catalog: any CatalogStore

    /// A mover from `library` (held exclusively by the caller, and recovered) into `folder`
    /// (made when missing; outside the library).
    public init(library: URL, folder: URL, catalog: any CatalogStore) throws {
        self.library = library.standardizedFileURL
        self.folder = folder.standardizedFileURL
        self.catalog = catalog
        try Self.refuseInside(self.folder, library: self.library, option: "--move-to", give: "a folder outside it")
    }

    /// Refuses `folder`, given to `option`, when it is inside `library` or holds it.
    static func refuseInside(_ folder: URL, library: URL, option: String, give: String) throws {
        let (root, other) = (library.path + "/", folder.path + "/")
        guard !other.hasPrefix(root) && !root.hasPrefix(other) else {
            throw RunError("\(option) \(folder.path) is inside the library \(library.path) (or holds it): give \(give)")
        }
    }

    /// The photos `--move-to` moves: the members not kept of each near-duplicate group, less any
    /// photo that is a frame of a burst.
    public static func photosToMove(in listing: DuplicateListing) -> [CataloguedPhoto] {
        let frames = Set(listing.bursts.flatMap { $0.members.map(\.photo.id) })
        return listing.nearDuplicates.flatMap { $0.others.map(\.photo) }.filter { !frames.contains($0.id) }
    }

    /// Moves the files of `photos`; a photo that fails stays in the library. Every file is placed in
    /// the folder first, then the folder's manifest lists them all (what `--move-back` reads), then
    /// each photo is committed and retracted.
    public func move(_ photos: [CataloguedPhoto]) throws -> Outcome {
        var outcome = Outcome()
        outcome.alreadyOut = photos.filter(\.files.isEmpty).map(\.asset.originalPath)
        let photos = photos.filter { !$0.files.isEmpty }
        guard !photos.isEmpty else { return outcome }
        let run = try catalog.beginRun(pipeline: "duplicates --move-to")
        var placed: [(photo: CataloguedPhoto, entries: [MoveManifest.Entry])] = []
        for photo in photos {
            do {
                placed.append((photo, try place(photo)))
            } catch {
                outcome.failures.append((photo.asset.originalPath, "\(error)"))
            }
        }
        do {
            if !placed.isEmpty { try MoveManifest.read(in: folder).adding(placed.flatMap { $0.entries }).write(in: folder) }
        } catch {
            outcome.failures += placed.map { (original: $0.photo.asset.originalPath, reason: "\(error)") }
            placed = []
        }
        for (photo, entries) in placed {
            do {
                try retract(entries, run: run)
                outcome.moved.append(Moved(original: photo.asset.originalPath, paths: entries.map(\.path).sorted()))
            } catch {
                outcome.failures.append((photo.asset.originalPath, "\(error)"))
            }
        }
        var record = RunReport(pipeline: "duplicates --move-to", library: library.path)
        record.processed = outcome.moved.count
        record.failed = outcome.failures.count
        record.failures = outcome.failures.map { RunReport.Failure(path: $0.original, step: "move-to", reason: $0.reason) }
        try catalog.finishRun(run, report: record)
        return outcome
    }

    /// Places one photo's files (its parts' too) in the folder; returns their manifest entries, each
    /// with the key of the unit that made it.
    private func place(_ photo: CataloguedPhoto) throws -> [MoveManifest.Entry] {
        let states = try catalog.states(of: Array(Set(photo.files.map(\.subject))))
        return try photo.files.map { file in
            try place(file)
            return MoveManifest.Entry(file, unitKey: states[file.subject]?.unitKeys[file.step], original: photo.asset.originalPath)
        }
    }

    /// Journals, commits and retracts one photo's placed files: their outputs are dropped from the
    /// catalog, their units kept.
    private func retract(_ entries: [MoveManifest.Entry], run: Int64) throws {
        try catalog.markPending(entries.map(\.path), run: run)
        for (subject, files) in Dictionary(grouping: entries, by: \.subject).sorted(by: { $0.key < $1.key }) {
            let units = files.compactMap { file in file.unitKey.map { UnitCompletion.Unit(step: file.step, key: $0) } }
            let completion = UnitCompletion(subject: subject, units: units, outputs: [], asset: nil,
                                            retiredSteps: Set(files.filter { $0.unitKey == nil }.map(\.step)).sorted())
            for stale in try catalog.commit(completion, run: run) { LibraryFiles.retract(stale, library: library) }
        }
    }

    /// Puts a copy of a library file at its library-relative path under the folder, durably, with
    /// the SHA-256 the catalog recorded; a file already there with that SHA-256 counts as placed.
    private func place(_ file: CatalogOutput) throws {
        let source = library.appendingPathComponent(file.path)
        let target = folder.appendingPathComponent(file.path)
        if FileInfo(path: target.path) != nil {
            guard (try? ContentHash.ofFile(target)) == file.sha256 else {
                throw RunError("\(target.path) exists and is another file: left both where they are")
            }
            return
        }
        guard FileInfo(path: source.path)?.isRegularFile == true else {
            throw RunError("\(file.path) is missing from the library ('darkroom catalog verify' lists it)")
        }
        let parent = target.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let temp = parent.appendingPathComponent(".\(target.lastPathComponent).darkroom-moving")
        unlink(temp.path)
        defer { unlink(temp.path) }
        if link(source.path, temp.path) != 0 {
            guard [EPERM, EXDEV, EMLINK].contains(errno) else { throw RunError("cannot link \(file.path) to \(temp.path): \(LibraryFiles.errnoText())") }
            try FileManager.default.copyItem(at: source, to: temp)
        }
        try Publisher.fsync(path: temp.path)
        guard try ContentHash.ofFile(temp) == file.sha256 else {
            throw RunError("\(file.path) changed since Darkroom made it (its SHA-256 is not the catalog's): left where it is")
        }
        guard rename(temp.path, target.path) == 0 else { throw RunError("cannot move \(file.path) to \(target.path): \(LibraryFiles.errnoText())") }
        // The new name, and the folders made for it, up to the folder's own entry in its parent.
        var synced = parent
        while true {
            try Publisher.fsync(path: synced.path)
            if synced.path == folder.deletingLastPathComponent().path || synced.pathComponents.count <= 1 { break }
            synced.deleteLastPathComponent()
        }
    }
}
