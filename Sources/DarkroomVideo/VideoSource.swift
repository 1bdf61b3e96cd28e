import Foundation

/// One video opened once for everything done with it: its header and streams read when it is
/// opened (`info`), then the remux plan, the remux or transcode, the poster frame and a copy of its
/// bytes, all from the same open file and the same demuxer. A step that reads every packet starts
/// from the first again whatever was read before.
///
///     let video = try VideoSource(path: "IMG_0001.MOV", pixelLimit: 100_000_000)
///     video.info.video.displayWidth                    // 1080
///     if try video.remuxPlan() == .remux { try video.remux(to: "out.mp4") }
///     let poster = try video.posterPicture(width: 200, height: 356)
///
/// Not for sharing between threads: one item's steps use it in turn. The file is closed when it is
/// released.
public final class VideoSource {
    /// The demuxer (replaced by `inputAtStart` once it has moved on).
    private(set) var input: InputFile
    /// What the video is (container, streams, tags), read when it was opened.
    public let info: VideoInfo
    private let pixelLimit: Int

    /// Opens `path` and finds its streams (FFmpeg decodes a frame or so to learn them); throws
    /// `VideoReadError` with the reason when it is not a video Darkroom can read, or when its frames
    /// have more than `pixelLimit` pixels (checked from the header first).
    public init(path: String, pixelLimit: Int) throws {
        input = try InputFile(path: path, pixelLimit: pixelLimit)
        info = VideoInfo(input)
        self.pixelLimit = pixelLimit
    }

    /// The demuxer, its next packet the file's first: the one opened, unless packets have been read
    /// or the file seeked since (a poster frame); then a new one over the same open file, which
    /// finds the streams again. Seeking back instead would lose packets stamped before the start,
    /// such as the AAC priming packet of a MOV, and the copy would no longer be the whole video.
    func inputAtStart() throws -> InputFile {
        if input.moved { input = try InputFile(file: input.file, pixelLimit: pixelLimit) }
        return input
    }

    /// The file's path.
    public var path: String { input.path }

    /// Copies the file's bytes as they are into a new file at `destination` (which must not exist),
    /// streaming, from the descriptor it is open on.
    public func copyOriginal(to destination: URL) throws {
        try input.file.copy(to: destination.path)
    }
}
