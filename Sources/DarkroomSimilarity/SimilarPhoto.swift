import DarkroomModel

/// Everything the duplicate and burst finder needs to know of one photo: plain values the catalog
/// stores at import.
public struct SimilarPhoto: Hashable, Sendable {
    /// The photo's identifier in the library.
    public var id: String
    /// The original's path (reported, and read for its name and folder).
    public var path: String
    /// The fingerprint of its thumbnail; nil when featureless or not computed.
    public var fingerprint: SimilarityFingerprint?
    /// Width times height of the original (0 when unknown).
    public var pixelCount: Int
    /// The original's modification time, nanoseconds since 1970.
    public var modifiedNanoseconds: Int64
    /// Make and model (and serial number) of the camera; nil when unknown.
    public var camera: String?
    /// When it was taken; nil when unknown.
    public var captured: CaptureInstant?
    /// The burst the camera wrote, if any (with whether this frame is its primary).
    public var burst: BurstMark?
    /// `Sharpness.laplacianVariance` of its thumbnail in grey; nil when unknown.
    public var sharpness: Double?

    /// One photo's values (see each property).
    public init(id: String, path: String, fingerprint: SimilarityFingerprint?, pixelCount: Int, modifiedNanoseconds: Int64,
                camera: String? = nil, captured: CaptureInstant? = nil, burst: BurstMark? = nil,
                sharpness: Double? = nil) {
        self.id = id
        self.path = path
        self.fingerprint = fingerprint
        self.pixelCount = pixelCount
        self.modifiedNanoseconds = modifiedNanoseconds
        self.camera = camera
        self.captured = captured
        self.burst = burst
        self.sharpness = sharpness
    }

    /// What burst grouping reads.
    public var shot: BurstShot {
        let slash = path.lastIndex(of: "/")
        let fileName = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let folder = slash.map { String(path[..<$0]) } ?? ""
        return BurstShot(id: id, camera: camera, captured: captured, burst: burst,
                         fileName: fileName, folder: folder, sharpness: sharpness)
    }

    /// What the keep ranking reads.
    public var keepCandidate: KeepRanking.Candidate {
        KeepRanking.Candidate(path: path, pixelCount: pixelCount, modifiedNanoseconds: modifiedNanoseconds)
    }
}
