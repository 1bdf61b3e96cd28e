internal import CFFmpeg
import Foundation

/// An opened `AVCodecContext` for an animated image: FFmpeg's `gif` encoder, or
/// `libwebp_anim` (libwebp's animation encoder, which keeps the compressed frames and hands the
/// whole file over as one packet when flushed). Timestamps are in 1/`ticksPerSecond` s.
final class AnimationEncoder: EncoderContext {
    let format: AnimationFormat

    /// Opens the encoder for `width` x `height` pictures; `quality` (0-100) is libwebp's.
    init(format: AnimationFormat, width: Int, height: Int, quality: Int, globalHeader: Bool) throws {
        self.format = format
        try super.init(encoderNamed: format.encoderName)
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = format.encoderPixelFormat
        context.pointee.time_base = AVRational(num: 1, den: Int32(format.ticksPerSecond))
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        if globalHeader { context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        // libwebp's tuning for outdoor photographs (its filter strength and sharpness).
        try open(options: format == .webp ? [("quality", String(quality)), ("preset", "photo")] : [])
    }
}
