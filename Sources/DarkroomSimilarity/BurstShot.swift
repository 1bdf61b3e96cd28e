import DarkroomModel

/// When a photo was taken, as an instant: seconds since 1970 with their fraction. Only differences
/// between shots of one camera are used, so local time works as well as UTC if a camera's shots
/// all use the same.
public struct CaptureInstant: Hashable, Sendable, Comparable {
    /// Seconds since 1970, with the sub-second fraction when the camera wrote one.
    public var seconds: Double
    /// Whether the fraction is known (EXIF `SubSecTimeOriginal`); without it shots in the same
    /// second cannot be told apart from shots a second apart.
    public var hasSubseconds: Bool

    /// An instant `seconds` after 1970; `hasSubseconds` when the fraction was written.
    public init(seconds: Double, hasSubseconds: Bool) {
        self.seconds = seconds
        self.hasSubseconds = hasSubseconds
    }

    /// Earlier first.
    public static func < (a: CaptureInstant, b: CaptureInstant) -> Bool { a.seconds < b.seconds }
}

/// What burst grouping needs to know of one photo: plain values the catalog holds.
public struct BurstShot: Hashable, Sendable {
    /// The photo's identifier in the library.
    public var id: String
    /// The camera (make and model, with the serial number when known); nil when unknown, and
    /// then the photo is never grouped by timing.
    public var camera: String?
    /// When it was taken; nil when unknown.
    public var captured: CaptureInstant?
    /// The burst the camera wrote, if any, with whether it marked this frame as the burst's primary
    /// (`GCamera:BurstPrimary`).
    public var burst: BurstMark?
    /// The original's file name (`00001IMG_00001_BURST20171111030039_COVER.jpg`).
    public var fileName: String
    /// The original's folder: file name patterns only group files of one folder.
    public var folder: String
    /// `Sharpness.laplacianVariance` of the thumbnail, for choosing the pick; nil when unknown.
    public var sharpness: Double?

    /// One photo's values (see each property).
    public init(id: String, camera: String?, captured: CaptureInstant?, burst: BurstMark? = nil,
                fileName: String, folder: String, sharpness: Double? = nil) {
        self.id = id
        self.camera = camera
        self.captured = captured
        self.burst = burst
        self.fileName = fileName
        self.folder = folder
        self.sharpness = sharpness
    }

    /// Whether the camera marked this frame as its burst's primary.
    public var isPrimary: Bool { burst?.isPrimary ?? false }
}

/// The shots of one burst and the one to show.
public struct Burst: Hashable, Sendable {
    /// What showed they belong together, most trusted first.
    public enum Evidence: Hashable, Sendable {
        /// They share Apple's maker-note burst identifier.
        case appleBurstID(String)
        /// They share Google Camera's `GCamera:BurstID`.
        case googleBurstID(String)
        /// Their names follow a phone's burst naming, with the part they share.
        case fileName(BurstFileName.Pattern, key: String)
        /// Three or more shots of one camera, each within a second of the next.
        case timing
    }

    /// Why these frames are one burst.
    public var evidence: Evidence
    /// The frames' ids in capture order (then file name).
    public var members: [String]
    /// The frame to show: the camera's primary when it named one, else the sharpest.
    public var pick: String
    /// Whether `pick` is the camera's own choice rather than the sharpest.
    public var pickIsCameraPrimary: Bool

    /// A burst of `members` (capture order) showing `pick`.
    public init(evidence: Evidence, members: [String], pick: String, pickIsCameraPrimary: Bool) {
        self.evidence = evidence
        self.members = members
        self.pick = pick
        self.pickIsCameraPrimary = pickIsCameraPrimary
    }
}
