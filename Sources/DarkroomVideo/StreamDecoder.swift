internal import CFFmpeg
import Foundation

/// Owns an opened decoder (`AVCodecContext`) for one stream of an `InputFile`.
final class StreamDecoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    /// The stream decoded.
    let stream: UnsafeMutablePointer<AVStream>

    /// Opens FFmpeg's decoder for `stream`, with its own choice of threads.
    init(_ stream: UnsafeMutablePointer<AVStream>, path: String) throws {
        try FFmpeg.requireStarted("open the decoder of \(path)")
        let parameters = stream.pointee.codecpar!
        let name = InputFile.codecName(parameters.pointee.codec_id)
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw VideoReadError(path: path, reason: .unreadable("this FFmpeg has no decoder for \(name)"))
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw VideoError(operation: "allocate \(name) decoder", message: "out of memory", path: path)
        }
        self.context = context
        self.stream = stream
        try FFmpegCode.check(avcodec_parameters_to_context(context, parameters), "describe \(name) decoder", path: path)
        context.pointee.pkt_timebase = stream.pointee.time_base
        context.pointee.thread_count = 0
        let opened = avcodec_open2(context, codec, nil)
        if opened < 0 {
            throw VideoReadError(path: path, reason: .unreadable("cannot open the \(name) decoder: \(VideoError.text(for: opened))"))
        }
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = self.context
        avcodec_free_context(&context)
    }

    /// Sends a packet (nil: the end of the stream, drain). Returns FFmpeg's code: 0, EAGAIN when
    /// frames must be received first, or a decoding error for this packet.
    func send(_ packet: Packet?) -> Int32 {
        avcodec_send_packet(context, packet?.pointer)
    }

    /// Receives the next frame into `frame`: 0, EAGAIN (send more), EOF (drained) or an error.
    func receive(into frame: FrameHandle) -> Int32 {
        avcodec_receive_frame(context, frame.pointer)
    }

    /// Forgets buffered frames (after a seek, or to decode again after draining).
    func flush() {
        avcodec_flush_buffers(context)
    }
}

/// Owns one reusable `AVFrame`.
final class FrameHandle {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws {
        try FFmpeg.requireStarted("allocate frame")
        guard let frame = av_frame_alloc() else { throw VideoError(operation: "allocate frame", message: "out of memory") }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// The frame's presentation time in its stream's time base (FFmpeg's best guess), if any.
    var timestamp: Int64? {
        let pts = pointer.pointee.best_effort_timestamp
        return pts == darkroom_av_nopts_value() ? nil : pts
    }

    /// Drops the frame's buffers (the handle can be filled again).
    func clear() { av_frame_unref(pointer) }
}
