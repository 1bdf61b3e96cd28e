import DarkroomCore
import DarkroomVideo
import DarkroomOptions

/// Options of the `video-encode` stage.
///
///     - video-encode:
///         codec: copy                        # or h264, hevc
///         output: "Videos/{yyyy}/{MM}/{id}.{ext}"
///     - video-encode: { codec: h264, long-edge: 1920, crf: 23, preset: medium }
public struct VideoEncodeOptions: StageOptions {
    /// What happens to the video's streams.
    public enum Codec: String, Codable, Sendable, CaseIterable {
        /// No re-encoding: remuxed into MP4, or the original bytes.
        case copy
        /// Re-encoded with libx264.
        case h264
        /// Re-encoded with libx265, tagged `hvc1`.
        case hevc

        /// The encoder for a transcode, nil for copy.
        var videoCodec: VideoCodec? {
            switch self {
            case .copy: return nil
            case .h264: return .h264
            case .hevc: return .hevc
            }
        }
    }

    /// What happens to the streams.
    public var codec: Codec
    /// The output's long side cap when transcoding (nil keeps the size).
    public var longEdge: Int?
    /// x264/x265 constant rate factor when transcoding.
    public var crf: Int
    /// x264/x265 preset when transcoding.
    public var preset: String
    /// Where the video goes in the library.
    public var output: PathTemplate

    /// The transcode these options ask for, nil for copy.
    public var transcode: TranscodeSettings? {
        codec.videoCodec.map { TranscodeSettings(codec: $0, longEdge: longEdge, crf: Double(crf), preset: preset) }
    }

    static let codecOption = StageOption.choice(
        "codec", default: Codec.copy,
        "copy: the original streams without re-encoding (remuxed into MP4 with their metadata when every stream fits, else the original file); h264 or hevc: re-encoded to an 8-bit BT.709 MP4, upright, HDR tone-mapped to SDR, sound kept as AAC.")
    static let longEdgeOption = StageOption<Int?>.custom(
        "long-edge", as: Int.self, default: nil, shown: "", accepts: "an integer from 16 to 16384",
        "h264/hevc: the longest side in pixels (e.g. 1920); smaller videos are never enlarged. Absent: the video's own size.") {
        (16...16_384).contains($0) ? $0 : nil
    }
    static let crfOption = StageOption<Int?>.custom(
        "crf", as: Int.self, default: nil, shown: "23 (h264), 28 (hevc)", accepts: "an integer from 0 to 51",
        "h264/hevc: constant rate factor, lower is better and larger (the encoders' own defaults).") {
        (0...51).contains($0) ? $0 : nil
    }
    static let presetOption = StageOption.oneOf(
        "preset", VideoEncoding.presets, default: "medium",
        "h264/hevc: encoder speed preset; slower presets make smaller files of the same quality.")
    static let outputOption = StageOption.template(
        "output", default: "Videos/{yyyy}/{MM}/{id}.{ext}",
        "Path template inside the library, ending .{ext}: the container written (mp4 when remuxed or transcoded, the original extension when the original file is kept); a transcode may end .mp4.")
    /// Every option, in the order they are documented.
    public static let options: [any OptionDeclaration] = [codecOption, longEdgeOption, crfOption, presetOption, outputOption]

    /// Options in code; `crf` defaults to the codec's encoder's own default.
    public init(codec: Codec = .copy, longEdge: Int? = nil, crf: Int? = nil, preset: String = "medium",
                output: PathTemplate? = nil) {
        self.codec = codec
        self.longEdge = longEdge
        self.crf = crf ?? Self.defaultCRF(codec)
        self.preset = preset
        self.output = output ?? Self.outputOption.defaultValue
    }

    /// x264's and x265's own defaults.
    static func defaultCRF(_ codec: Codec) -> Int { codec == .hevc ? 28 : 23 }

    /// Reads and checks the options of a step, reporting every problem at once.
    public init(from decoder: Decoder) throws {
        let reader = try OptionsReader(decoder, declaring: Self.options)
        codec = reader.read(Self.codecOption)
        longEdge = reader.read(Self.longEdgeOption)
        crf = reader.read(Self.crfOption, default: Self.defaultCRF(codec)) ?? Self.defaultCRF(codec)
        preset = reader.read(Self.presetOption)
        output = reader.read(Self.outputOption)
        if codec == .copy {
            for option in [Self.longEdgeOption, Self.crfOption, Self.presetOption] as [any OptionDeclaration] where reader.isGiven(option) {
                reader.reject(option, expected: "codec h264 or hevc (copy does not re-encode)", got: "\(option.key) with codec copy")
            }
        }
        let template = output.template
        let endsInExt = template.hasSuffix(".{ext}")
        if codec == .copy && !endsInExt {
            reader.reject(Self.outputOption, expected: "a file name ending in .{ext} for codec copy (the container depends on the video)",
                          got: "'\(template)'")
        } else if codec != .copy && !endsInExt {
            reader.requireExtension(Self.outputOption, of: output, in: ["mp4"], why: "or .{ext} for codec \(codec.rawValue)")
        }
        try reader.finish()
    }
}
