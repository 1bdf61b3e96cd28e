/// Why a photo could not be aligned (or the aligners could not start), in words a user can read.
///
/// An aligner never answers a failure with an identity transform: the caller decides what to do with
/// the photo (leave it out of the time-lapse, show it unaligned) and reports this reason with the file.
public enum AlignmentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `AlignmentRuntime.start(threads:)` was not called before making an aligner.
    case notStarted
    /// A cascade file the face aligner needs is missing or unreadable.
    case missingCascade(path: String, reason: String)
    /// The grey working image is unusable (wrong byte count, too small).
    case invalidImage(String)
    /// The photo has too few distinct points to match at all (blank, blurred, a sheet of sky).
    case tooFewFeatures(found: Int, needed: Int)
    /// Too few of the photo's points match the reference's and agree on one movement.
    case tooFewMatches(found: Int, needed: Int)
    /// A transform was found but is beyond what a hand-held retake plausibly needs.
    case implausibleTransform(String)
    /// No face was found in the photo.
    case noFace(minimumSize: Int)
    /// OpenCV failed (its own message).
    case native(String)

    public var description: String {
        switch self {
        case .notStarted:
            return "the alignment runtime was not started (AlignmentRuntime.start(threads:) must run first)"
        case .missingCascade(let path, let reason):
            return "the face-detection cascade \(path) cannot be used (\(reason)): install Debian's opencv-data"
        case .invalidImage(let reason):
            return "unusable working image: \(reason)"
        case .tooFewFeatures(let found, let needed):
            return "too few features to match (\(found), need \(needed)): the photo is blank, blurred or flat"
        case .tooFewMatches(let found, let needed):
            return "too few matching features (\(found), need \(needed))"
        case .implausibleTransform(let reason):
            return "no plausible alignment: \(reason)"
        case .noFace(let minimumSize):
            return "no face found (looked for faces at least \(minimumSize) pixels wide in the working image)"
        case .native(let message):
            return "OpenCV failed: \(message)"
        }
    }
}
