import DarkroomAlignment
import DarkroomCore
import DarkroomImaging
import DarkroomVideo
import DarkroomVips
import Foundation
import DarkroomModel
import DarkroomOptions

/// `timelapse`: the photos, in capture-date order, as an H.264 (or HEVC) MP4 that plays everywhere:
/// yuv420p, BT.709, timestamps on the frame-rate grid, `moov` first.
///
/// How frames flow (memory stays flat however many photos there are):
///
///     prefetch thread:  decode photo k+1 at frame size ─▶ fit, caption ─▶ RGB→BT.709 yuv420p ─┐
///                                                                                       (queue of 2)
///     calling thread:   crossfade from photo k ─▶ converted frame sent once lasting N periods ─▶ x264 ─▶ MP4 (temp file)
///                       (`frame-timing: constant`: sent N times)                    publish ◀─┘ when complete
///
/// With `align: scene | face`, two passes (see `AlignedFrames`): each photo is decoded once, aligned
/// and kept in a temporary file; the crop every photo covers is chosen; then each is warped into the
/// frame and encoded as above.
///
/// With `format: webp | gif`, an animated image for chat apps instead (see `AnimationMaker`): the same
/// photos, order, captions and alignment, one frame a photo lasting its seconds-per-frame.
public struct Timelapse: CollectionStage, ShowsBursts {
    /// Starts libvips, FFmpeg and libheif (and OpenCV, for `align`) for the run, before any worker thread.
    public static func prepare(_ settings: RunSettings) throws {
        try ImagingSetup.configure(for: settings)
        // Alignment runs on the step's one calling thread, beside the decode threads: OpenCV gets no threads of its own.
        AlignmentRuntime.start(threads: 1)
    }

    public typealias Options = TimelapseOptions

    public static let name = "timelapse"
    public static let summary = "Photos in capture-date order as an H.264/HEVC MP4 (BT.709, fast start) or an animated WebP or GIF to share, with optional date caption, crossfade and deflicker."

    /// How many rendered photos may wait ahead of the encoder.
    static let prefetchDepth = 2

    let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// How the pipeline file says to show bursts.
    public var bursts: BurstChoice { options.bursts }

    public func run(_ all: [ItemRecord], context: CollectionContext) throws {
        let items = context.photosShown(all, bursts: options.bursts)
        let selection = PhotoSelection(items, options: options)
        for item in selection.undated {
            context.reportSkipped(item, reason: "no capture date: left out of the time-lapse rather than placed at random", kind: .noCaptureDate)
        }
        guard !selection.photos.isEmpty else {
            throw StageError("timelapse: no photos to render (\(selection.emptyExplanation))")
        }
        let photos = selection.photos
        let outputPath = try options.output.render(PathTemplate.dateValues(photos[0].captureDate?.local))
        guard context.makes(outputPath) else { return }
        let renderer = PhotoRenderer(options: options, pixelLimit: context.settings.pixelLimit)
        guard options.align == .none else {
            try context.publish(outputPath) { temp in
                let frames = try AlignedFrames.prepare(photos, renderer: renderer, temporaryFolder: temp.deletingLastPathComponent(),
                                                       context: context)
                if let animation = options.format.animation {
                    let made = try AnimationMaker(options: options, format: animation) { try frames.renderImage($0) }
                        .make(frames.shown.map(\.item), context: context, to: temp.path)
                    context.logger.info("timelapse: \(made.photos) aligned photos, \(Self.describe(made, animation)) -> \(outputPath)")
                    return
                }
                let used = try encode(frames.shown.map(\.item), context: context, to: temp.path) { index, converter in
                    try frames.render(index, converter: converter)
                }
                context.logger.info("timelapse: \(used.photos) aligned photos, \(used.frames) frames encoded for \(used.periods) frame periods -> \(outputPath)")
            }
            return
        }
        let gains = options.deflicker
            ? Deflicker.gains(means: Deflicker.means(of: photos, renderer: renderer, jobs: context.settings.jobs),
                              window: options.deflickerWindow)
            : Array(repeating: 1.0, count: photos.count)
        context.logger.info("timelapse: \(photos.count) photos (\(selection.sameDay) left out by one-per-day, \(selection.outsideRange) outside the dates) -> \(outputPath)")

        if let animation = options.format.animation {
            try context.publish(outputPath) { temp in
                let made = try AnimationMaker(options: options, format: animation) { try renderer.renderImage(photos[$0], gain: gains[$0]) }
                    .make(photos, context: context, to: temp.path)
                context.logger.info("timelapse: \(Self.describe(made, animation)) -> \(outputPath)")
            }
            return
        }
        try context.publish(outputPath) { temp in
            let used = try encode(photos, context: context, to: temp.path) { index, converter in
                try renderer.render(photos[index], gain: gains[index], converter: converter)
            }
            context.logger.info("timelapse: \(used.photos) photos, \(used.frames) frames encoded for \(used.periods) frame periods (\(options.frameTiming.rawValue) timing) -> \(outputPath)")
        }
    }

    /// An animation's summary: `12 photos, 12 frames at 720x405, 1.2 MB gif looping forever`.
    private static func describe(_ made: AnimationMaker.Made, _ format: AnimationFormat) -> String {
        "\(made.photos) photos\(made.halved ? " (every other one, for max-bytes)" : ""), \(made.frames) frames at \(made.size), "
            + "\(ByteCount.describe(made.bytes)) \(format.rawValue) looping forever"
    }

    /// Renders (`render` on a prefetch thread) and encodes every photo into `path`; returns how many
    /// photos went in, and how many frames were encoded for how many frame periods.
    private func encode(_ photos: [ItemRecord], context: CollectionContext, to path: String,
                        render: @escaping @Sendable (Int, FrameConverter) throws -> VideoFrame) throws -> (photos: Int, frames: Int, periods: Int) {
        let encoding = options.encoding
        let converter = try FrameConverter(width: encoding.width, height: encoding.height)
        let frames = Prefetcher(count: photos.count, depth: Self.prefetchDepth) { index in
            Result { try render(index, converter) }
        }
        defer { frames.cancel() }

        let writer = try VideoWriter(path: path, encoding: encoding)
        let schedule = FrameSchedule(secondsPerPhoto: options.secondsPerPhoto, frameRate: options.frameRate, crossfade: options.crossfade)
        var total = schedule.encodedFrames(photos: photos.count, timing: encoding.frameTiming)
        var shown = 0, failed = 0
        var previous: VideoFrame?
        while let (index, result) = frames.next() {
            let frame: VideoFrame
            switch result {
            case .success(let rendered): frame = rendered
            case .failure(let error):
                context.reportSkipped(photos[index], because: error)
                failed += 1
                total = schedule.encodedFrames(photos: photos.count - failed, timing: encoding.frameTiming)
                continue
            }
            let periods = schedule.frames(forPhotoAt: shown)
            let fades = previous == nil ? 0 : schedule.crossfadeFrames(forPhotoAt: shown)
            if let previous {
                for step in 0..<fades {
                    try writer.append(try previous.blended(with: frame, weight: FrameSchedule.weight(step: step, of: fades)))
                }
            }
            try writer.append(frame, lasting: periods - fades)
            previous = frame
            shown += 1
            context.reportProgress(done: writer.framesEncoded, total: total, unit: "frames")
        }
        guard shown > 0 else {
            throw StageError("timelapse: none of the \(photos.count) photos could be decoded (each is listed in the report)")
        }
        try writer.finish()
        context.reportProgress(done: writer.framesEncoded, total: writer.framesEncoded, unit: "frames")
        return (shown, writer.framesEncoded, writer.periods)
    }
}
