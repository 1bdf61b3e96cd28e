import DarkroomCore
import DarkroomModel
import DarkroomSimilarity
import DarkroomVips

extension Thumbnail {
    /// Whether the thumbnail of `item` is also measured for near-duplicates and bursts: a photo's
    /// (not a video's poster frame, not a motion part), and only a whole frame (`mode: fit`); a square
    /// crop is not the photo a copy of it would show, so `square` leaves the facts unknown.
    func measuresSimilarity(of item: Item) -> Bool {
        options.mode == .fit && item.mediaKind == .photo && item.motionOf == nil
    }

    /// Sets `item.similarity`'s fingerprint and sharpness from the decoded thumbnail (in memory).
    /// A failure to measure is a warning: the thumbnail is still made, and the facts stay unknown.
    func measureSimilarity(of decoded: Image, for item: Item, context: StageContext) {
        do {
            let facts = try ThumbnailSimilarity.facts(of: decoded)
            item.similarity.fingerprint = facts.fingerprint
            item.similarity.sharpness = facts.sharpness
        } catch {
            context.warn("no fingerprint for near-duplicates: \(error)")
        }
    }
}

/// The fingerprint and sharpness of a thumbnail, from its decoded pixels (no other decode).
enum ThumbnailSimilarity {
    /// Thumbnails whose short side is under this many pixels are too small to hash (the fingerprint
    /// squeezes them to 64 x 64): they get an empty fingerprint, nothing to compare.
    static let minimumSide = 32

    /// `SimilarityFacts` of `thumbnail` (decoded, upright, sRGB, the whole frame, already in memory:
    /// it is read twice): its `SimilarityFingerprint.storedBytes`, or none when it is too small or
    /// featureless; the variance of its Laplacian in grey at its own size.
    static func facts(of thumbnail: Image) throws -> SimilarityFacts {
        let (width, height) = (thumbnail.width, thumbnail.height)
        let ownSize = try GreyImage(width: width, height: height, pixels: try thumbnail.greyPixels())
        var fingerprint: [UInt8] = []
        if min(width, height) >= minimumSide {
            let side = SimilarityFingerprint.side
            let squeezed = try GreyImage(width: side, height: side, pixels: try thumbnail.greyPixels(width: side, height: side))
            fingerprint = try SimilarityFingerprint.make(from: squeezed)?.storedBytes ?? []
        }
        return SimilarityFacts(fingerprint: fingerprint, sharpness: Sharpness.laplacianVariance(of: ownSize))
    }
}
