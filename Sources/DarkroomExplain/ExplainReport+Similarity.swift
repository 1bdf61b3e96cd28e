import DarkroomLibrary
import DarkroomModel
import Foundation

extension ExplainReport {
    /// What the import recorded of a photo for near-duplicates and bursts (`darkroom duplicates`).
    public struct Similarity: Encodable, Sendable {
        /// `stored`; `none` when the thumbnail was too small or featureless to hash; nil when not computed
        /// (a square thumbnail, or a photo imported before fingerprints were made).
        public var fingerprint: String?
        /// The variance of the thumbnail's Laplacian (its focus), when measured.
        public var sharpness: Double?
        /// The burst the camera wrote, when it wrote one.
        public var burst: BurstMark?

        /// The summary of `facts`.
        public init(_ facts: SimilarityFacts) {
            fingerprint = facts.fingerprint.map { $0.isEmpty ? "none" : "stored" }
            sharpness = facts.sharpness
            burst = facts.burst
        }

        /// `fingerprint stored, sharpness 3257.0, burst google b9b1... (the burst's primary)`.
        var text: String {
            var parts = ["fingerprint " + (fingerprint.map { $0 == "none" ? "none (too small or featureless)" : $0 } ?? "not computed")]
            if let sharpness { parts.append(String(format: "sharpness %.1f", sharpness)) }
            if let burst { parts.append("burst \(burst.source.rawValue) \(burst.identifier)" + (burst.isPrimary ? " (the burst's primary)" : "")) }
            return parts.joined(separator: ", ")
        }
    }

    /// What `catalog` recorded for near-duplicates and bursts of the photo with `contentHash`: nil when
    /// nothing, or when the catalog keeps no such table (every row catalog does).
    static func recordedSimilarity(of contentHash: String, in catalog: CorrectableCatalog) throws -> Similarity? {
        guard let rows = catalog as? any RowCatalog else { return nil }
        return try rows.similarity(contentHashes: [contentHash]).first.map { Similarity($0.facts) }
    }
}
