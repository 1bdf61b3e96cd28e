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
        /// Photos whose thumbnail could not be read, or is a crop, with the reason: they are not compared.
        public var failed: [(path: String, reason: String)] = []

        /// The lines a terminal shows (stderr): the count, then each photo left out and why.
        public var lines: [String] {
            var lines: [String] = []
            if hashed > 0 { lines.append("hashed \(English.count(hashed, "thumbnail")) of photos imported before near-duplicate detection") }
            lines += withoutThumbnail.map { "no thumbnail to compare: \($0)" }
            lines += failed.map { "\($0.path): \($0.reason)" }
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
                let image = try Image.open(library.appendingPathComponent(thumbnail.path).path)
                if isCrop(image, of: photo.asset) {
                    outcome.failed.append((photo.asset.originalPath, "not compared: its thumbnail \(thumbnail.path) is a crop (mode: square), "
                                           + "not the whole photo; a thumbnail step in mode: fit records its fingerprint"))
                    continue
                }
                let facts = try self.facts(of: image)
                learned.append(SimilarityRow(contentHash: photo.asset.contentHash, facts: facts))
                photos[index].similar.fingerprint = facts.fingerprint.flatMap { $0.isEmpty ? nil : try? SimilarityFingerprint(storedBytes: $0) }
                photos[index].similar.sharpness = facts.sharpness
                photos[index].isHashed = true
                outcome.hashed += 1
            } catch {
                outcome.failed.append((photo.asset.originalPath, "not compared: its thumbnail \(thumbnail.path) cannot be read: \(error)"))
            }
        }
        try catalog.rememberSimilarity(learned)
        return outcome
    }

    /// Whether a thumbnail is not the whole photo: its shape is not the photo's (a `square` thumbnail
    /// of a photo that is not square). Shapes are compared long side over short side, so that a
    /// photo the catalog sizes before rotation is no crop of its upright thumbnail.
    static func isCrop(_ thumbnail: Image, of asset: AssetFacts) -> Bool {
        guard let width = asset.width, let height = asset.height, min(width, height) > 0, min(thumbnail.width, thumbnail.height) > 0 else {
            return false
        }
        let shape = { (a: Int, b: Int) in Double(max(a, b)) / Double(min(a, b)) }
        return abs(shape(thumbnail.width, thumbnail.height) / shape(width, height) - 1) > 0.05
    }

    /// The fingerprint and sharpness of a thumbnail (opened with random access), as the import
    /// computes them: the fingerprint from a 64 x 64 grey copy (empty when the thumbnail is under
    /// `smallestSide` on its short side or featureless), the sharpness on the thumbnail's own size.
    public static func facts(of image: Image) throws -> SimilarityFacts {
        let (width, height) = (image.width, image.height)
        let sharpness = Sharpness.laplacianVariance(of: try GreyImage(width: width, height: height, pixels: try image.greyPixels()))
        guard min(width, height) >= smallestSide else { return SimilarityFacts(fingerprint: [], sharpness: sharpness) }
        let grey = try GreyImage(width: 64, height: 64, pixels: try image.greyPixels(width: 64, height: 64))
        return SimilarityFacts(fingerprint: try SimilarityFingerprint.make(from: grey)?.storedBytes ?? [], sharpness: sharpness)
    }
}
