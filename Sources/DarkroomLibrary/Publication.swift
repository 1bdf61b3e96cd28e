import Foundation
import Synchronization

/// The outputs of one catalog subject (a photo, or a collection step) on their way into the
/// library: the one way any output gets there, for per-item and collection steps alike.
///
///     stage ──▶ publish ──▶ commit
///       │          │           └ outputs and finished units recorded in one transaction;
///       │          │             outputs the units no longer make are retracted
///       │          └ temp files fsynced, paths journalled, files linked into place together
///       │            (a replaced file's old bytes kept aside until the commit), folders fsynced
///       └ each output written to a temp file in the library
///
/// Nothing staged reaches the library unless `publish` is called; a crash between `publish` and
/// `commit` leaves journalled paths that the next run (or the job's next attempt) removes.
package final class Publication: Sendable {
    package let publisher: Publisher
    /// The catalog subject: a photo's content hash, or `collection:<step>`.
    package let subject: String
    /// The photo's original file (nil for a collection).
    package let source: String?
    /// The id its files are named with (nil for a collection).
    package let pathID: UUID?
    private let files = Mutex(Files())

    /// The subject's outputs on their way, by where they are.
    private struct Files {
        var staged: [Publisher.Staged] = []
        var placed: [PublishedOutput] = []
        /// Outputs staged "if changed" that the library already held exactly: left as they were.
        var kept: [PublishedOutput] = []
        /// Paths of placed outputs that replaced older files, whose old bytes wait for the commit.
        var replaced: [String] = []
    }

    package init(publisher: Publisher, subject: String, source: String?, pathID: UUID?) {
        self.publisher = publisher
        self.subject = subject
        self.source = source
        self.pathID = pathID
    }

    /// Outputs linked into the library so far, and those kept as they were: what the catalog records.
    package var published: [PublishedOutput] { files.withLock { $0.placed + $0.kept } }

    /// Outputs linked into the library so far (written by this run).
    package var written: [PublishedOutput] { files.withLock { $0.placed } }

    /// Writes one output to a temp file (via `write`), to be fsynced and published with the others;
    /// returns the SHA-256 of what was written. With `ifChanged`, an output whose bytes the library
    /// already holds at that path (as this subject's catalogued output, and on disk) is not
    /// published: the file is kept as it is.
    @discardableResult
    package func stage(_ relativePath: String, step: String, ifChanged: Bool = false, write: (URL) throws -> Void) throws -> String {
        let file = try publisher.stage(relativePath, step: step, owner: subject, source: source, pathID: pathID, write: write)
        if ifChanged && publisher.holdsUnchanged(file) {
            publisher.discard([file])
            files.withLock { $0.kept.append(PublishedOutput(step: file.step, path: file.relativePath, size: file.size, sha256: file.digest)) }
            return file.digest
        }
        files.withLock { $0.staged.append(file) }
        return file.digest
    }

    /// Links every staged output into place, together: all of them, or (on error) none.
    package func publish() throws {
        let published = try publisher.publish(takeStaged())
        files.withLock { files in
            files.placed += published.outputs
            files.replaced += published.replaced
        }
    }

    /// Drops outputs staged and not published (their subject failed).
    package func discard() {
        publisher.discard(takeStaged())
    }

    /// Takes back what `publish` placed, when its commit failed and left the catalog as it was (a
    /// full disk rolls the transaction back; `commit` calls it then): new files are removed and
    /// replaced ones get their old bytes back now, as the next run's recovery would from the pending
    /// notes (which stay, and then find nothing to undo). A run stopped by a full disk so leaves no
    /// file the catalog does not know.
    package func withdraw() {
        let (placed, replaced) = files.withLock { files in
            defer { (files.placed, files.replaced) = ([], []) }
            return (files.placed.map(\.path), Set(files.replaced))
        }
        for path in placed {
            LibraryRecovery.undo(replaced.contains(path) ? LibraryFiles.keptAsidePath(of: path) : path, library: publisher.library, logger: nil)
        }
    }

    /// Records the published outputs that `keep` accepts (and `unchanged` ones of the same units,
    /// which stay where they are), with the finished `units` (and the photo's `asset` facts), in one
    /// transaction, forgetting the units of the `retiring` steps; then removes the outputs those
    /// units no longer make, and the old bytes of the files the recorded outputs replaced. (The old
    /// bytes of a replaced file that is not recorded stay journalled: recovery puts them back.)
    package func commit(units: [UnitCompletion.Unit], asset: AssetFacts?, retiring: [String] = [], unchanged: [PublishedOutput] = [],
                to catalog: CatalogStore, keeping keep: (PublishedOutput) -> Bool = { _ in true }) throws {
        let completion = UnitCompletion(subject: subject, units: units, outputs: published.filter(keep) + unchanged, asset: asset,
                                        retiredSteps: retiring.isEmpty ? nil : retiring)
        let stale: [String]
        do {
            stale = try catalog.commit(completion, run: publisher.run)
        } catch where DiskSpace.isFull(error, library: publisher.library) {
            // A full disk rolled the transaction back: what was placed is taken back now, not left
            // unrecorded in the library until the next run's recovery.
            withdraw()
            throw error
        }
        let recorded = Set(completion.outputs.map(\.path))
        let superseded = files.withLock { files in
            defer { files.replaced.removeAll { recorded.contains($0) } }
            return files.replaced.filter { recorded.contains($0) }
        }
        for path in superseded { LibraryFiles.dropKeptAside(path, library: publisher.library) }
        for path in stale { LibraryFiles.retract(path, library: publisher.library) }
    }

    private func takeStaged() -> [Publisher.Staged] {
        files.withLock { files in
            defer { files.staged = [] }
            return files.staged
        }
    }
}
