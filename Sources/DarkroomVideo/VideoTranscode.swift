internal import CFFmpeg
import Foundation

/// How a video is re-encoded.
public struct TranscodeSettings: Sendable, Equatable {
    /// H.264 or HEVC (tagged `hvc1`), 8-bit 4:2:0, BT.709.
    public var codec: VideoCodec
    /// The longest side of the output in pixels, nil to keep the size; a video is never enlarged.
    public var longEdge: Int?
    /// x264/x265 constant rate factor.
    public var crf: Double
    /// x264/x265 preset (`VideoEncoding.presets`).
    public var preset: String

    /// Settings for `codec` at `crf`, the size kept unless `longEdge` is given.
    public init(codec: VideoCodec, longEdge: Int? = nil, crf: Double, preset: String = "medium") {
        self.codec = codec
        self.longEdge = longEdge
        self.crf = crf
        self.preset = preset
    }
}

/// What a transcode did.
public struct TranscodeReport: Sendable, Equatable {
    /// What happened to the sound.
    public enum Audio: String, Sendable, Equatable {
        /// The video had none.
        case none
        /// AAC, copied as it was.
        case copied
        /// Another codec, encoded to AAC.
        case encoded
    }

    /// The output frame width (upright).
    public var width: Int
    /// The output frame height (upright).
    public var height: Int
    /// Frames encoded.
    public var framesWritten: Int
    /// Video packets that failed to decode and were left out.
    public var packetsSkipped: Int
    /// FFmpeg's words for the first of them.
    public var firstProblem: String?
    /// What happened to the sound.
    public var audio: Audio
    /// Whether HDR was tone-mapped to SDR.
    public var toneMapped: Bool
}

/// Re-encoding a video to an MP4 that plays everywhere: H.264 or HEVC at a size capped by a long
/// edge, 8-bit 4:2:0 tagged BT.709, the rotation applied to the pixels (and no display matrix, so
/// it is never applied twice), HDR tone-mapped to SDR, the sound copied when it is AAC and encoded
/// to AAC otherwise, the container's and streams' tags kept, `moov` first.
///
/// Streaming: packets are read, decoded, filtered, encoded and written one at a time, so memory
/// does not grow with the file. A packet that fails to decode is left out and counted; a video
/// none of whose frames decodes is an error. On error `destination` holds a partial file: write
/// to a temp file and publish it only on success.
public enum VideoTranscode {
    /// The upright output size for a stream: its displayed size, scaled down (never up) so the long
    /// side is at most `longEdge`, each side even (4:2:0 needs it).
    public static func outputSize(for stream: VideoStreamInfo, longEdge: Int?) -> (width: Int, height: Int) {
        let (width, height) = (Double(stream.displayWidth), Double(stream.displayHeight))
        let scale = longEdge.map { min(1, Double($0) / max(width, height)) } ?? 1
        func even(_ value: Double) -> Int { max(2, Int((value * scale / 2).rounded()) * 2) }
        return (even(width), even(height))
    }

    /// Transcodes `source` into a new MP4 at `destination`; without `keepLocation`, the tags that
    /// say where it was taken (`VideoLocationTags`) are left out.
    public static func run(from source: String, to destination: String, settings: TranscodeSettings,
                           pixelLimit: Int, keepLocation: Bool = true) throws -> TranscodeReport {
        try VideoSource(path: source, pixelLimit: pixelLimit).transcode(to: destination, settings: settings, keepLocation: keepLocation)
    }
}

extension VideoSource {
    /// Transcodes the video, every packet from the first, into a new MP4 at `destination` (see
    /// `VideoTranscode`); without `keepLocation`, its location tags are left out.
    public func transcode(to destination: String, settings: TranscodeSettings, keepLocation: Bool = true) throws -> TranscodeReport {
        let input = try inputAtStart()
        let stream = VideoStreamInfo(input.videoStream)
        let (width, height) = VideoTranscode.outputSize(for: stream, longEdge: settings.longEdge)
        let output = try MP4Output(path: destination)
        output.leavesOutLocation = !keepLocation
        let video = try VideoTrack(input: input, output: output, settings: settings, width: width, height: height)
        let audio = try input.audioIndex.map { try AudioTrack(input.context.pointee.streams[Int($0)]!, output: output, path: path) }
        output.copyContainerTags(from: input.context)
        try output.writeHeader()

        try input.forEachPacket { packet in
            if packet.pointer.pointee.stream_index == input.videoIndex {
                try video.send(packet)
            } else if packet.pointer.pointee.stream_index == input.audioIndex {
                try audio?.send(packet)
            }
        }
        try video.send(nil)
        try audio?.send(nil)
        guard video.framesWritten > 0 else {
            let why = video.firstProblem.map { ": \(video.packetsSkipped) packets failed (\($0))" } ?? ""
            throw VideoReadError(path: path, reason: .undecodable("no frame of the video could be decoded\(why)"))
        }
        try output.finish()
        return TranscodeReport(width: width, height: height, framesWritten: video.framesWritten,
                               packetsSkipped: video.packetsSkipped, firstProblem: video.firstProblem,
                               audio: audio.map { $0.copies ? .copied : .encoded } ?? .none, toneMapped: stream.hdr != nil)
    }
}
