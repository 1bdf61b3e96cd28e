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

/// How a video is encoded: size, constant frame rate, codec and x264/x265 rate control.
public struct VideoEncoding: Sendable, Equatable, Codable {
    /// The encoder presets libx264 and libx265 both accept, fastest first.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

    public var codec: VideoCodec
    /// Frame width in pixels (even).
    public var width: Int
    /// Frame height in pixels (even).
    public var height: Int
    /// Frames per second of the output (constant).
    public var frameRate: Int
    /// Constant rate factor: 0 lossless ... 51 worst; about 18-23 looks good for H.264.
    public var crf: Double
    /// One of `presets`.
    public var preset: String
    /// Encoder threads; 0 lets the encoder choose.
    public var threads: Int

    public init(codec: VideoCodec = .h264, width: Int, height: Int, frameRate: Int = 30, crf: Double = 20,
                preset: String = "medium", threads: Int = 0) {
        self.codec = codec
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.crf = crf
        self.preset = preset
        self.threads = threads
    }
}
