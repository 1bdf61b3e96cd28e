import Foundation

/// A video Darkroom cannot read, with the file and the reason in words a user can act on.
public struct VideoReadError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Why the file was refused.
    public enum Reason: Sendable, Equatable {
        /// The file has no bytes at all.
        case empty
        /// FFmpeg recognises no container in it; FFmpeg's own words.
        case notAVideo(String)
        /// A container without a video stream (an audio-only `.mp4`); the audio codec if there is one.
        case noVideoStream(audioCodec: String?)
        /// An MPEG-4 or QuickTime file whose `moov` box (the index of every sample) is missing:
        /// a recording that was never finished, or a copy cut short.
        case missingMovieBox
        /// The frame size is over the run's pixel limit (refused from the header, before decoding).
        case tooManyPixels(width: Int, height: Int, limit: Int)
        /// FFmpeg opened the file but could not read what it needs; what failed and FFmpeg's words.
        case unreadable(String)
        /// The file opens and has a video stream, but none of its frames decodes; why, in words.
        case undecodable(String)
    }

    /// The file concerned.
    public var path: String
    /// Why it was refused.
    public var reason: Reason

    /// An error about `path`.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// The reason alone (the path is reported beside it by the runner).
    public var message: String {
        switch reason {
        case .empty:
            return "empty file (0 bytes)"
        case .notAVideo(let detail):
            return "not a video FFmpeg can read (\(detail))"
        case .noVideoStream(let audio):
            return "no video stream" + (audio.map { " (audio only: \($0))" } ?? "")
        case .missingMovieBox:
            return "truncated: no 'moov' box (the recording was not finished, or the file was cut short)"
        case .tooManyPixels(let width, let height, let limit):
            return String(format: "video frames are %dx%d (%.0f MP), over the limit of %.0f MP; refused before decoding",
                          width, height, Double(width) * Double(height) / 1_000_000, Double(limit) / 1_000_000)
        case .unreadable(let detail), .undecodable(let detail):
            return detail
        }
    }

    /// `path: reason`.
    public var description: String { "\(path): \(message)" }
}
