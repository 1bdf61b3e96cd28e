import Foundation
import DarkroomModel
import DarkroomReport

/// Where a run reads what is already done and records what it finishes.
///
/// - `Catalog`: the library's own SQLite file, on one machine (the default).
/// - `ShardManifest`: one shard of a sharded sweep; it reads a snapshot and appends its results to
///   a manifest that `darkroom catalog merge` folds into the catalog.
/// - A PostgreSQL catalog (module `DarkroomQueue`), shared by a fleet of workers.
///
/// Every method may be called from several threads at once.
public protocol CatalogStore: AnyObject, Sendable {
    /// Records the start of a run and returns its id.
    func beginRun(pipeline: String) throws -> Int64
    /// Records how a run ended, with its failures.
    func finishRun(_ id: Int64, report: RunReport) throws

    /// The content hash remembered for a file whose path, size, mtime and inode are unchanged.
    func cachedHash(path: String, size: Int64, mtimeNanoseconds: Int64, inode: UInt64) throws -> String?
    /// Remembers hashes so that the next run need not read unchanged files.
    func rememberHashes(_ files: [FileFingerprint]) throws

    /// The done units and published outputs of one subject (a content hash, or `collection:<step>`).
    func state(of subject: String) throws -> SubjectState
    /// The catalogued output at a library-relative path, if any.
    func output(at path: String) throws -> CatalogOutput?
    /// The capture date and size remembered for a photo (for photos whose work is all done).
    func rememberedFacts(contentHash: String) throws -> RememberedFacts?
    /// What a survey needs to know of a photo or video to pair it (`pairingFacts(contentHashes:)`).
    func pairingFacts(contentHash: String) throws -> PairingFacts?
    /// The photos and videos that carry Apple's Live Photo identifier `identifier`.
    func assets(withContentIdentifier identifier: String) throws -> [PairedAsset]

    /// What `cachedHash` and `state(of:)`/`rememberedFacts` answer, for many files and subjects at
    /// once: one lookup each however many keys (a run reads its candidates ahead, `CatalogReadAhead`).
    /// The fingerprints remembered for these paths (those the catalog has), in no particular order.
    func fingerprints(paths: [String]) throws -> [FileFingerprint]
    /// The done units and published outputs of these subjects (of the steps `ofSteps` alone, or of
    /// every step when nil), by subject; a subject with neither is absent.
    func states(of subjects: [String], ofSteps steps: [String]?) throws -> [String: SubjectState]
    /// What the catalog remembers of the photos and videos with these content hashes (those it knows).
    func rememberedFacts(contentHashes: [String]) throws -> [String: RememberedFacts]
    /// Of the photos and videos with these content hashes (those it knows), by content hash, what a
    /// survey pairs them by: their kind, Live Photo identifier and still, without the capture dates
    /// and sizes the work on them reads (`rememberedFacts`), a block of photos at a time.
    func pairingFacts(contentHashes: [String]) throws -> [String: PairingFacts]
    /// What `assets(contentHashes:)` and `rememberedFacts(contentHashes:)` answer of these photos and
    /// videos, from one lookup, by content hash (those it knows): what a run reads ahead.
    func storedAssets(contentHashes: [String]) throws -> [String: StoredAsset]
    /// The catalogued outputs at these library-relative paths (those it has), as `output(at:)` gives each.
    func outputs(atPaths paths: [String]) throws -> [CatalogOutput]
    /// The subjects `catalog rebuild` recorded files under that no photo has adopted yet (`id:<content id>`).
    func rebuiltSubjects() throws -> Set<String>

    /// What the import learned of these photos for near-duplicates and bursts (those it has; every
    /// photo's when nil), in no particular order.
    func similarity(contentHashes: [String]?) throws -> [SimilarityRow]
    /// What burst grouping needs of these photos (those it has), in one cheap lookup, in no particular order.
    func burstFacts(contentHashes: [String]) throws -> [BurstFacts]
    /// The pixel sizes remembered for image files with these SHA-256s (those it has), in no particular order.
    func pixelSizes(sha256s: [String]) throws -> [RecordedPixelSize]
    /// Remembers image files' pixel sizes (the gallery's thumbnails), so that the next run need not open them.
    func rememberPixelSizes(_ sizes: [RecordedPixelSize]) throws
    /// The revisions of the assets with these content hashes, by content hash: a number that changes
    /// whenever an asset's facts, its outputs or a part joined to it (a Live Photo's video, a pair's
    /// RAW) change; one not changed since revisions were kept is absent. Nil for a store that keeps
    /// none (a reader must then read what it shows again).
    func revisions(contentHashes: [String]) throws -> [String: Int64]?

    /// What the catalog stores of the photos and videos with these content hashes (those it knows),
    /// in no particular order.
    func assets(contentHashes: [String]) throws -> [AssetFacts]
    /// The published outputs of these subjects (content hashes, or `collection:<step>`), by path.
    func outputs(ofSubjects subjects: [String]) throws -> [CatalogOutput]
    /// The published outputs of these subjects, by subject, each list by path; a subject with none is
    /// absent. (A run's catalog answers what it read ahead from memory.)
    func outputsBySubject(_ subjects: [String]) throws -> [String: [CatalogOutput]]
    /// The Live Photo videos joined to these stills as their motion parts (`AssetFacts.motionOf`).
    func motionParts(ofStills stills: [String]) throws -> [AssetFacts]
    /// The outputs of every collection step of every pipeline (collages, time-lapses, books), by path.
    func collectionOutputs() throws -> [CatalogOutput]

    /// Notes, before files are linked into the library, that they may appear there; a crash before
    /// `commit` leaves the note, and `recoverPending` names the orphans.
    func markPending(_ paths: [String], run: Int64) throws
    /// Paths an interrupted run may have left in the library without recording them; clears the notes.
    func recoverPending() throws -> [String]
    /// Records finished work in one transaction. Returns outputs the finished units no longer make
    /// (stale files from earlier options), which the caller deletes.
    func commit(_ completion: UnitCompletion, run: Int64) throws -> [String]
    /// Attaches outputs that `catalog rebuild` recorded under a photo's id to that photo; returns how many.
    func adopt(contentHash: String) throws -> Int
}

extension CatalogStore {
    /// The done units of every step and the published outputs of these subjects (`states(of:ofSteps:)`).
    public func states(of subjects: [String]) throws -> [String: SubjectState] {
        try states(of: subjects, ofSteps: nil)
    }

    /// The answer of `pairingFacts(contentHashes:)` for one photo or video.
    public func pairingFacts(contentHash: String) throws -> PairingFacts? {
        try pairingFacts(contentHashes: [contentHash])[contentHash]
    }

    /// The answers of `assets(contentHashes:)` and `rememberedFacts(contentHashes:)`, put together.
    public func storedAssets(contentHashes: [String]) throws -> [String: StoredAsset] {
        guard !contentHashes.isEmpty else { return [:] }
        let remembered = try rememberedFacts(contentHashes: contentHashes)
        var stored: [String: StoredAsset] = [:]
        for facts in try assets(contentHashes: contentHashes) {
            guard let kind = remembered[facts.contentHash]?.mediaKind else { continue }
            stored[facts.contentHash] = StoredAsset(facts: facts, recordedKind: kind)
        }
        return stored
    }

    /// The outputs of `outputs(ofSubjects:)`, grouped by subject.
    public func outputsBySubject(_ subjects: [String]) throws -> [String: [CatalogOutput]] {
        guard !subjects.isEmpty else { return [:] }
        return Dictionary(grouping: try outputs(ofSubjects: subjects), by: \.subject)
    }
}

/// The pixel size of an image file, remembered by the SHA-256 of its bytes: a library file the catalog
/// knows (a thumbnail) is not opened to learn its size again while its bytes are the same.
public struct RecordedPixelSize: Sendable, Codable, Hashable {
    public var sha256: String
    public var width: Int
    public var height: Int

    public init(sha256: String, width: Int, height: Int) {
        self.sha256 = sha256; self.width = width; self.height = height
    }
}

/// A file's content hash with what identifies its version on disk.
public struct FileFingerprint: Sendable, Codable, Hashable {
    public var path: String
    public var size: Int64
    public var mtimeNanoseconds: Int64
    public var inode: UInt64
    public var hash: String

    public init(path: String, size: Int64, mtimeNanoseconds: Int64, inode: UInt64, hash: String) {
        self.path = path; self.size = size; self.mtimeNanoseconds = mtimeNanoseconds; self.inode = inode; self.hash = hash
    }

    /// Whether the remembered hash still holds for the file as it is now: same size, mtime and inode.
    public func holds(size: Int64, mtimeNanoseconds: Int64, inode: UInt64) -> Bool {
        self.size == size && self.mtimeNanoseconds == mtimeNanoseconds && self.inode == inode
    }
}

/// What a catalog holds for one subject: done units by catalog step id, and published outputs.
public struct SubjectState: Sendable {
    public var unitKeys: [String: String]
    public var outputs: [CatalogOutput]

    public init(unitKeys: [String: String] = [:], outputs: [CatalogOutput] = []) {
        self.unitKeys = unitKeys; self.outputs = outputs
    }
}

/// A published file as the catalog knows it.
public struct CatalogOutput: Sendable, Hashable, Codable {
    public var path: String
    public var step: String
    public var subject: String
    public var size: Int64
    public var sha256: String
    /// The original file of the photo it was made from, where the catalog knows it (nil for
    /// collections): an edited photo keeps its outputs' paths, another photo may not take them.
    public var sourcePath: String?

    public init(path: String, step: String, subject: String, size: Int64, sha256: String, sourcePath: String? = nil) {
        self.path = path; self.step = step; self.subject = subject; self.size = size; self.sha256 = sha256
        self.sourcePath = sourcePath
    }
}

/// What a catalog remembers of a photo or video, for items whose work is all done.
public struct RememberedFacts: Sendable {
    public var captureDate: CaptureDate?
    public var width: Int?
    public var height: Int?
    /// Apple's Live Photo identifier of the still or its video, when the file has one.
    public var contentIdentifier: String?
    /// For a Live Photo's video, the content hash of the still it is the motion part of.
    public var motionOf: String?
    /// Photo or video.
    public var mediaKind: MediaKind

    public init(captureDate: CaptureDate?, width: Int?, height: Int?, contentIdentifier: String? = nil, motionOf: String? = nil,
                mediaKind: MediaKind = .photo) {
        self.captureDate = captureDate; self.width = width; self.height = height
        self.contentIdentifier = contentIdentifier; self.motionOf = motionOf; self.mediaKind = mediaKind
    }

    /// What pairing needs of them.
    public var pairing: PairingFacts {
        PairingFacts(contentIdentifier: contentIdentifier, motionOf: motionOf, mediaKind: mediaKind)
    }
}

/// What a catalog remembers of a photo or video that pairing files needs (`RememberedFacts` without
/// the capture date and size): a survey asks it of every photo of a run, before any work on them.
public struct PairingFacts: Sendable, Hashable {
    /// Apple's Live Photo identifier of the still or its video, when the file has one.
    public var contentIdentifier: String?
    /// For a motion part (a Live Photo's video, a RAW+JPEG pair's RAW), the content hash of its still.
    public var motionOf: String?
    /// Photo or video.
    public var mediaKind: MediaKind

    public init(contentIdentifier: String? = nil, motionOf: String? = nil, mediaKind: MediaKind) {
        self.contentIdentifier = contentIdentifier; self.motionOf = motionOf; self.mediaKind = mediaKind
    }
}

/// A photo's or video's row of the catalog as a run reads it ahead: what the catalog stores of it
/// (`assets(contentHashes:)`), and what a run remembers of it (`rememberedFacts(contentHashes:)`).
public struct StoredAsset: Sendable {
    public var facts: AssetFacts
    /// Photo or video, as the catalog recorded it (a catalog from before videos says photo).
    public var recordedKind: MediaKind

    public init(facts: AssetFacts, recordedKind: MediaKind) {
        self.facts = facts
        self.recordedKind = recordedKind
    }

    /// What a run remembers of it, as `rememberedFacts(contentHashes:)` gives it.
    public var remembered: RememberedFacts {
        RememberedFacts(captureDate: facts.captureDate, width: facts.width, height: facts.height,
                        contentIdentifier: facts.contentIdentifier, motionOf: facts.motionOf, mediaKind: recordedKind)
    }
}

/// The work one subject finished: units, outputs and (for photos) the asset's facts.
public struct UnitCompletion: Sendable, Codable {
    /// A finished work unit: the catalog step id and its unit key.
    public struct Unit: Sendable, Codable, Hashable {
        public var step: String
        public var key: String
        public init(step: String, key: String) { self.step = step; self.key = key }
    }

    public var subject: String
    public var units: [Unit]
    public var outputs: [PublishedOutput]
    public var asset: AssetFacts?
    /// Catalog step ids whose units and outputs the subject no longer has (a video that became a
    /// Live Photo's motion part loses its own video and thumbnail); their outputs are stale.
    public var retiredSteps: [String]?

    public init(subject: String, units: [Unit], outputs: [PublishedOutput], asset: AssetFacts?, retiredSteps: [String]? = nil) {
        self.subject = subject; self.units = units; self.outputs = outputs; self.asset = asset
        self.retiredSteps = retiredSteps
    }
}

/// What a catalog stores about a photo or a video.
public struct AssetFacts: Sendable, Codable {
    public var contentHash: String
    public var id: UUID
    public var originalPath: String
    public var fileSize: Int64
    public var captureDate: CaptureDate?
    public var width: Int?
    public var height: Int?
    public var orientation: Int?
    public var camera: String?
    /// Where it was taken, when the file says.
    public var location: GeoLocation?
    /// A video's duration, codec and HDR transfer (nil for photos).
    public var video: VideoFacts?
    /// Apple's Live Photo identifier, when the file has one.
    public var contentIdentifier: String?
    /// For a Live Photo's video, the content hash of the still it is the motion part of.
    public var motionOf: String?
    /// What the run learned for finding near-duplicates and bursts; nil when it learned nothing.
    public var similarity: SimilarityFacts?

    public init(contentHash: String, id: UUID, originalPath: String, fileSize: Int64, captureDate: CaptureDate?,
                width: Int?, height: Int?, orientation: Int?, camera: String?, location: GeoLocation? = nil,
                video: VideoFacts? = nil, contentIdentifier: String? = nil, motionOf: String? = nil,
                similarity: SimilarityFacts? = nil) {
        self.contentHash = contentHash; self.id = id; self.originalPath = originalPath; self.fileSize = fileSize
        self.captureDate = captureDate; self.width = width; self.height = height
        self.orientation = orientation; self.camera = camera; self.location = location; self.video = video
        self.contentIdentifier = contentIdentifier; self.motionOf = motionOf
        self.similarity = similarity
    }

    /// Photo or video, by the original's file name.
    public var mediaKind: MediaKind { MediaKind(fileName: originalPath) }
}

/// A catalogued photo or video that carries a pairing identifier.
public struct PairedAsset: Sendable, Hashable {
    public var contentHash: String
    public var originalPath: String
    /// For a video joined to a still: the still's content hash.
    public var motionOf: String?

    public init(contentHash: String, originalPath: String, motionOf: String?) {
        self.contentHash = contentHash
        self.originalPath = originalPath
        self.motionOf = motionOf
    }

    /// Photo or video, by the original's file name.
    public var mediaKind: MediaKind { MediaKind(fileName: originalPath) }
}
