internal import CFFmpeg
import Foundation

/// Owns an MP4 `AVFormatContext` with one video stream, writing to a file with `moov` moved to
/// the front when finished (`movflags=+faststart`), so playback can start before the download ends.
final class MP4Muxer {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private let stream: UnsafeMutablePointer<AVStream>
    let path: String
    private var headerWritten = false
    private var trailerWritten = false

    /// Creates the file at `path` (MP4 whatever its extension).
    init(path: String) throws {
        _ = FFmpegSetup.quiet
        self.path = path
        var context: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegCode.check(avformat_alloc_output_context2(&context, nil, "mp4", path), "create MP4 muxer", path: path)
        guard let context else { throw VideoError(operation: "create MP4 muxer", message: "out of memory", path: path) }
        self.context = context
        guard let stream = avformat_new_stream(context, nil) else {
            avformat_free_context(context)
            throw VideoError(operation: "add video stream", message: "out of memory", path: path)
        }
        self.stream = stream
    }

    deinit {
        guard let context else { return }
        if context.pointee.pb != nil { avio_closep(&context.pointee.pb) }
        avformat_free_context(context)
    }

    /// Whether the container wants codec headers in the stream description rather than in band.
    var wantsGlobalHeader: Bool {
        guard let format = context?.pointee.oformat else { return false }
        return format.pointee.flags & AVFMT_GLOBALHEADER != 0
    }

    /// The stream's time base, which the muxer chooses in `writeHeader` (packets must be rescaled to it).
    var timeBase: AVRational { stream.pointee.time_base }

    /// Describes the stream from an opened encoder, opens the file and writes the header.
    func writeHeader(for encoder: Encoder) throws {
        guard let context else { return }
        try FFmpegCode.check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.context),
                             "describe video stream", path: path)
        if let tag = encoder.encoding.codec.codecTag { stream.pointee.codecpar.pointee.codec_tag = tag }
        stream.pointee.time_base = encoder.context.pointee.time_base
        stream.pointee.avg_frame_rate = encoder.context.pointee.framerate
        try FFmpegCode.check(avio_open(&context.pointee.pb, path, AVIO_FLAG_WRITE), "open output", path: path)
        var options: OpaquePointer?
        av_dict_set(&options, "movflags", "+faststart", 0)
        defer { av_dict_free(&options) }
        try FFmpegCode.check(avformat_write_header(context, &options), "write MP4 header", path: path)
        headerWritten = true
    }

    /// Writes one encoded packet whose timestamps are in `sourceTimeBase` (the encoder's).
    func write(_ packet: Packet, from sourceTimeBase: AVRational) throws {
        guard let context, headerWritten else { throw VideoError(operation: "write packet", message: "header not written", path: path) }
        av_packet_rescale_ts(packet.pointer, sourceTimeBase, stream.pointee.time_base)
        packet.pointer.pointee.stream_index = stream.pointee.index
        try FFmpegCode.check(av_interleaved_write_frame(context, packet.pointer), "write packet", path: path)
    }

    /// Writes the trailer (and, for fast start, rewrites the file with `moov` first) and closes the file.
    func finish() throws {
        guard let context, headerWritten, !trailerWritten else { return }
        trailerWritten = true
        try FFmpegCode.check(av_write_trailer(context), "finish MP4", path: path)
        try FFmpegCode.check(avio_closep(&context.pointee.pb), "close output", path: path)
    }
}
