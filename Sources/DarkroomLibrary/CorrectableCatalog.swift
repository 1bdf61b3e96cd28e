import Foundation

/// A catalog in which photos can be found and their dates corrected (`darkroom catalog set-date`):
/// it finds photos by id, original file, camera or folder, and names the pipeline files its runs
/// used, from which the outputs' templates are read again.
///
/// The SQLite `Catalog` and the PostgreSQL catalog conform; a shard's manifest and a queue job's
/// view do not (a correction holds the whole library).
public protocol CorrectableCatalog: CatalogStore {
    /// Every photo or video the selector picks, as the catalog stores it, ordered by original path.
    func assets(_ selector: AssetSelector) throws -> [AssetFacts]
    /// The pipeline names runs recorded (`Runner` records the pipeline file's absolute path), the
    /// most recently used first, each once.
    func recordedPipelines() throws -> [String]
}

/// Which assets of a catalog to pick.
public enum AssetSelector: Sendable, Hashable {
    /// The asset with this content hash (SHA-256, lower-case hex).
    case contentHash(String)
    /// The asset with this content id (the `{id}` of its outputs).
    case id(UUID)
    /// Assets imported from exactly this file.
    case originalPath(String)
    /// Assets imported from files under this folder (an absolute path, without a trailing slash).
    case folder(String)
    /// Assets taken with this camera (`Make Model` as the catalog records it; case-insensitive).
    case camera(String)
    /// Live Photo videos published as the motion part of the still with this content hash.
    case motionParts(of: String)
}
