import Foundation
import Synchronization
import DarkroomModel
import DarkroomReport

/// The catalog as one run reads it: what the run will ask about its files and photos is read ahead
/// in a few bulk lookups (`readPairingFacts`; `withFingerprints`, `withOutputs` and `readStates` a block of
/// photos at a time), and each file's and photo's questions are then answered from memory, without a
/// transaction, a statement or a lock of the database. A re-run with nothing new so reads the catalog
/// a fixed number of times, and a few more for each block of photos, however many files it has.
/// Of a photo's units and outputs, those of the run's own steps are read ahead (the ones it asks
/// about); every output of a photo (`outputsBySubject`) is read from the catalog underneath.
///
/// Writes go through to the catalog underneath, and what they change is read from it again: a
/// committed photo's units, outputs and facts, an adopted photo's outputs, hashes remembered now.
/// Questions about anything not read ahead go to the catalog underneath as they come.
public final class CatalogReadAhead: CatalogStore, Sendable {
    /// The catalog underneath.
    public let base: CatalogStore
    private let known = Mutex(Known())

    /// What was read ahead, with what the catalog was asked and has nothing of (`ReadAheadAnswers`).
    private struct Known {
        var fingerprints = ReadAheadAnswers<FileFingerprint>()
        var states: [String: SubjectState] = [:]
        var facts = ReadAheadAnswers<RememberedFacts>()
        var pairing = ReadAheadAnswers<PairingFacts>()
        var outputs = ReadAheadAnswers<CatalogOutput>()
        /// The subjects `catalog rebuild` recorded files under, not adopted yet (nil: not read).
        var rebuilt: Set<String>?
        /// Library paths committed by this run, with the subject each belongs to now: another
        /// subject's state read ahead that lists one of them is out of date.
        var committed: [String: String] = [:]
    }

    /// A run's view of `base`.
    public init(_ base: CatalogStore) {
        self.base = base
    }

    // MARK: Reading ahead

    /// Reads the remembered fingerprints of these files (absolute paths) in one lookup, answers
    /// `cachedHash` from them while `body` runs, and forgets them after: a survey hashes its files a
    /// block at a time and holds one block's fingerprints, not those of 100,000 files.
    public func withFingerprints<Value>(of paths: [String], _ body: () throws -> Value) throws -> Value {
        try holding(\.fingerprints, asked: paths, read: { try self.base.fingerprints(paths: $0).map { ($0.path, $0) } }, body)
    }

    /// Reads the catalog's records of these library files (library-relative paths) in one lookup,
    /// answers `output(at:)` from them while `body` runs, and forgets them after: an input folder
    /// inside the library (its Photos/, to regenerate thumbnails or make the gallery) holds the
    /// library's own outputs, each the photo it was made from, and a survey asks about them a block
    /// of files at a time.
    public func withOutputs<Value>(atPaths paths: [String], _ body: () throws -> Value) throws -> Value {
        try holding(\.outputs, asked: paths, read: { try self.base.outputs(atPaths: $0).map { ($0.path, $0) } }, body)
    }

    /// Reads what `read` answers of the keys `asked` in one lookup into `answers`, answers from it
    /// while `body` runs, and lets it go after.
    private func holding<Value, Answer: Sendable>(_ answers: WritableKeyPath<Known, ReadAheadAnswers<Answer>> & Sendable, asked: [String],
                                                  read: ([String]) throws -> [(String, Answer)], _ body: () throws -> Value) throws -> Value {
        if !asked.isEmpty {
            let found = Dictionary(try read(asked), uniquingKeysWith: { _, last in last })
            known.withLock { $0[keyPath: answers].add(found: found, asked: asked) }
        }
        defer { letGo(known.withLock { $0[keyPath: answers].takeAll() }) }
        return try body()
    }

    /// Frees `answers`, taken out of what was read ahead, on a thread of its own (`Leftovers`) while
    /// the run goes on; `givingBack` their pages to the system after (`Leftovers.free`).
    private func letGo(_ answers: some Sendable, givingBack: Bool = false) {
        let leftovers = Leftovers()
        leftovers.hold(answers)
        Leftovers.free(consume leftovers, givingBack: givingBack)
    }

    /// Reads what pairing needs of these photos and videos (content hashes), in a lookup of three
    /// columns for every `pairingFactsAtOnce` of them, and which of them have files `catalog rebuild`
    /// recorded under their ids (usually none: those few are read as they come): what a survey asks
    /// of every photo, held until `letGoOfPairingFacts`. Their capture dates and sizes, with their
    /// units and outputs, are read a block of photos at a time for the work on them (`readStates`):
    /// every photo's remembered facts, held from the survey to the end of the work, were the largest
    /// part of a gallery run over 100,000 photos.
    public func readPairingFacts(of contentHashes: [String]) throws {
        let hashes = Array(Set(contentHashes))
        guard !hashes.isEmpty else { return }
        for start in stride(from: 0, to: hashes.count, by: Self.pairingFactsAtOnce) {
            let piece = Array(hashes[start..<min(start + Self.pairingFactsAtOnce, hashes.count)])
            let read = try base.pairingFacts(contentHashes: piece)
            known.withLock { known in
                // The first lookup tells how many of the photos the catalog knows: room is made for as
                // many (and a little more), where a list grown by doubling to 100,000 kept room for 60,000 more.
                if start == 0 {
                    let expected = (hashes.count * read.count + piece.count - 1) / piece.count
                    known.pairing.reserveCapacity(expected + expected / 32)
                }
                // A photo the catalog has nothing of is known to have nothing.
                known.pairing.add(found: read, asked: piece)
            }
        }
        let rebuilt = try base.rebuiltSubjects()
        known.withLock { $0.rebuilt = rebuilt }
    }

    /// How many photos' pairing facts `readPairingFacts` asks the catalog about in one lookup.
    private static var pairingFactsAtOnce: Int { 10_000 }

    /// Lets go of what `readPairingFacts` read, once the survey has paired its files.
    public func letGoOfPairingFacts() {
        letGo(known.withLock { $0.pairing.takeAll() })
    }

    /// The units, outputs and remembered facts of some photos and videos, read by `readStates(of:ofSteps:)`,
    /// to be held by `hold(_:)`.
    public struct States: Sendable {
        fileprivate var states: [String: SubjectState]
        fileprivate var facts: ReadAheadAnswers<RememberedFacts>
    }

    /// Reads the units and outputs of the steps `ofSteps` of these photos and videos (content hashes),
    /// and their remembered facts, in one lookup each, for `hold(_:)`: a run reads them a block of
    /// photos at a time, the next block's while it works on this one, and holds one block's rather
    /// than 100,000 photos'. The steps are the run's own: `state(of:)` then answers a photo's units
    /// and outputs of those steps alone, where a photo of a library that other pipelines worked on
    /// has theirs too (the gallery's run read eight units and three outputs a photo to use two and one).
    public func readStates(of contentHashes: [String], ofSteps steps: [String]) throws -> States {
        let hashes = Array(Set(contentHashes))
        var states = hashes.isEmpty ? [:] : try base.states(of: hashes, ofSteps: steps)
        for hash in hashes where states[hash] == nil { states[hash] = SubjectState() }
        return States(states: states, facts: try rememberedFacts(ofDistinct: hashes))
    }

    /// Reads the remembered facts of these photos and videos (content hashes) in one lookup, for
    /// `hold(_:)`, without their units and outputs: what a shard's collections ask of the photos the
    /// other shards work on.
    public func readFacts(of contentHashes: [String]) throws -> States {
        States(states: [:], facts: try rememberedFacts(ofDistinct: Array(Set(contentHashes))))
    }

    /// The remembered facts of these photos and videos (each once), read in one lookup, with those
    /// the catalog has nothing of known to have nothing.
    private func rememberedFacts(ofDistinct hashes: [String]) throws -> ReadAheadAnswers<RememberedFacts> {
        var facts = ReadAheadAnswers<RememberedFacts>()
        if !hashes.isEmpty { facts.add(found: try base.rememberedFacts(contentHashes: hashes), asked: hashes) }
        return facts
    }

    /// Answers from `read` the questions about its photos' units, outputs and facts, in place of the
    /// ones held before, which are let go of and their pages given back: kept by the allocator, a
    /// block's freed pages stood beside the next blocks' (some 20 MB of a gallery run over 100,000).
    public func hold(_ read: States) {
        letGo(known.withLock { known in
            defer { (known.states, known.facts) = (read.states, read.facts) }
            return (known.states, known.facts)
        }, givingBack: true)
    }

    /// Hands over what was read ahead and forgets it (questions then go to the catalog underneath):
    /// a run over 100,000 photos gives its millions of objects to be freed elsewhere (`Leftovers`),
    /// while the catalog itself is closed as usual.
    public func handOverReadAhead() -> any Sendable {
        known.withLock { known in
            let read = known
            known = Known()
            return read
        }
    }

    // MARK: Answered from what was read ahead

    public func cachedHash(path: String, size: Int64, mtimeNanoseconds: Int64, inode: UInt64) throws -> String? {
        guard let remembered = known.withLock({ $0.fingerprints[path] }) else {
            return try base.cachedHash(path: path, size: size, mtimeNanoseconds: mtimeNanoseconds, inode: inode)
        }
        return remembered.flatMap { $0.holds(size: size, mtimeNanoseconds: mtimeNanoseconds, inode: inode) ? $0.hash : nil }
    }

    public func state(of subject: String) throws -> SubjectState {
        try known.withLock { Self.state(of: subject, in: $0) } ?? base.state(of: subject)
    }

    /// What is known of a subject's units and outputs, when it was read ahead and is still current.
    private static func state(of subject: String, in known: Known) -> SubjectState? {
        guard let state = known.states[subject] else {
            // A photo's id that no rebuilt file is recorded under has nothing.
            let unrebuilt = subject.hasPrefix(CatalogVerification.rebuiltSubjectPrefix) && known.rebuilt.map { !$0.contains(subject) } == true
            return unrebuilt ? SubjectState() : nil
        }
        // A path this run committed for another subject is no longer this one's.
        let current = state.outputs.allSatisfy { known.committed[$0.path].map { $0 == subject } ?? true }
        return current ? state : nil
    }

    public func output(at path: String) throws -> CatalogOutput? {
        guard let output = known.withLock({ $0.outputs[path] }) else { return try base.output(at: path) }
        return output
    }

    public func rememberedFacts(contentHash: String) throws -> RememberedFacts? {
        guard let facts = known.withLock({ $0.facts[contentHash] }) else { return try base.rememberedFacts(contentHash: contentHash) }
        return facts
    }

    /// From what the survey read (`readPairingFacts`), or from the facts of the block at work.
    public func pairingFacts(contentHash: String) throws -> PairingFacts? {
        let known = known.withLock { known -> PairingFacts?? in
            if let pairing = known.pairing[contentHash] { return pairing }
            return known.facts[contentHash].map { $0.map(\.pairing) }
        }
        guard let known else { return try base.pairingFacts(contentHash: contentHash) }
        return known
    }

    /// Adopts the files `catalog rebuild` recorded under the photo's id; when the read ahead found none,
    /// there is nothing to write and nothing is asked.
    public func adopt(contentHash: String) throws -> Int {
        let rebuilt = CatalogVerification.rebuiltSubject(of: contentHash)
        if known.withLock({ $0.rebuilt.map { !$0.contains(rebuilt) } }) == true { return 0 }
        let adopted = try base.adopt(contentHash: contentHash)
        known.withLock { known in
            known.states[contentHash] = nil
            known.rebuilt?.remove(rebuilt)
            // The adopted outputs' records name the photo now.
            known.outputs.removeAll()
        }
        return adopted
    }

    // MARK: Writes, which make what they change read again

    /// The hashes are asked of the catalog again if asked at all (the survey, which hashed the files,
    /// asks no more): a first import of 100,000 files does not hold their fingerprints to the end.
    public func rememberHashes(_ files: [FileFingerprint]) throws {
        try base.rememberHashes(files)
        known.withLock { known in
            for file in files { known.fingerprints.forget(file.path) }
        }
    }

    public func commit(_ completion: UnitCompletion, run: Int64) throws -> [String] {
        var stale: [String] = []
        defer {
            known.withLock { known in
                known.states[completion.subject] = nil
                known.facts.forget(completion.subject)
                known.pairing.forget(completion.subject)
                for output in completion.outputs {
                    known.committed[output.path] = completion.subject
                    known.outputs.forget(output.path)
                }
                for path in stale { known.outputs.forget(path) }
            }
        }
        stale = try base.commit(completion, run: run)
        return stale
    }

    // MARK: Passed to the catalog underneath

    public func beginRun(pipeline: String) throws -> Int64 { try base.beginRun(pipeline: pipeline) }
    public func finishRun(_ id: Int64, report: RunReport) throws { try base.finishRun(id, report: report) }
    public func assets(withContentIdentifier identifier: String) throws -> [PairedAsset] {
        try base.assets(withContentIdentifier: identifier)
    }
    public func fingerprints(paths: [String]) throws -> [FileFingerprint] { try base.fingerprints(paths: paths) }
    public func states(of subjects: [String], ofSteps steps: [String]?) throws -> [String: SubjectState] {
        try base.states(of: subjects, ofSteps: steps)
    }
    public func rememberedFacts(contentHashes: [String]) throws -> [String: RememberedFacts] {
        try base.rememberedFacts(contentHashes: contentHashes)
    }
    public func pairingFacts(contentHashes: [String]) throws -> [String: PairingFacts] {
        try base.pairingFacts(contentHashes: contentHashes)
    }
    public func storedAssets(contentHashes: [String]) throws -> [String: StoredAsset] { try base.storedAssets(contentHashes: contentHashes) }
    public func assets(contentHashes: [String]) throws -> [AssetFacts] { try base.assets(contentHashes: contentHashes) }
    public func outputs(atPaths paths: [String]) throws -> [CatalogOutput] { try base.outputs(atPaths: paths) }
    public func pixelSizes(sha256s: [String]) throws -> [RecordedPixelSize] { try base.pixelSizes(sha256s: sha256s) }
    public func similarity(contentHashes: [String]?) throws -> [SimilarityRow] { try base.similarity(contentHashes: contentHashes) }
    public func burstFacts(contentHashes: [String]) throws -> [BurstFacts] { try base.burstFacts(contentHashes: contentHashes) }
    public func rebuiltSubjects() throws -> Set<String> { try base.rebuiltSubjects() }
    public func rememberPixelSizes(_ sizes: [RecordedPixelSize]) throws { try base.rememberPixelSizes(sizes) }
    public func revisions(contentHashes: [String]) throws -> [String: Int64]? { try base.revisions(contentHashes: contentHashes) }
    public func outputs(ofSubjects subjects: [String]) throws -> [CatalogOutput] { try base.outputs(ofSubjects: subjects) }
    public func outputsBySubject(_ subjects: [String]) throws -> [String: [CatalogOutput]] { try base.outputsBySubject(subjects) }
    public func motionParts(ofStills stills: [String]) throws -> [AssetFacts] { try base.motionParts(ofStills: stills) }
    public func collectionOutputs() throws -> [CatalogOutput] { try base.collectionOutputs() }
    public func markPending(_ paths: [String], run: Int64) throws { try base.markPending(paths, run: run) }
    public func recoverPending() throws -> [String] { try base.recoverPending() }
}
