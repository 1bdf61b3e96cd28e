internal import CFFmpeg
import Foundation

/// What a video file is, read with libavformat from its header (bounded probing, no frame
/// decoded beyond what FFmpeg needs to name the pixel format).
///
///     let info = try VideoInfo.read(path: "IMG_0001.MOV", pixelLimit: 100_000_000)
///     info.video.displayWidth      // 1080: a portrait iPhone clip stored 1920x1080, rotated 90°
///     info.video.hdr               // .hlg
///     info.metadata.appleCreationDate  // "2012-11-26T15:33:10-0800"
public struct VideoInfo: Sendable, Equatable {
    /// The file read.
    public var path: String
    /// The container: `mov`, `mp4`, `3gp` (told apart by the `ftyp` brand), or FFmpeg's demuxer
    /// name for others (`mpegts` for AVCHD `.MTS`, `avi`, `matroska`).
    public var container: String
    /// FFmpeg's demuxer names (`mov,mp4,m4a,3gp,3g2,mj2`).
    public var formatName: String
    /// Length in seconds, when the container says.
    public var duration: Double?
    /// The video stream.
    public var video: VideoStreamInfo
    /// The audio codec's FFmpeg name (`aac`), nil without sound.
    public var audioCodec: String?
    /// Tags of the container and of the video stream.
    public var metadata: VideoMetadata

    /// Reads `path`; throws `VideoReadError` with the reason when it is not a video Darkroom can
    /// read, or when its frames have more than `pixelLimit` pixels (checked from the header).
    public static func read(path: String, pixelLimit: Int) throws -> VideoInfo {
        try VideoSource(path: path, pixelLimit: pixelLimit).info
    }

    init(_ input: InputFile) {
        let context = input.context.pointee
        path = input.path
        formatName = context.iformat.map { String(cString: $0.pointee.name) } ?? "unknown"
        let tags = Self.tags(context.metadata)
        container = Self.containerName(formatName: formatName, majorBrand: tags["major_brand"])
        let stream = input.videoStream
        video = VideoStreamInfo(stream)
        if context.duration != darkroom_av_nopts_value(), context.duration > 0 {
            duration = Double(context.duration) / Double(darkroom_av_time_base())
        } else if stream.pointee.duration != darkroom_av_nopts_value(), stream.pointee.duration > 0 {
            duration = Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base)
        } else {
            duration = nil
        }
        audioCodec = input.audioIndex.map { InputFile.codecName(input.context.pointee.streams[Int($0)]!.pointee.codecpar.pointee.codec_id) }
        metadata = VideoMetadata(container: tags, videoStream: Self.tags(stream.pointee.metadata))
        if formatName == "mpegts", video.codec == "h264" {
            metadata.camcorderRecordingDate = (try? input.firstVideoPacketBytes(packets: 4)).flatMap(CamcorderRecordingDate.find(inAnnexB:))
        }
    }

    /// At most this many tags are kept from one dictionary, each value at most `maximumTagLength`
    /// characters: a hostile file cannot fill memory through its metadata.
    static let maximumTags = 256
    static let maximumTagLength = 4096

    /// An `AVDictionary` as a Swift dictionary.
    static func tags(_ dictionary: OpaquePointer?) -> [String: String] {
        var tags: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while tags.count < maximumTags, let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            entry = next
            guard let key = next.pointee.key, let value = next.pointee.value else { continue }
            tags[String(cString: key)] = String(String(cString: value).prefix(maximumTagLength))
        }
        return tags
    }

    /// `mov` for QuickTime (`qt  ` brand), `3gp` for 3GPP brands, `mp4` for the other ISO brands.
    static func containerName(formatName: String, majorBrand: String?) -> String {
        let demuxer = formatName.split(separator: ",").first.map(String.init) ?? formatName
        guard demuxer == "mov" else { return demuxer }
        let brand = (majorBrand ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        if brand == "qt" { return "mov" }
        if brand.hasPrefix("3g") { return "3gp" }
        return brand.isEmpty ? "mov" : "mp4"
    }
}

/// The video stream of a file: codec, size as stored and as shown, colour, rate.
public struct VideoStreamInfo: Sendable, Equatable {
    /// FFmpeg's codec name (`h264`, `hevc`, `mjpeg`).
    public var codec: String
    /// The sample entry's four characters (`avc1`, `hvc1`, `hev1`), when the container has one.
    public var codecTag: String?
    /// Width of the frames as stored.
    public var codedWidth: Int
    /// Height of the frames as stored.
    public var codedHeight: Int
    /// Clockwise degrees (0, 90, 180 or 270) to turn the stored frames to show them, from the
    /// stream's display matrix (phones record sideways and say so there).
    public var rotation: Int
    /// Width as shown: rotation applied, and non-square pixels made square.
    public var displayWidth: Int
    /// Height as shown.
    public var displayHeight: Int
    /// FFmpeg's pixel format name (`yuv420p`, `yuv420p10le`), when known.
    public var pixelFormat: String?
    /// Bits per sample (8, 10, 12).
    public var bitDepth: Int
    /// Colour transfer as tagged (`bt709`, `arib-std-b67` for HLG, `smpte2084` for PQ); this and
    /// the other colour tags are nil when the stream does not say.
    public var colourTransfer: String?
    /// Colour primaries as tagged (`bt709`, `bt2020`).
    public var colourPrimaries: String?
    /// Y'CbCr matrix as tagged (`bt709`, `smpte170m`, `bt2020nc`).
    public var colourMatrix: String?
    /// Sample range as tagged: `tv` (limited) or `pc` (full).
    public var colourRange: String?
    /// Frames per second (the average for variable-rate phone video), when known.
    public var frameRate: Double?

    /// The HDR transfer, nil for SDR.
    public var hdr: HDRTransfer? { colourTransfer.flatMap(HDRTransfer.init(ffmpegName:)) }

    init(_ stream: UnsafeMutablePointer<AVStream>) {
        let parameters = stream.pointee.codecpar.pointee
        codec = InputFile.codecName(parameters.codec_id)
        codecTag = Self.fourCC(parameters.codec_tag)
        codedWidth = Int(parameters.width)
        codedHeight = Int(parameters.height)
        rotation = Self.rotation(darkroom_stream_display_matrix(stream))
        let aspect = parameters.sample_aspect_ratio
        let squareWidth = aspect.num > 0 && aspect.den > 0 && aspect.num != aspect.den
            ? Int((Double(codedWidth) * av_q2d(aspect)).rounded()) : codedWidth
        (displayWidth, displayHeight) = rotation % 180 == 0 ? (squareWidth, codedHeight) : (codedHeight, squareWidth)
        let format = AVPixelFormat(rawValue: parameters.format)
        let descriptor = parameters.format >= 0 ? av_pix_fmt_desc_get(format) : nil
        pixelFormat = descriptor.map { String(cString: $0.pointee.name) }
        if let descriptor {
            bitDepth = Int(descriptor.pointee.comp.0.depth)
        } else if parameters.bits_per_raw_sample > 0 {
            bitDepth = Int(parameters.bits_per_raw_sample)
        } else {
            bitDepth = 8
        }
        colourTransfer = parameters.color_trc == AVCOL_TRC_UNSPECIFIED ? nil : av_color_transfer_name(parameters.color_trc).map { String(cString: $0) }
        colourPrimaries = parameters.color_primaries == AVCOL_PRI_UNSPECIFIED ? nil : av_color_primaries_name(parameters.color_primaries).map { String(cString: $0) }
        colourMatrix = parameters.color_space == AVCOL_SPC_UNSPECIFIED ? nil : av_color_space_name(parameters.color_space).map { String(cString: $0) }
        colourRange = parameters.color_range == AVCOL_RANGE_UNSPECIFIED ? nil : av_color_range_name(parameters.color_range).map { String(cString: $0) }
        let average = stream.pointee.avg_frame_rate, real = stream.pointee.r_frame_rate
        let rate = average.num > 0 && average.den > 0 ? average : real
        frameRate = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : nil
    }

    /// The clockwise turn a display matrix asks for, to the nearest quarter turn (FFmpeg's
    /// `av_display_rotation_get` gives the counter-clockwise angle).
    static func rotation(_ matrix: UnsafePointer<Int32>?) -> Int {
        guard let matrix else { return 0 }
        let counterClockwise = av_display_rotation_get(matrix)
        guard counterClockwise.isFinite else { return 0 }
        let clockwise = Int((-counterClockwise / 90).rounded()) * 90
        return ((clockwise % 360) + 360) % 360
    }

    /// A codec tag as text when it is four printable characters.
    static func fourCC(_ tag: UInt32) -> String? {
        guard tag != 0 else { return nil }
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// An HDR transfer function.
public enum HDRTransfer: String, Sendable, Equatable {
    /// Hybrid log-gamma (`arib-std-b67`): iPhone HDR video.
    case hlg
    /// Perceptual quantizer (`smpte2084`): HDR10.
    case pq

    /// From FFmpeg's name of a colour transfer; nil for SDR transfers.
    public init?(ffmpegName: String) {
        switch ffmpegName {
        case "arib-std-b67": self = .hlg
        case "smpte2084": self = .pq
        default: return nil
        }
    }
}
