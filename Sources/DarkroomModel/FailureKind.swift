import Foundation

/// What kind of failure a file had, for counting (`19 failed (8 corrupt, 4 truncated, 3 over the
/// pixel limit)`). It is said where the failure is known: the stages and the runner set it on their
/// own errors, and `DarkroomImaging` maps the native libraries' errors to it; a summary never reads
/// it back out of a message. A failure of no known kind counts as an error of its step.
public enum FailureKind: String, Codable, Sendable, CaseIterable {
    /// The library's disk is full (the run stops).
    case diskFull = "disk full"
    /// The header says more pixels than the run allows; refused before decoding.
    case overPixelLimit = "over the pixel limit"
    /// The file ends early: a copy cut short, a video without its index.
    case truncated
    /// Not a photo or video Darkroom reads (another kind of file, a format it does not take).
    case notAPhotoOrVideo = "not a photo or video"
    /// A video whose container opens but whose frames do not decode.
    case undecodableVideo = "undecodable video"
    /// A container without a video stream (an audio-only file).
    case noVideoStream = "no video stream"
    /// Damaged data inside a readable file.
    case corrupt
    /// No source in or beside the file gives a capture date.
    case noCaptureDate = "no capture date"
    /// Its output would land on a path another photo or a foreign file already holds.
    case outputPathTaken = "output path taken"
    /// The file changed or vanished while it was being imported.
    case changedWhileImporting = "changed while importing"
    /// The file cannot be read at all (permissions, an I/O error).
    case unreadable

    /// How it is counted: `truncated`, `over the pixel limit`.
    public var label: String { rawValue }

    /// The kind an error says of itself, if it says one.
    public static func of(_ error: Error) -> FailureKind? {
        (error as? any ClassifiedError)?.failureKind
    }
}

/// An error that knows what kind of failure it is.
public protocol ClassifiedError: Error {
    /// Its kind, or nil when it is of no kind a summary counts apart.
    var failureKind: FailureKind? { get }
}
