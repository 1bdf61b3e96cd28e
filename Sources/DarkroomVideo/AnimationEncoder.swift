internal import CFFmpeg
import Foundation

/// Owns an opened `AVCodecContext` for an animated image: FFmpeg's `gif` encoder, or
/// `libwebp_anim` (libwebp's animation encoder, which keeps the compressed frames and hands the
/// whole file over as one packet when flushed). Timestamps are in 1/`ticksPerSecond` s.
final class AnimationEncoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    let format: AnimationFormat

    /// Opens the encoder for `width` x `height` pictures; `quality` (0-100) is libwebp's.
    init(format: AnimationFormat, width: Int, height: Int, quality: Int, globalHeader: Bool) throws {
        try FFmpeg.requireStarted("open encoder \(format.encoderName)")
        guard let codec = avcodec_find_encoder_by_name(format.encoderName) else {
            throw VideoError(operation: "find encoder", message: "this FFmpeg has no \(format.encoderName) encoder")
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw VideoError(operation: "allocate encoder", message: "out of memory")
        }
        self.context = context
        self.format = format
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = format.encoderPixelFormat
        context.pointee.time_base = AVRational(num: 1, den: Int32(format.ticksPerSecond))
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        if globalHeader { context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        if format == .webp {
            try FFmpegCode.check(av_opt_set(context.pointee.priv_data, "quality", String(quality), 0), "set libwebp quality \(quality)")
            // libwebp's tuning for outdoor photographs (its filter strength and sharpness).
            try FFmpegCode.check(av_opt_set(context.pointee.priv_data, "preset", "photo", 0), "set libwebp preset photo")
        }
        try FFmpegCode.check(avcodec_open2(context, codec, nil), "open encoder \(format.encoderName)")
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = self.context
        avcodec_free_context(&context)
    }

    /// Sends a frame (nil: no more frames, flush). Returns false when the encoder's output must be read first.
    func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws -> Bool {
        let result = avcodec_send_frame(context, frame)
        if result == FFmpegCode.again { return false }
        try FFmpegCode.check(result, frame == nil ? "flush \(format.encoderName)" : "encode \(format.rawValue) frame")
        return true
    }

    /// Fills `packet` with the next encoded packet; false when none is ready yet or the encoder is drained.
    func receive(into packet: Packet) throws -> Bool {
        let result = avcodec_receive_packet(context, packet.pointer)
        if result == FFmpegCode.again || result == FFmpegCode.endOfFile { return false }
        try FFmpegCode.check(result, "receive packet from \(format.encoderName)")
        return true
    }
}
