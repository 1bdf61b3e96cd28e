import DarkroomCore
import DarkroomVideo
import DarkroomVips
import Foundation
import DarkroomModel

/// The video, opened once per item for every step that reads it.
enum OpenVideo: AttachmentKey {
    typealias Value = VideoSource
}

extension Item {
    /// The video, opened once per item (its header and streams read with libavformat and checked
    /// against the run's pixel limit) and kept open until the item is done: every step reads it
    /// through this one open file (its dates, the remux or transcode, the poster frame, a copy of its
    /// bytes). Sets the item's displayed size and its `video` facts. Throws a `StageError` with the
    /// reason for a file that is not a video Darkroom can read (empty, truncated, audio only, too large...).
    public func videoSource(settings: RunSettings) throws -> VideoSource {
        if let opened = attachments[OpenVideo.self] { return opened }
        let opened: VideoSource
        do {
            opened = try VideoSource(path: source.path, pixelLimit: settings.pixelLimit)
        } catch {
            throw VideoProblem.stageError(error, doing: "cannot read video")
        }
        attachments[OpenVideo.self] = opened
        let info = opened.info
        pixelWidth = info.video.displayWidth
        pixelHeight = info.video.displayHeight
        video = VideoFacts(duration: info.duration ?? 0, codec: info.video.codec, bitDepth: info.video.bitDepth,
                           hdrTransfer: info.video.hdr.map { $0 == .hlg ? .hlg : .pq }, audioCodec: info.audioCodec)
        return opened
    }

    /// The video's header facts (container, codec, size, rotation, colour, tags), from the video
    /// opened once per item (see `videoSource`).
    public func videoInfo(settings: RunSettings) throws -> VideoInfo {
        try videoSource(settings: settings).info
    }

    /// The video's poster frame (see `PosterFrame`) as an sRGB image that fits inside `width` x
    /// `height` (or, with a crop, covers it and is cut to it), never larger than the video. It is
    /// decoded and scaled by FFmpeg at about the size needed; libvips then fits or crops it exactly
    /// as a photo's thumbnail.
    public func posterFrame(width: Int, height: Int, crop: Image.Crop = .none, settings: RunSettings) throws -> Image {
        let opened = try videoSource(settings: settings)
        let info = opened.info
        let (shownWidth, shownHeight) = (Double(info.video.displayWidth), Double(info.video.displayHeight))
        let across = Double(width) / shownWidth, down = Double(height) / shownHeight
        let scale = min(1, crop == .none ? min(across, down) : max(across, down))
        let picture: RGBPicture
        do {
            picture = try opened.posterPicture(width: max(1, Int((shownWidth * scale).rounded())),
                                               height: max(1, Int((shownHeight * scale).rounded())))
        } catch {
            throw VideoProblem.stageError(error, doing: "cannot make the video's poster frame")
        }
        do {
            return try Image.rgb(picture.bytes, width: picture.width, height: picture.height)
                .thumbnail(width: width, height: height, crop: crop)
        } catch let error as VipsError {
            throw StageError.image("cannot make the video's poster frame", error)
        }
    }
}

/// How the video layer's errors read in a stage's failure (the runner adds the file's path).
public enum VideoProblem {
    /// `doing: reason`, with FFmpeg's words where it gave some.
    public static func stageError(_ error: Error, doing: String) -> StageError {
        switch error {
        case let error as VideoReadError: return StageError("\(doing): \(error.message)", kind: FailureKind(error))
        case let error as VideoError: return StageError("\(doing): \(error.operation): \(error.message)")
        case let error as StageError: return error
        default: return StageError("\(doing): \(error)")
        }
    }
}
