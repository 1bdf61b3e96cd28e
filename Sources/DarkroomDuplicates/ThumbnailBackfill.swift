import DarkroomLibrary
import DarkroomModel
import DarkroomRuntime
import DarkroomSimilarity
import DarkroomVips
import Foundation

/// Fingerprints for photos imported before the import made them: each is computed from the photo's
/// thumbnail in the library (as the import computes it from the thumbnail it makes) and recorded in
/// the catalog, so the next `darkroom duplicates` does not compute it again.
public enum ThumbnailBackfill {
    /// What a backfill did.
    public struct Outcome: Sendable {
        /// How many thumbnails were hashed.
        public var hashed = 0
        /// Originals of photos without a thumbnail file in the library: they are not compared.
        public var withoutThumbnail: [String] = []
        /// Photos whose thumbnail could not be read, with the reason: they are not compared.
        public var failed: [(path: String, reason: String)] = []

        /// The lines a terminal shows (stderr): the count, then each photo left out and why.
        public var lines: [String] {
            var lines: [String] = []
            if hashed > 0 { lines.append("hashed \(English.count(hashed, "thumbnail")) of photos imported before near-duplicate detection") }
            lines += withoutThumbnail.map { "no thumbnail to compare: \($0)" }
            lines += failed.map { "cannot compare \($0.path): \($0.reason)" }
            return lines
        }
    }

    /// Thumbnails shorter than this on their short side are not hashed (their fingerprint is empty).
    public static let smallestSide = 32

    /// Hashes the thumbnail of every photo in `photos` that has no fingerprint, updates them and
    /// records what was learned in `catalog`. Starts the native libraries when there is work.
    public static func run(_ photos: inout [CataloguedPhoto], library: URL, catalog: any RowCatalog) throws -> Outcome {
        var outcome = Outcome()
        let waiting = photos.indices.filter { !photos[$0].isHashed }
        guard !waiting.isEmpty else { return outcome }
        var learned: [SimilarityRow] = []
        var started = false
        for index in waiting {
            let photo = photos[index]
            guard let thumbnail = photo.thumbnail,
                  FileInfo(path: library.appendingPathComponent(thumbnail.path).path)?.isRegularFile == true else {
                outcome.withoutThumbnail.append(photo.asset.originalPath)
                continue
            }
            if !started {
                try NativeRuntime.start(threadsPerOperation: 1)
                started = true
            }
            do {
                let facts = try self.facts(ofThumbnailAt: library.appendingPathComponent(thumbnail.path))
                learned.append(SimilarityRow(contentHash: photo.asset.contentHash, facts: facts))
                photos[index].similar.fingerprint = facts.fingerprint.flatMap { $0.isEmpty ? nil : try? SimilarityFingerprint(storedBytes: $0) }
                photos[index].similar.sharpness = facts.sharpness
                photos[index].isHashed = true
                outcome.hashed += 1
            } catch {
                outcome.failed.append((photo.asset.originalPath, "its thumbnail \(thumbnail.path) cannot be read: \(error)"))
            }
        }
        try catalog.rememberSimilarity(learned)
        return outcome
    }

    /// The fingerprint and sharpness of the thumbnail at `url`, as the import computes them: the
    /// fingerprint from a 64 x 64 grey copy (empty when the thumbnail is under `smallestSide` on its
    /// short side or featureless), the sharpness on the thumbnail's own size.
    public static func facts(ofThumbnailAt url: URL) throws -> SimilarityFacts {
        let image = try Image.open(url.path)
        let (width, height) = (image.width, image.height)
        let sharpness = Sharpness.laplacianVariance(of: try GreyImage(width: width, height: height,
                                                                      pixels: try image.greyPixels(width: width, height: height)))
        guard min(width, height) >= smallestSide else { return SimilarityFacts(fingerprint: [], sharpness: sharpness) }
        let grey = try GreyImage(width: 64, height: 64, pixels: try image.greyPixels(width: 64, height: 64))
        return SimilarityFacts(fingerprint: try SimilarityFingerprint.make(from: grey)?.storedBytes ?? [], sharpness: sharpness)
    }
}
