import DarkroomCore
import DarkroomImaging
import DarkroomVideo
import Foundation
import DarkroomModel
import DarkroomOptions

/// `video-encode`: puts each video into the library.
///
/// - `codec: copy` (the default) re-encodes nothing. A file whose every stream fits in MP4 is
///   remuxed into one, `moov` first, keeping its tags (creation dates, Apple's keys) and display
///   matrix; an MP4 that already has `moov` first is copied as it is (a remux would write the same);
///   anything else (a MOV with PCM sound or Apple's timecode and metadata tracks, an AVI, AVCHD)
///   keeps its original bytes and extension.
/// - `codec: h264 | hevc` transcodes (see `VideoTranscode`); packets that fail to decode are left
///   out, counted, and reported as a warning.
///
/// Everything streams (memory does not grow with the file) into the temp file `publish` gives,
/// which reaches the library only when the whole item has succeeded.
public struct VideoEncode: Stage {
    /// Starts libvips, FFmpeg and libheif for the run, before any worker thread.
    public static func prepare(_ settings: RunSettings) throws { try ImagingSetup.configure(for: settings) }

    /// The stage's options (codec, long edge, rate factor, preset, output).
    public typealias Options = VideoEncodeOptions

    /// The name in pipeline files.
    public static let name = "video-encode"
    /// One line for `darkroom stages`.
    public static let summary = "Put each video into the library: its streams remuxed into MP4 without re-encoding (or the original file kept), or transcoded to H.264 or HEVC."
    /// The capture date, for the output's date fields.
    public static let reads: Set<ItemAspect> = [.captureDate]
    /// Videos only; photos pass it by.
    public static let media: Set<MediaKind> = [.video]

    /// The options as decoded.
    public let options: VideoEncodeOptions

    /// The stage for validated options.
    public init(options: VideoEncodeOptions) {
        self.options = options
    }

    /// Date fields in the output need `exif-date` first.
    public var needs: Set<ItemAspect> { options.output.usesDateFields ? [.captureDate] : [] }

    /// Publishes the video (remuxed, copied or transcoded) at the output template, with `{ext}` the
    /// container written, reading the video the item has open (see `Item.videoSource`).
    public func process(_ item: Item, context: StageContext) throws {
        let video = try item.videoSource(settings: context.settings)
        var values = PathTemplate.values(for: item)
        do {
            if let transcode = options.transcode {
                values["ext"] = "mp4"
                var report: TranscodeReport?
                try context.publish(try options.output.render(values)) { url in
                    report = try video.transcode(to: url.path, settings: transcode)
                }
                if let report, report.packetsSkipped > 0 {
                    context.warn("\(report.packetsSkipped) video packets could not be decoded and were left out"
                                 + (report.firstProblem.map { " (\($0))" } ?? ""))
                }
                return
            }
            switch try video.remuxPlan() {
            case .remux:
                values["ext"] = "mp4"
                try context.publish(try options.output.render(values)) { url in
                    try video.remux(to: url.path)
                }
            case .alreadyMP4:
                values["ext"] = "mp4"
                try context.publish(try options.output.render(values)) { url in try copyBytes(of: video, to: url) }
            case .keepOriginal(let reason):
                context.logger.debug("\(item.relativePath): original file kept: \(reason)")
                try context.publish(try options.output.render(values)) { url in try copyBytes(of: video, to: url) }
            }
        } catch let error as TemplateError {
            throw StageError("\(error)")
        } catch let error as VideoReadError {
            throw VideoProblem.stageError(error, doing: doing)
        } catch let error as VideoError {
            throw VideoProblem.stageError(error, doing: doing)
        }
    }

    private var doing: String { options.transcode == nil ? "cannot copy the video" : "cannot transcode the video" }

    /// The original's bytes, streamed from the file the item has open.
    private func copyBytes(of video: VideoSource, to url: URL) throws {
        do {
            try video.copyOriginal(to: url)
        } catch let error as VideoError {
            throw StageError("cannot copy the video: \(error.message) (\(error.operation) \(error.path ?? url.path))")
        }
    }
}
