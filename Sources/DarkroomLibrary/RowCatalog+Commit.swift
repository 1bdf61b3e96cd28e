import Foundation
import DarkroomModel

/// What a commit records and retracts, adoption of a rebuilt catalog's files, and pending notes.
extension RowCatalog {
    // MARK: Commit

    /// Records finished work in one transaction, and returns the outputs the finished units no
    /// longer make (sorted), which the caller deletes:
    /// - the asset's facts merge into what the catalog had (`AssetRow.merging`);
    /// - a retired step loses its unit, and its outputs are stale;
    /// - a finished unit's earlier outputs that it did not make again are stale;
    /// - the new outputs are recorded under the subject (a path takes the last of its outputs, a
    ///   step the last of its units), and their pending notes (and those of the old files they
    ///   replaced, kept aside) are cleared.
    public func commit(_ completion: UnitCompletion, run: Int64) throws -> [String] {
        try rows.write { rows in try Self.record(completion, run: run, in: rows) }
    }

    /// What `commit` writes, inside the caller's write transaction (a queue job commits its work
    /// and ends the job in one). One read of the subject's outputs, whatever their number.
    public static func record(_ completion: UnitCompletion, run: Int64, in rows: any CatalogRowWriter) throws -> [String] {
        if let asset = completion.asset {
            try upsert(try AssetRow(asset, run: run), in: rows)
            if let similarity = asset.similarity, !similarity.isEmpty {
                try mergeSimilarity([SimilarityRow(contentHash: asset.contentHash, facts: similarity)], in: rows)
            }
        }
        let subject = completion.subject
        let units = lastOfEach(completion.units, by: \.step)
        let outputs = lastOfEach(completion.outputs, by: \.path)
        let fresh = Set(outputs.map(\.path))
        let retired = completion.retiredSteps ?? []
        let remade = Set(retired + units.map(\.step))
        var stale: [String] = []
        if !remade.isEmpty {
            stale = try rows.outputs(.subjects([subject])).filter { remade.contains($0.step) && !fresh.contains($0.path) }.map(\.path)
        }
        if !retired.isEmpty { try rows.deleteUnits(subject: subject, steps: retired) }
        if !stale.isEmpty { try rows.deleteOutputs(paths: stale) }
        if !units.isEmpty { try rows.put(units.map { UnitRow(step: $0.step, subject: subject, key: $0.key, run: run) }) }
        if !outputs.isEmpty {
            try rows.put(outputs.map { OutputRow(path: $0.path, step: $0.step, subject: subject, size: $0.size, sha256: $0.sha256, run: run) })
            try rows.deletePending(paths: outputs.flatMap { [$0.path, LibraryFiles.keptAsidePath(of: $0.path)] })
        }
        return stale.sortedByBytes()
    }

    /// Inserts an asset, or merges what a run learned into the row the catalog has. The existing
    /// row is read (and, in PostgreSQL, locked) before it is merged; an insert that meets a row
    /// another writer added meanwhile merges into that one.
    static func upsert(_ asset: AssetRow, in rows: any CatalogRowWriter) throws {
        for _ in 1...3 {
            if let existing = try rows.assets(.contentHashes([asset.contentHash])).first {
                return try rows.update(existing.merging(asset))
            }
            if try rows.insert(asset) { return }
        }
        throw RunError("cannot record the asset \(asset.originalPath): its row keeps appearing and vanishing in the catalog")
    }

    /// Writes similarity facts over what the catalog has for each photo (`SimilarityFacts.merging`).
    static func mergeSimilarity(_ new: [SimilarityRow], in rows: any CatalogRowWriter) throws {
        let old = Dictionary(try rows.similarity(contentHashes: new.map(\.contentHash)).map { ($0.contentHash, $0.facts) },
                             uniquingKeysWith: { first, _ in first })
        try rows.put(new.map { row in
            SimilarityRow(contentHash: row.contentHash, facts: old[row.contentHash].map { $0.merging(row.facts) } ?? row.facts)
        })
    }

    // MARK: Adoption

    /// Gives the outputs `catalog rebuild` recorded under a photo's id (subject `id:<uuid>`) to the
    /// photo with that content hash; returns how many there were.
    public func adopt(contentHash: String) throws -> Int {
        let id = CatalogVerification.rebuiltSubject(of: contentHash)
        return try rows.write { rows in
            let adopted = try rows.outputs(.subjects([id])).map { output in
                var output = output
                output.subject = contentHash
                return output
            }
            if !adopted.isEmpty { try rows.put(adopted) }
            return adopted.count
        }
    }

    /// Rebuilds a lost catalog from the library itself: every untracked file whose name carries a
    /// Darkroom content id is recorded as an output of that id (step `rebuilt`, no run, size and
    /// SHA-256 as found). The next run over the originals adopts them: a photo whose id matches gets
    /// them, and its work is taken as done (only metadata steps run again), so nothing is encoded
    /// twice. Returns how many files were recorded and for how many photos.
    public func rebuild(library: URL) throws -> (files: Int, photos: Int) {
        let found = try CatalogVerification.rebuildable(library: library, known: Set(try allOutputs().map(\.path)))
        if !found.isEmpty {
            try rows.write { rows in
                try rows.put(found.map {
                    OutputRow(path: $0.path, step: CatalogVerification.rebuiltStep, subject: CatalogVerification.rebuiltSubjectPrefix + $0.id, size: $0.size,
                              sha256: $0.sha256, run: nil)
                })
            }
        }
        return (found.count, Set(found.map(\.id)).count)
    }

    /// Checks every catalogued output against its file and lists files the catalog does not know.
    /// Only reads.
    public func verify(library: URL) throws -> CatalogDrift {
        CatalogVerification.verify(outputs: try allOutputs(), library: library)
    }

    // MARK: Pending notes

    /// Notes, before files are linked into the library, that they may appear there.
    public func markPending(_ paths: [String], run: Int64) throws {
        try rows.write { try Self.note(paths, run: run, job: nil, in: $0) }
    }

    /// Notes paths, each once, for `run` and (in a work queue) `job`, inside the caller's write transaction.
    public static func note(_ paths: [String], run: Int64, job: Int64?, in rows: any CatalogRowWriter) throws {
        let paths = Array(Set(paths)).sortedByBytes()
        guard !paths.isEmpty else { return }
        try rows.put(paths.map { PendingNote(path: $0, run: run, job: job) })
    }

    /// Paths an interrupted run may have left in the library without recording them (sorted); clears
    /// the notes no running job owns.
    public func recoverPending() throws -> [String] {
        try recoverPending(.unowned)
    }

    /// Takes the notes in `scope` and returns those of their paths that are not recorded outputs: a
    /// note whose path a commit recorded was cleared by it, so these were never recorded.
    public func recoverPending(_ scope: PendingScope) throws -> [String] {
        try rows.write { rows in
            let noted = try rows.takePending(scope)
            guard !noted.isEmpty else { return [] }
            let recorded = Set(try rows.outputs(.paths(noted)).map(\.path))
            return Array(Set(noted.filter { !recorded.contains($0) })).sortedByBytes()
        }
    }
}
