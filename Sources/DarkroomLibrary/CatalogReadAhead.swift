import Foundation
import Synchronization
import DarkroomModel
import DarkroomReport

/// The catalog as one run reads it: what the run will ask about its files and photos is read ahead
/// in a few bulk lookups (`readFingerprints`, `readSubjects`), and each file's and photo's questions
/// are then answered from memory, without a transaction, a statement or a lock of the database.
/// A re-run with nothing new so reads the catalog a fixed number of times, however many files it has.
///
/// Writes go through to the catalog underneath, and what they change is read from it again: a
/// committed photo's units, outputs and facts, an adopted photo's outputs, hashes remembered now.
/// Questions about anything not read ahead go to the catalog underneath as they come.
public final class CatalogReadAhead: CatalogStore, Sendable {
    /// The catalog underneath.
    public let base: CatalogStore
    private let known = Mutex(Known())

    /// What was read ahead; a key present with no value was asked about and is not in the catalog.
    private struct Known {
        var fingerprints: [String: FileFingerprint?] = [:]
        var states: [String: SubjectState] = [:]
        var facts: [String: RememberedFacts?] = [:]
        /// What a collection step reads of each photo (`assets(contentHashes:)`), when `readsAssets`.
        var assets: [String: AssetFacts?] = [:]
        var outputs: [String: CatalogOutput?] = [:]
        /// The subjects `catalog rebuild` recorded files under, not adopted yet (nil: not read).
        var rebuilt: Set<String>?
        /// Library paths committed by this run, with the subject each belongs to now: another
        /// subject's state read ahead that lists one of them is out of date.
        var committed: [String: String] = [:]
    }

    /// Whether `readSubjects` reads the photos' facts whole, as a collection step that reads the
    /// library asks for them (the gallery), or only what the run remembers of them.
    private let readsAssets: Bool

    /// A run's view of `base`; `readingAssets` when a collection step of the run reads the library.
    public init(_ base: CatalogStore, readingAssets: Bool) {
        self.base = base
        readsAssets = readingAssets
    }

    /// A run's view of `base`, for a run whose collection steps do not read the library.
    public convenience init(_ base: CatalogStore) {
        self.init(base, readingAssets: false)
    }

    // MARK: Reading ahead

    /// Reads the remembered fingerprints of these files (absolute paths) in one lookup.
    public func readFingerprints(of paths: [String]) throws {
        guard !paths.isEmpty else { return }
        var read = Dictionary(try base.fingerprints(paths: paths).map { ($0.path, Optional($0)) }, uniquingKeysWith: { _, last in last })
        for path in paths where read[path] == nil { read[path] = .some(nil) }
        known.withLock { Self.add(read, to: &$0.fingerprints) }
    }

    /// Reads the catalog's records of these library files (library-relative paths) in one lookup,
    /// and returns them: an input folder inside the library (its Photos/, to regenerate thumbnails
    /// or make the gallery) holds the library's own outputs, each the photo it was made from.
    @discardableResult
    public func readOutputs(atPaths paths: [String]) throws -> [CatalogOutput] {
        guard !paths.isEmpty else { return [] }
        let found = try base.outputs(atPaths: paths)
        known.withLock { known in
            for path in paths { known.outputs[path] = .some(nil) }
            for output in found { known.outputs[output.path] = output }
        }
        return found
    }

    /// Reads the units, outputs and facts of these photos and videos (content hashes) in one lookup
    /// each (with `readingAssets`, the facts whole, as a collection step asks for them:
    /// `assets(contentHashes:)`), and which of them have files `catalog rebuild` recorded under their
    /// ids (usually none: those few are read as they come).
    public func readSubjects(_ contentHashes: [String]) throws {
        let hashes = Array(Set(contentHashes))
        guard !hashes.isEmpty else { return }
        // The units and outputs are read, and gathered by photo, while the facts are read and their
        // capture dates decoded: neither waits for the other to be done.
        let base = self.base, readsAssets = self.readsAssets
        var reads = DarkroomThreads.map(count: 2, jobs: 2) { part in
            Result { () throws -> SubjectReads in
                if part == 0 { return .states(try base.states(of: hashes)) }
                return readsAssets ? .assets(try base.storedAssets(contentHashes: hashes)) : .facts(try base.rememberedFacts(contentHashes: hashes))
            }
        }
        var states: [String: SubjectState] = [:]
        // Each photo's answers, made once from what was read (the facts whole, or only what is
        // remembered), with a photo the catalog has nothing of known to have nothing.
        var facts: [String: RememberedFacts?] = [:], assets: [String: AssetFacts?] = [:]
        facts.reserveCapacity(hashes.count)
        if readsAssets { assets.reserveCapacity(hashes.count) }
        // Each read taken out of the list, so that the states read are the only copy and are completed in place.
        while let read = reads.popLast() {
            switch try read.get() {
            case .states(let read): states = read
            case .facts(let read): for hash in hashes { facts[hash] = read[hash] }
            case .assets(let read):
                for hash in hashes {
                    let stored = read[hash]
                    facts[hash] = stored?.remembered
                    assets[hash] = stored?.facts
                }
            }
        }
        for hash in hashes where states[hash] == nil { states[hash] = SubjectState() }
        let rebuilt = try base.rebuiltSubjects()
        // The dictionaries made are taken as they are (100,000 entries each, not inserted one by one).
        known.withLock { known in
            Self.add(states, to: &known.states)
            Self.add(facts, to: &known.facts)
            if readsAssets { Self.add(assets, to: &known.assets) }
            known.rebuilt = rebuilt
        }
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

    /// Hands over what was read ahead for the run's per-item work alone, and forgets it: the files'
    /// remembered hashes, the library files' records, the photos' remembered facts and, unless a
    /// collection step reads the library (the gallery asks for the photos' outputs), their units and
    /// outputs. The run's collection steps then work beside a few hundred megabytes less at 100,000
    /// photos; anything asked of what was forgotten goes to the catalog underneath, as it comes.
    public func handOverPerItemReads() -> any Sendable {
        known.withLock { known in
            var handed = Known()
            swap(&handed.fingerprints, &known.fingerprints)
            swap(&handed.outputs, &known.outputs)
            swap(&handed.facts, &known.facts)
            if !readsAssets { swap(&handed.states, &known.states) }
            return handed
        }
    }

    /// Adds what a bulk read found to what is known, its answers first: taken as it is when nothing
    /// was known yet (100,000 entries are not inserted one by one).
    private static func add<Value>(_ read: [String: Value], to known: inout [String: Value]) {
        if known.isEmpty { known = read } else { known.merge(read) { _, new in new } }
    }

    /// One of the bulk reads of `readSubjects`.
    private enum SubjectReads: Sendable {
        case states([String: SubjectState])
        case facts([String: RememberedFacts])
        case assets([String: StoredAsset])
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

    /// The outputs of these subjects, by subject, each list by path: those read ahead (and not
    /// changed since) from memory, the others in one lookup.
    public func outputsBySubject(_ subjects: [String]) throws -> [String: [CatalogOutput]] {
        var grouped: [String: [CatalogOutput]] = [:], unknown: [String] = []
        known.withLock { known in
            for subject in subjects {
                guard let state = Self.state(of: subject, in: known) else { unknown.append(subject); continue }
                if !state.outputs.isEmpty { grouped[subject] = state.outputs }
            }
        }
        guard !unknown.isEmpty else { return grouped }
        for (subject, outputs) in try base.outputsBySubject(unknown) { grouped[subject] = outputs }
        return grouped
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

    /// What the catalog stores of these photos and videos: those read ahead (and not changed since)
    /// from memory, the others in one lookup.
    public func assets(contentHashes: [String]) throws -> [AssetFacts] {
        var found: [AssetFacts] = [], unknown: [String] = []
        known.withLock { known in
            for hash in contentHashes {
                guard let asset = known.assets[hash] else { unknown.append(hash); continue }
                if let asset { found.append(asset) }
            }
        }
        return unknown.isEmpty ? found : found + (try base.assets(contentHashes: unknown))
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

    public func rememberHashes(_ files: [FileFingerprint]) throws {
        try base.rememberHashes(files)
        known.withLock { known in
            for file in files { known.fingerprints[file.path] = file }
        }
    }

    public func commit(_ completion: UnitCompletion, run: Int64) throws -> [String] {
        var stale: [String] = []
        defer {
            known.withLock { known in
                known.states[completion.subject] = nil
                known.facts[completion.subject] = nil
                known.assets[completion.subject] = nil
                for output in completion.outputs {
                    known.committed[output.path] = completion.subject
                    known.outputs[output.path] = nil
                }
                for path in stale { known.outputs[path] = nil }
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
    public func states(of subjects: [String]) throws -> [String: SubjectState] { try base.states(of: subjects) }
    public func rememberedFacts(contentHashes: [String]) throws -> [String: RememberedFacts] {
        try base.rememberedFacts(contentHashes: contentHashes)
    }
    public func storedAssets(contentHashes: [String]) throws -> [String: StoredAsset] { try base.storedAssets(contentHashes: contentHashes) }
    public func outputs(atPaths paths: [String]) throws -> [CatalogOutput] { try base.outputs(atPaths: paths) }
    public func pixelSizes(sha256s: [String]) throws -> [RecordedPixelSize] { try base.pixelSizes(sha256s: sha256s) }
    public func similarity(contentHashes: [String]?) throws -> [SimilarityRow] { try base.similarity(contentHashes: contentHashes) }
    public func burstFacts(contentHashes: [String]) throws -> [BurstFacts] { try base.burstFacts(contentHashes: contentHashes) }
    public func rebuiltSubjects() throws -> Set<String> { try base.rebuiltSubjects() }
    public func rememberPixelSizes(_ sizes: [RecordedPixelSize]) throws { try base.rememberPixelSizes(sizes) }
    public func outputs(ofSubjects subjects: [String]) throws -> [CatalogOutput] { try base.outputs(ofSubjects: subjects) }
    public func motionParts(ofStills stills: [String]) throws -> [AssetFacts] { try base.motionParts(ofStills: stills) }
    public func collectionOutputs() throws -> [CatalogOutput] { try base.collectionOutputs() }
    public func markPending(_ paths: [String], run: Int64) throws { try base.markPending(paths, run: run) }
    public func recoverPending() throws -> [String] { try base.recoverPending() }
}
