internal import CFFmpeg
import Foundation

/// The video half of a transcode: decoder ─▶ filters (scale, tone map, turn upright, yuv420p) ─▶
/// encoder ─▶ MP4 stream. Keeps its source's timestamps (variable frame rates stay as they were).
final class VideoTrack {
    private let decoder: StreamDecoder
    private let encoder: Encoder
    private let output: MP4Output
    private let stream: UnsafeMutablePointer<AVStream>
    private let chain: String
    private let timeBase: AVRational
    private var graph: FilterGraph?
    private let decoded: FrameHandle
    private let filtered: FrameHandle
    private let packet: Packet
    private var lastTimestamp = Int64.min
    private(set) var framesWritten = 0
    private(set) var packetsSkipped = 0
    private(set) var firstProblem: String?

    init(input: InputFile, output: MP4Output, settings: TranscodeSettings, width: Int, height: Int) throws {
        let source = input.videoStream
        let info = VideoStreamInfo(source)
        decoder = try StreamDecoder(source, path: input.path)
        let turned = info.rotation % 180 != 0
        chain = ColourChains.chain(for: info, width: turned ? height : width, height: turned ? width : height,
                                   output: .yuv420p, upright: true)
        timeBase = source.pointee.time_base
        let rate = Int((info.frameRate ?? 30).rounded())
        encoder = try Encoder(VideoEncoding(codec: settings.codec, width: width, height: height, frameRate: min(max(rate, 1), 240),
                                            crf: settings.crf, preset: settings.preset),
                              globalHeader: output.wantsGlobalHeader, timeBase: timeBase)
        self.output = output
        stream = try output.addStream(for: encoder)
        stream.pointee.avg_frame_rate = source.pointee.avg_frame_rate
        output.copyStreamTags(from: source, to: stream)
        decoded = try FrameHandle()
        filtered = try FrameHandle()
        packet = try Packet()
    }

    /// Decodes a packet and encodes what comes of it; nil flushes everything to the end.
    func send(_ packet: Packet?) throws {
        var sent = decoder.send(packet)
        if sent == FFmpegCode.again {
            try receiveFrames()
            sent = decoder.send(packet)
        }
        if sent < 0 && sent != FFmpegCode.endOfFile { skip(sent) }
        try receiveFrames()
        if packet == nil {
            try graph?.push(nil)
            try pullFiltered()
            try encode(nil)
        }
    }

    private func skip(_ code: Int32) {
        packetsSkipped += 1
        if firstProblem == nil { firstProblem = VideoError.text(for: code) }
    }

    private func receiveFrames() throws {
        var errors = 0
        while true {
            let received = decoder.receive(into: decoded)
            if received == FFmpegCode.again || received == FFmpegCode.endOfFile { return }
            if received < 0 {
                skip(received)
                errors += 1
                if errors > 16 { return }
                continue
            }
            let frame = decoded.pointer
            frame.pointee.pts = decoded.timestamp ?? (lastTimestamp == .min ? 0 : lastTimestamp + 1)
            if graph == nil { graph = try FilterGraph(video: frame, timeBase: timeBase, chain: chain) }
            try graph?.push(frame)
            decoded.clear()
            try pullFiltered()
        }
    }

    private func pullFiltered() throws {
        guard let graph else { return }
        while try graph.pull(into: filtered) {
            let frame = filtered.pointer
            // The encoders want strictly increasing timestamps.
            if frame.pointee.pts <= lastTimestamp { frame.pointee.pts = lastTimestamp + 1 }
            lastTimestamp = frame.pointee.pts
            frame.pointee.pict_type = AV_PICTURE_TYPE_NONE
            try encode(frame)
            filtered.clear()
            framesWritten += 1
        }
    }

    private func encode(_ frame: UnsafeMutablePointer<AVFrame>?) throws {
        while try !encoder.send(frame) { try drain() }
        try drain()
    }

    private func drain() throws {
        while try encoder.receive(into: packet) {
            try output.write(packet, to: stream, from: encoder.context.pointee.time_base)
        }
    }
}

/// The sound of a transcode: AAC copied as it is; anything else decoded and encoded to AAC
/// (mono stays mono, more channels become stereo).
final class AudioTrack {
    private let source: UnsafeMutablePointer<AVStream>
    private let output: MP4Output
    private let stream: UnsafeMutablePointer<AVStream>
    /// Nil when the packets are copied.
    private let reencoding: AudioReencoding?
    var copies: Bool { reencoding == nil }

    init(_ source: UnsafeMutablePointer<AVStream>, output: MP4Output, path: String) throws {
        self.source = source
        self.output = output
        if source.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_AAC {
            stream = try output.addCopy(of: source)
            reencoding = nil
        } else {
            let reencoding = try AudioReencoding(source, path: path, globalHeader: output.wantsGlobalHeader)
            stream = try output.addStream()
            try FFmpegCode.check(avcodec_parameters_from_context(stream.pointee.codecpar, reencoding.encoder),
                                 "describe audio stream", path: output.path)
            stream.pointee.time_base = reencoding.encoder.pointee.time_base
            output.copyStreamTags(from: source, to: stream)
            self.reencoding = reencoding
        }
    }

    /// Copies or re-encodes a packet; nil flushes.
    func send(_ packet: Packet?) throws {
        guard let reencoding else {
            if let packet { try output.write(packet, to: stream, from: source.pointee.time_base) }
            return
        }
        try reencoding.send(packet) { encoded in
            try output.write(encoded, to: stream, from: reencoding.encoder.pointee.time_base)
        }
    }
}

/// Decoder ─▶ `aformat` (planar float, the encoder's rate and layout, 1024-sample frames) ─▶ AAC.
final class AudioReencoding {
    private let decoder: StreamDecoder
    let encoder: UnsafeMutablePointer<AVCodecContext>
    private let chain: String
    private var graph: FilterGraph?
    private let decoded: FrameHandle
    private let filtered: FrameHandle
    private let packet: Packet
    /// The next frame's timestamp in samples; nil until the first frame sets where the sound starts.
    private var nextTimestamp: Int64?

    /// Sample rates the AAC encoder takes; others are resampled to 48 kHz.
    static let aacRates: Set<Int32> = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000]

    init(_ source: UnsafeMutablePointer<AVStream>, path: String, globalHeader: Bool) throws {
        decoder = try StreamDecoder(source, path: path)
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_AAC), let context = avcodec_alloc_context3(codec) else {
            throw VideoError(operation: "open AAC encoder", message: "this FFmpeg has no AAC encoder", path: path)
        }
        encoder = context
        let rate = Self.aacRates.contains(decoder.context.pointee.sample_rate) ? decoder.context.pointee.sample_rate : 48000
        let channels: Int32 = decoder.context.pointee.ch_layout.nb_channels == 1 ? 1 : 2
        context.pointee.sample_rate = rate
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        av_channel_layout_default(&context.pointee.ch_layout, channels)
        context.pointee.bit_rate = channels == 1 ? 96_000 : 160_000
        context.pointee.time_base = AVRational(num: 1, den: rate)
        if globalHeader { context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        chain = "aformat=sample_fmts=fltp:sample_rates=\(rate):channel_layouts=\(channels == 1 ? "mono" : "stereo")"
        decoded = try FrameHandle()
        filtered = try FrameHandle()
        packet = try Packet()
        try FFmpegCode.check(avcodec_open2(context, codec, nil), "open AAC encoder", path: path)
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = encoder
        avcodec_free_context(&context)
    }

    /// Decodes, converts and encodes one packet (nil: flush), handing each AAC packet to `write`.
    func send(_ packet: Packet?, write: (Packet) throws -> Void) throws {
        _ = decoder.send(packet)  // a damaged audio packet is left out: the picture matters more
        while decoder.receive(into: decoded) >= 0 {
            if graph == nil {
                graph = try FilterGraph(audio: decoded.pointer, timeBase: decoder.stream.pointee.time_base, chain: chain,
                                        frameSize: encoder.pointee.frame_size)
            }
            try graph?.push(decoded.pointer)
            decoded.clear()
            try encodeFiltered(write)
        }
        if packet == nil {
            try graph?.push(nil)
            try encodeFiltered(write)
            try encode(nil, write)
        }
    }

    private func encodeFiltered(_ write: (Packet) throws -> Void) throws {
        guard let graph else { return }
        while try graph.pull(into: filtered) {
            // Sample-counted timestamps in the encoder's 1/rate time base, from where the sound starts.
            let pts = filtered.pointer.pointee.pts
            let start = nextTimestamp ?? (pts == darkroom_av_nopts_value() ? 0 : av_rescale_q(pts, graph.outputTimeBase, encoder.pointee.time_base))
            filtered.pointer.pointee.pts = start
            nextTimestamp = start + Int64(filtered.pointer.pointee.nb_samples)
            try encode(filtered.pointer, write)
            filtered.clear()
        }
    }

    private func encode(_ frame: UnsafeMutablePointer<AVFrame>?, _ write: (Packet) throws -> Void) throws {
        try FFmpegCode.check(avcodec_send_frame(encoder, frame), frame == nil ? "flush AAC encoder" : "encode audio")
        while true {
            let received = avcodec_receive_packet(encoder, packet.pointer)
            if received == FFmpegCode.again || received == FFmpegCode.endOfFile { return }
            try FFmpegCode.check(received, "receive AAC packet")
            try write(packet)
            av_packet_unref(packet.pointer)
        }
    }
}
