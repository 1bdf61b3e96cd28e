import Foundation

/// The video codecs Darkroom writes.
public enum VideoCodec: String, Sendable, CaseIterable, Codable {
    /// H.264 through libx264: plays everywhere.
    case h264
    /// HEVC through libx265, tagged `hvc1` so Apple players accept it; smaller, less universal.
    case hevc

    /// The FFmpeg encoder used.
    var encoderName: String { self == .h264 ? "libx264" : "libx265" }

    /// The MP4 sample entry to write (`hvc1` for HEVC; FFmpeg's default `hev1` does not play in Safari or QuickTime).
    var codecTag: UInt32? {
        guard self == .hevc else { return nil }
        return "hvc1".utf8.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }
}

/// How the frames of a video are timed in the file.
public enum FrameTiming: String, Sendable, CaseIterable, Codable {
    /// A picture held for several frame periods is encoded once, as one frame lasting that long;
    /// timestamps stay on the 1/frame-rate grid, so players show the same thing at the same times
    /// as with `constant`. Much less to encode when pictures are held (a time-lapse).
    case variable
    /// Every frame period is a frame in the stream (constant frame rate), for editors that need it.
    case constant
}

/// How a video is encoded: size, frame rate and timing, codec and x264/x265 rate control.
public struct VideoEncoding: Sendable, Equatable, Codable {
    /// The encoder presets libx264 and libx265 both accept, fastest first.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

    /// The video codec.
    public var codec: VideoCodec
    /// Frame width in pixels (even).
    public var width: Int
    /// Frame height in pixels (even).
    public var height: Int
    /// Frames per second of the output: every timestamp is a whole number of 1/`frameRate` periods.
    public var frameRate: Int
    /// Whether held pictures are encoded once (`variable`) or every frame period (`constant`).
    public var frameTiming: FrameTiming
    /// Constant rate factor: 0 lossless ... 51 worst; about 18-23 looks good for H.264.
    public var crf: Double
    /// One of `presets`.
    public var preset: String
    /// Encoder threads; 0 lets the encoder choose.
    public var threads: Int

    /// Key frames come at least this often in `variable` timing, in frame periods: x264's and
    /// x265's own default interval (250 frames) counts frames, which would be 75 s of a time-lapse
    /// at 0.3 s a photo; this keeps seeking as fine as at a constant frame rate (8.3 s at 30 fps).
    public static let keyframePeriods = 250

    /// An encoding; `constant` timing unless asked, so a transcode of real video is encoded as usual.
    public init(codec: VideoCodec = .h264, width: Int, height: Int, frameRate: Int = 30, frameTiming: FrameTiming = .constant,
                crf: Double = 20, preset: String = "medium", threads: Int = 0) {
        self.codec = codec
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.frameTiming = frameTiming
        self.crf = crf
        self.preset = preset
        self.threads = threads
    }
}
