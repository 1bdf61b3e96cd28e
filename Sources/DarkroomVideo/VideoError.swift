internal import CFFmpeg
import Foundation

/// An FFmpeg failure: what Darkroom was doing, FFmpeg's own words for why (`av_strerror`), and the
/// file concerned when there is one.
public struct VideoError: Error, CustomStringConvertible, Sendable {
    /// What failed (`open encoder libx264`, `write header`, ...).
    public var operation: String
    /// FFmpeg's explanation, or Darkroom's when FFmpeg gave no code.
    public var message: String
    /// The file being written or read, if any.
    public var path: String?

    public init(operation: String, message: String, path: String? = nil) {
        self.operation = operation
        self.message = message
        self.path = path
    }

    public var description: String {
        (path.map { "\($0): " } ?? "") + "\(operation): \(message)"
    }

    /// The error of a factory called before `FFmpeg.start()`.
    static func notStarted(operation: String) -> VideoError {
        VideoError(operation: operation, message: "FFmpeg is not started: call NativeRuntime.start() (or FFmpeg.start()) "
                   + "on the main thread before any video is read or written")
    }

    /// Whether this is the error of a factory called before `FFmpeg.start()`.
    public var isNotStarted: Bool { message.contains("FFmpeg is not started") }

    /// The error for an FFmpeg return code.
    init(operation: String, code: Int32, path: String? = nil) {
        self.init(operation: operation, message: VideoError.text(for: code), path: path)
    }

    /// `av_strerror`'s text for a negative FFmpeg return code (`av_err2str` is a macro Swift cannot use).
    static func text(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "unknown FFmpeg error \(code)" }
        return String(filledBuffer: buffer)
    }
}

/// FFmpeg's return-code conventions, in one place.
enum FFmpegCode {
    static let again = darkroom_averror(EAGAIN)
    static let endOfFile = darkroom_averror_eof()

    /// Throws a `VideoError` when `code` is negative; returns it otherwise.
    @discardableResult
    static func check(_ code: Int32, _ operation: @autoclosure () -> String, path: String? = nil) throws -> Int32 {
        if code < 0 { throw VideoError(operation: operation(), code: code, path: path) }
        return code
    }
}
