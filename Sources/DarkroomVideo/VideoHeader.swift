import Foundation

/// What a video's container header says, read without decoding anything: for a look at many files
/// (the survey pairing Live Photos), where `VideoInfo` would have FFmpeg decode a frame of each.
/// Codec parameters FFmpeg learns only by decoding (the pixel format, some frame rates) are not here.
public struct VideoHeader: Sendable, Equatable {
    /// The file read.
    public var path: String
    /// The container: `mov`, `mp4`, `3gp`, or FFmpeg's demuxer name (see `VideoInfo.container`).
    public var container: String
    /// Length in seconds, when the header says.
    public var duration: Double?
    /// Tags of the container and of the video stream.
    public var metadata: VideoMetadata

    /// Reads the header of the video open at `descriptor` (named `path` in errors), through
    /// positioned reads that leave the descriptor's offset where it was; the descriptor stays the
    /// caller's (it is not closed). Throws `VideoReadError` when FFmpeg recognises no container with
    /// a video stream in it.
    public static func read(descriptor: Int32, path: String) throws -> VideoHeader {
        let input = try InputFile(file: OpenedFile(borrowing: descriptor, path: path), pixelLimit: .max, streamInfo: false)
        let info = VideoInfo(input)
        return VideoHeader(path: path, container: info.container, duration: info.duration, metadata: info.metadata)
    }
}
