internal import CFFmpeg
import Foundation

/// Owns an MP4 `AVFormatContext` with any number of streams, for writing, remuxing and
/// transcoding: metadata tags written as QuickTime keys (so Apple's `com.apple.quicktime.*` keys
/// survive), and `moov` moved before `mdat` when finished (fast start), so playback can start
/// before the download ends.
final class MP4Output {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    let path: String
    private var headerWritten = false
    private var finished = false

    /// Container tags the demuxer makes up or the muxer writes itself: never copied.
    static let generatedTags: Set<String> = ["major_brand", "minor_version", "compatible_brands", "encoder", "rotate"]

    /// Whether tags that say where the video was taken (`VideoLocationTags`) are left out of the copies.
    var leavesOutLocation = false

    /// Creates the file's description (the file is opened by `writeHeader`): MP4, or with `format`
    /// `mov` a QuickTime file (a Live Photo's video shared beside its still keeps its container).
    init(path: String, format: String = "mp4") throws {
        try FFmpeg.requireStarted("create \(format) muxer for \(path)")
        self.path = path
        var context: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegCode.check(avformat_alloc_output_context2(&context, nil, format, path), "create \(format) muxer", path: path)
        guard let context else { throw VideoError(operation: "create MP4 muxer", message: "out of memory", path: path) }
        self.context = context
    }

    deinit {
        guard let context else { return }
        if context.pointee.pb != nil { avio_closep(&context.pointee.pb) }
        avformat_free_context(context)
    }

    /// Whether MP4 can hold a stream of `codec` (H.264, HEVC, AAC, ... but not PCM or an
    /// unknown data track).
    static func accepts(_ codec: AVCodecID) -> Bool {
        guard let format = av_guess_format("mp4", nil, nil), codec != AV_CODEC_ID_NONE else { return false }
        return avformat_query_codec(format, codec, FF_COMPLIANCE_NORMAL) == 1
    }

    /// Whether the container wants codec headers in the stream description (it does).
    var wantsGlobalHeader: Bool {
        guard let format = context?.pointee.oformat else { return false }
        return format.pointee.flags & AVFMT_GLOBALHEADER != 0
    }

    /// Adds a stream; describe it through its `codecpar` before `writeHeader`.
    func addStream() throws -> UnsafeMutablePointer<AVStream> {
        guard let stream = avformat_new_stream(context, nil) else {
            throw VideoError(operation: "add stream", message: "out of memory", path: path)
        }
        return stream
    }

    /// Adds a stream for `encoder`'s packets, described from the opened encoder (HEVC tagged `hvc1`).
    func addStream(for encoder: Encoder) throws -> UnsafeMutablePointer<AVStream> {
        let stream = try addStream()
        try FFmpegCode.check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.context), "describe video stream", path: path)
        if let tag = encoder.encoding.codec.codecTag { stream.pointee.codecpar.pointee.codec_tag = tag }
        stream.pointee.time_base = encoder.context.pointee.time_base
        stream.pointee.avg_frame_rate = encoder.context.pointee.framerate
        return stream
    }

    /// Adds a stream that carries `input`'s packets as they are: same codec parameters, the sample
    /// entry tag kept when MP4 knows it (`hvc1` stays `hvc1`), its tags copied.
    func addCopy(of input: UnsafeMutablePointer<AVStream>) throws -> UnsafeMutablePointer<AVStream> {
        let stream = try addStream()
        try FFmpegCode.check(avcodec_parameters_copy(stream.pointee.codecpar, input.pointee.codecpar), "copy stream parameters", path: path)
        let parameters = input.pointee.codecpar.pointee
        var defaultTag: UInt32 = 0
        let tags = context!.pointee.oformat.pointee.codec_tag
        // The ffmpeg CLI's rule: keep the input's tag when MP4 maps it to the same codec.
        let keep = tags == nil || av_codec_get_id(tags, parameters.codec_tag) == parameters.codec_id
            || av_codec_get_tag2(tags, parameters.codec_id, &defaultTag) == 0
        stream.pointee.codecpar.pointee.codec_tag = keep ? parameters.codec_tag : 0
        stream.pointee.time_base = input.pointee.time_base
        stream.pointee.avg_frame_rate = input.pointee.avg_frame_rate
        stream.pointee.r_frame_rate = input.pointee.r_frame_rate
        stream.pointee.sample_aspect_ratio = input.pointee.sample_aspect_ratio
        stream.pointee.disposition = input.pointee.disposition
        copyTags(from: input.pointee.metadata, to: &stream.pointee.metadata)
        return stream
    }

    /// Copies `input`'s tags to the container, leaving out the ones demuxers make up.
    func copyContainerTags(from input: UnsafeMutablePointer<AVFormatContext>) {
        guard let context else { return }
        copyTags(from: input.pointee.metadata, to: &context.pointee.metadata)
    }

    /// Copies `input`'s tags (`creation_time`, `language`, `handler_name`...) to `stream`.
    func copyStreamTags(from input: UnsafeMutablePointer<AVStream>, to stream: UnsafeMutablePointer<AVStream>) {
        copyTags(from: input.pointee.metadata, to: &stream.pointee.metadata)
    }

    private func copyTags(from source: OpaquePointer?, to target: inout OpaquePointer?) {
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(source, "", entry, AV_DICT_IGNORE_SUFFIX) {
            entry = next
            guard let key = next.pointee.key, !Self.generatedTags.contains(String(cString: key)),
                  !(leavesOutLocation && VideoLocationTags.isLocation(String(cString: key))) else { continue }
            av_dict_set(&target, key, next.pointee.value, 0)
        }
    }

    /// Opens the file and writes the header: after it, each stream's time base is the muxer's.
    /// `metadataKeys` writes the container's tags as QuickTime keys (`mdta`), which is how Apple's
    /// `com.apple.quicktime.*` keys are stored.
    func writeHeader(metadataKeys: Bool = true) throws {
        guard let context else { return }
        try FFmpegCode.check(avio_open(&context.pointee.pb, path, AVIO_FLAG_WRITE), "open output", path: path)
        var options: OpaquePointer?
        av_dict_set(&options, "movflags", metadataKeys ? "+faststart+use_metadata_tags" : "+faststart", 0)
        defer { av_dict_free(&options) }
        try FFmpegCode.check(avformat_write_header(context, &options), "write MP4 header", path: path)
        headerWritten = true
    }

    /// Writes a packet for `stream` whose timestamps are in `timeBase`.
    func write(_ packet: Packet, to stream: UnsafeMutablePointer<AVStream>, from timeBase: AVRational) throws {
        guard let context, headerWritten else { throw VideoError(operation: "write packet", message: "header not written", path: path) }
        av_packet_rescale_ts(packet.pointer, timeBase, stream.pointee.time_base)
        packet.pointer.pointee.stream_index = stream.pointee.index
        packet.pointer.pointee.pos = -1
        try FFmpegCode.check(av_interleaved_write_frame(context, packet.pointer), "write packet", path: path)
    }

    /// Writes the trailer (rewriting the file with `moov` first) and closes the file.
    func finish() throws {
        guard let context, headerWritten, !finished else { return }
        finished = true
        try FFmpegCode.check(av_write_trailer(context), "finish MP4", path: path)
        try FFmpegCode.check(avio_closep(&context.pointee.pb), "close output", path: path)
    }
}
