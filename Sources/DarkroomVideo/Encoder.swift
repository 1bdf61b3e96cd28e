internal import CFFmpeg
import Foundation

/// Owns an opened `AVCodecContext` for libx264 or libx265, set up for BT.709 yuv420p at a
/// constant frame rate (time base 1/frame rate: a frame's pts is its index).
final class Encoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    let encoding: VideoEncoding

    /// Opens the encoder. `globalHeader` is set when the container wants codec headers out of band (MP4 does).
    /// `timeBase` replaces 1/frame rate for frames stamped in another time base (a transcode keeps
    /// its source's timestamps, so variable-rate phone video stays as it was).
    init(_ encoding: VideoEncoding, globalHeader: Bool, timeBase: AVRational? = nil) throws {
        _ = FFmpegSetup.quiet
        let name = encoding.codec.encoderName
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw VideoError(operation: "find encoder", message: "this FFmpeg has no \(name) encoder")
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw VideoError(operation: "allocate encoder", message: "out of memory")
        }
        self.context = context
        self.encoding = encoding

        context.pointee.width = Int32(encoding.width)
        context.pointee.height = Int32(encoding.height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = timeBase ?? AVRational(num: 1, den: Int32(encoding.frameRate))
        context.pointee.framerate = AVRational(num: Int32(encoding.frameRate), den: 1)
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        context.pointee.color_primaries = AVCOL_PRI_BT709
        context.pointee.color_trc = AVCOL_TRC_BT709
        context.pointee.colorspace = AVCOL_SPC_BT709
        context.pointee.color_range = AVCOL_RANGE_MPEG
        context.pointee.thread_count = Int32(encoding.threads)
        if globalHeader { context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }

        let options: [(String, String)] = [("preset", encoding.preset), ("crf", String(encoding.crf))]
            + (encoding.codec == .hevc ? [("x265-params", "log-level=error")] : [])
        for (key, value) in options {
            try FFmpegCode.check(av_opt_set(context.pointee.priv_data, key, value, 0), "set \(name) option \(key)=\(value)")
        }
        try FFmpegCode.check(avcodec_open2(context, codec, nil), "open encoder \(name)")
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = self.context
        avcodec_free_context(&context)
    }

    /// Sends a frame (nil: no more frames, flush). Returns false when the encoder's output must be
    /// read first (EAGAIN).
    func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws -> Bool {
        let result = avcodec_send_frame(context, frame)
        if result == FFmpegCode.again { return false }
        try FFmpegCode.check(result, frame == nil ? "flush \(encoding.codec.encoderName)" : "encode frame")
        return true
    }

    /// Fills `packet` with the next encoded packet; false when none is ready yet or the encoder is drained.
    func receive(into packet: Packet) throws -> Bool {
        let result = avcodec_receive_packet(context, packet.pointer)
        if result == FFmpegCode.again || result == FFmpegCode.endOfFile { return false }
        try FFmpegCode.check(result, "receive packet from \(encoding.codec.encoderName)")
        return true
    }
}
