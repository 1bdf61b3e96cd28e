import DarkroomCore
import DarkroomVideo
import DarkroomVips
import Foundation
import DarkroomModel

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

    /// The video's poster frame (see `PosterFrame`) as an sRGB image that fits inside `width` x
    /// `height` (or, with a crop, covers it and is cut to it), never larger than the video. It is
    /// decoded and scaled by FFmpeg at about the size needed; libvips then fits or crops it exactly
    /// as a photo's thumbnail.
    public func posterFrame(width: Int, height: Int, crop: Image.Crop = .none, settings: RunSettings) throws -> Image {
        let info = try videoInfo(settings: settings)
        let (shownWidth, shownHeight) = (Double(info.video.displayWidth), Double(info.video.displayHeight))
        let across = Double(width) / shownWidth, down = Double(height) / shownHeight
        let scale = min(1, crop == .none ? min(across, down) : max(across, down))
        let picture: RGBPicture
        do {
            picture = try PosterFrame.picture(from: info, width: max(1, Int((shownWidth * scale).rounded())),
                                              height: max(1, Int((shownHeight * scale).rounded())), pixelLimit: settings.pixelLimit)
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
