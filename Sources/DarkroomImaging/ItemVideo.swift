import DarkroomCore
import DarkroomVideo
import DarkroomVips
import Foundation

/// The video's header, read once per item.
enum SourceVideo: AttachmentKey {
    typealias Value = VideoInfo
}

extension Item {
    /// The video's header facts (container, codec, size, rotation, colour, tags), read once per
    /// item with libavformat and checked against the run's pixel limit. Sets the item's displayed
    /// size and its `video` facts. Throws a `StageError` with the reason for a file that is not a
    /// video Darkroom can read (empty, truncated, audio only, too large...).
    public func videoInfo(settings: RunSettings) throws -> VideoInfo {
        if let info = attachments[SourceVideo.self] { return info }
        let info: VideoInfo
        do {
            info = try VideoInfo.read(path: source.path, pixelLimit: settings.pixelLimit)
        } catch {
            throw VideoProblem.stageError(error, doing: "cannot read video")
        }
        attachments[SourceVideo.self] = info
        pixelWidth = info.video.displayWidth
        pixelHeight = info.video.displayHeight
        video = VideoFacts(duration: info.duration ?? 0, codec: info.video.codec, bitDepth: info.video.bitDepth,
                           hdrTransfer: info.video.hdr.map { $0 == .hlg ? .hlg : .pq }, audioCodec: info.audioCodec)
        return info
    }
}

/// How the video layer's errors read in a stage's failure (the runner adds the file's path).
public enum VideoProblem {
    /// `doing: reason`, with FFmpeg's words where it gave some.
    public static func stageError(_ error: Error, doing: String) -> StageError {
        switch error {
        case let error as VideoReadError: return StageError("\(doing): \(error.message)")
        case let error as VideoError: return StageError("\(doing): \(error.operation): \(error.message)")
        case let error as StageError: return error
        default: return StageError("\(doing): \(error)")
        }
    }
}
