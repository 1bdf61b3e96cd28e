internal import CFFmpeg
import Foundation

/// An `AVCodecContext` for one named encoder, allocated and freed here, with the calls every encode
/// loop makes: open it once set up, frames in (`send`), packets out (`receive`). `Encoder` (H.264,
/// HEVC) and `AnimationEncoder` (GIF, WebP) set up their own and open it.
class EncoderContext {
    let context: UnsafeMutablePointer<AVCodecContext>
    /// FFmpeg's name for the encoder (`libx264`, `gif`), for messages.
    let encoderName: String
    private let codec: UnsafePointer<AVCodec>

    /// Finds the encoder called `name` and allocates its context, not yet opened.
    init(encoderNamed name: String) throws {
        try FFmpeg.requireStarted("open encoder \(name)")
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw VideoError(operation: "find encoder", message: "this FFmpeg has no \(name) encoder")
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw VideoError(operation: "allocate encoder", message: "out of memory")
        }
        self.codec = codec
        self.context = context
        self.encoderName = name
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = self.context
        avcodec_free_context(&context)
    }

    /// Sets the encoder's private options (`preset`, `crf`...), then opens it.
    func open(options: [(String, String)]) throws {
        for (key, value) in options {
            try FFmpegCode.check(av_opt_set(context.pointee.priv_data, key, value, 0), "set \(encoderName) option \(key)=\(value)")
        }
        try FFmpegCode.check(avcodec_open2(context, codec, nil), "open encoder \(encoderName)")
    }

    /// Sends a frame (nil: no more frames, flush). Returns false when the encoder's output must be
    /// read first (EAGAIN).
    func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws -> Bool {
        let result = avcodec_send_frame(context, frame)
        if result == FFmpegCode.again { return false }
        try FFmpegCode.check(result, frame == nil ? "flush \(encoderName)" : "encode frame with \(encoderName)")
        return true
    }

    /// Fills `packet` with the next encoded packet; false when none is ready yet or the encoder is drained.
    func receive(into packet: Packet) throws -> Bool {
        let result = avcodec_receive_packet(context, packet.pointer)
        if result == FFmpegCode.again || result == FFmpegCode.endOfFile { return false }
        try FFmpegCode.check(result, "receive packet from \(encoderName)")
        return true
    }
}
