/// Where the video of a motion photo is, as `MotionPhoto.locate(path:)` found it.
public enum MotionPhotoLocation: Sendable, Equatable {
    /// Nothing in the file says it holds a video: an ordinary still.
    case none
    /// An MP4 of `length` bytes starting `offset` bytes into the file (checked to start with an
    /// `ftyp` box and to end inside the file), found through the markers of `kind`.
    case video(offset: UInt64, length: UInt64, kind: MotionPhotoKind)
    /// Markers promise a video, but its bytes are not in the file or do not start with an MP4
    /// `ftyp` box (an editor dropped it, the file was cut short). Import the still with `reason`
    /// as a warning.
    case promisedButMissing(reason: String)
}

/// Which convention marked the video of a motion photo.
public enum MotionPhotoKind: String, Sendable, Equatable, CaseIterable {
    /// Google's Motion Photo format: XMP `GCamera:MotionPhoto="1"` and a `Container:Directory`
    /// whose video item's `Item:Length` counts the bytes at the end of the file.
    case googleXMP
    /// Google's older Micro Video: XMP `GCamera:MicroVideo="1"` with `GCamera:MicroVideoOffset`,
    /// the video's distance from the end of the file.
    case googleMicroVideo
    /// Samsung's trailer after the image (`SEFH` ... `SEFT`), whose `MotionPhoto_Data` entry holds
    /// the MP4 or points at it.
    case samsungTrailer
    /// A top-level `mpvd` box of a HEIF file wrapping the MP4 (Samsung's HEIC motion photos; Google's
    /// format prescribes the same box for HEIC and AVIF).
    case samsungHEIF
}
