import Foundation

/// The library's catalog as a collection stage reads it (`CollectionContext.library`): what is known
/// of each photo and video, what was made from it, its motion part, and what other pipelines made
/// (collages, time-lapses, books). Read-only but for the image sizes it remembers; every call is one
/// query however many subjects it asks about (a collection step that reads 100,000 photos asks a
/// month's or a block's at a time).
public struct LibraryCatalog: Sendable {
    package let store: CatalogStore

    /// A read-only view of `store`.
    public init(_ store: CatalogStore) {
        self.store = store
    }

    /// What the catalog stores of these photos and videos (date with its source and confidence,
    /// camera, size, place, video facts), by content hash; those it does not know are absent.
    public func assets(_ contentHashes: [String]) throws -> [String: AssetFacts] {
        guard !contentHashes.isEmpty else { return [:] }
        return Dictionary(try store.assets(contentHashes: contentHashes).map { ($0.contentHash, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The files made from these subjects (photos' content hashes), by subject, each list by path.
    public func outputs(of subjects: [String]) throws -> [String: [CatalogOutput]] {
        try store.outputsBySubject(subjects)
    }

    /// The Live Photo videos joined to these stills as their motion parts, by the still's content hash.
    public func motionParts(of stills: [String]) throws -> [String: [AssetFacts]] {
        guard !stills.isEmpty else { return [:] }
        return Dictionary(grouping: try store.motionParts(ofStills: stills), by: { $0.motionOf ?? "" })
    }

    /// What every collection step of every pipeline has made (collages, time-lapses, books), by path.
    public func collectionOutputs() throws -> [CatalogOutput] {
        try store.collectionOutputs()
    }

    /// The catalogued output at a library-relative path, if any.
    public func output(at path: String) throws -> CatalogOutput? {
        try store.output(at: path)
    }

    /// The pixel sizes remembered for image files with these SHA-256s (outputs' `sha256`), by SHA-256.
    public func pixelSizes(sha256s: [String]) throws -> [String: RecordedPixelSize] {
        guard !sha256s.isEmpty else { return [:] }
        return Dictionary(try store.pixelSizes(sha256s: sha256s).map { ($0.sha256, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The revisions of these photos and videos (`CatalogStore.revisions`): a number, by content hash,
    /// that changes whenever what the catalog holds of one (its facts, its files, its motion part or
    /// RAW) changes; absent for one not changed since revisions were kept; nil when the catalog keeps
    /// none. What a stage made from a photo whose revision it saw before is still current.
    public func revisions(_ contentHashes: [String]) throws -> [String: Int64]? {
        try store.revisions(contentHashes: contentHashes)
    }

    /// Remembers image files' pixel sizes read from their headers, so that the next run need not open
    /// them: the one thing a collection stage writes, a shortcut to what the files say.
    public func rememberPixelSizes(_ sizes: [RecordedPixelSize]) throws {
        try store.rememberPixelSizes(sizes)
    }
}
