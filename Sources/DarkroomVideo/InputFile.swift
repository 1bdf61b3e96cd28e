internal import CFFmpeg
import Foundation

/// Owns an `AVFormatContext` opened for reading, with bounded probing, and the video stream
/// Darkroom works on. Opening checks, in order: the file is not empty, FFmpeg recognises a
/// container (an MPEG-4 or QuickTime file without its `moov` box is named as truncated), there is
/// a video stream, and its frame size is within the pixel limit: before any frame is decoded.
///
/// FFmpeg reads the file through the descriptor it is open on (`DescriptorIO`), never by path, so
/// one open of the file serves the container, the box scan and a copy of its bytes.
final class InputFile {
    let context: UnsafeMutablePointer<AVFormatContext>
    /// FFmpeg's reads of the file (which keep the file open).
    private let io: DescriptorIO
    /// The index of the video stream (not cover art).
    let videoIndex: Int32
    /// The index of the audio stream that goes with it, if any.
    let audioIndex: Int32?
    /// Whether packets have been read, or the file seeked, since the streams were found: the next
    /// packet is then no longer the first.
    var moved = false

    /// How much of the file FFmpeg may read to find the streams (bytes), and how much of its
    /// timeline (microseconds): FFmpeg's defaults, written down so that they are a decision.
    static let probeBytes = 5_000_000
    static let probeMicroseconds = 5_000_000

    /// Opens the container in `file`. With `streamInfo`, FFmpeg then reads the first packets and
    /// decodes a frame or so of each stream to learn what the header leaves out (the pixel format,
    /// the frame rate); without it, only the header is read and no frame is decoded.
    init(file: OpenedFile, pixelLimit: Int, streamInfo: Bool = true) throws {
        let path = file.path
        try FFmpeg.requireStarted("open \(path)")
        io = try DescriptorIO(file)
        let context = try Self.open(io)
        self.context = context
        // Every stored property is set before anything else can throw, so `deinit` closes the context.
        let streams = (0..<Int(context.pointee.nb_streams)).map { context.pointee.streams[$0]! }
        let video = streams.first {
            $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
                && $0.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        }
        let audio = streams.first { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }
        videoIndex = video?.pointee.index ?? -1
        audioIndex = audio?.pointee.index
        guard let video else {
            throw VideoReadError(path: path, reason: .noVideoStream(audioCodec: audio.map { Self.codecName($0.pointee.codecpar.pointee.codec_id) }))
        }
        // The header's frame size is checked before FFmpeg decodes anything to learn more.
        try checkPixels(of: video, limit: pixelLimit)
        guard streamInfo else { return }
        let found = avformat_find_stream_info(context, nil)
        if found < 0 {
            throw VideoReadError(path: path, reason: .unreadable("cannot read the streams: \(VideoError.text(for: found))"))
        }
        try checkPixels(of: video, limit: pixelLimit)
    }

    /// Opens the file at `path` and its container, streams found.
    convenience init(path: String, pixelLimit: Int) throws {
        try self.init(file: OpenedFile(path: path), pixelLimit: pixelLimit)
    }

    /// Opens the container with bounded probing, or says why it cannot be.
    private static func open(_ io: DescriptorIO) throws -> UnsafeMutablePointer<AVFormatContext> {
        let path = io.file.path
        if io.file.size == 0 { throw VideoReadError(path: path, reason: .empty) }
        guard let allocated = avformat_alloc_context() else {
            throw VideoError(operation: "open", message: "out of memory for FFmpeg's format context", path: path)
        }
        allocated.pointee.pb = io.context
        var options: OpaquePointer?
        av_dict_set(&options, "probesize", String(probeBytes), 0)
        av_dict_set(&options, "analyzeduration", String(probeMicroseconds), 0)
        defer { av_dict_free(&options) }
        // The path names the file in FFmpeg's probing (its extension) and messages; the bytes come from `io`.
        var opened: UnsafeMutablePointer<AVFormatContext>? = allocated
        let result = avformat_open_input(&opened, path, nil, &options)
        guard result >= 0, let context = opened else {
            // FFmpeg has freed the context it was given (but not `io`, which is ours).
            if let boxes = MovieBoxes(io.file), !boxes.hasMovie {
                throw VideoReadError(path: path, reason: .missingMovieBox)
            }
            throw VideoReadError(path: path, reason: .notAVideo(VideoError.text(for: result)))
        }
        return context
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = self.context
        avformat_close_input(&context)
    }

    /// The file read, open for as long as this input lives.
    var file: OpenedFile { io.file }

    /// The file's path, for messages.
    var path: String { io.file.path }

    /// The video stream.
    var videoStream: UnsafeMutablePointer<AVStream> { context.pointee.streams[Int(videoIndex)]! }

    /// Every stream of the file.
    var streams: [UnsafeMutablePointer<AVStream>] {
        (0..<Int(context.pointee.nb_streams)).map { context.pointee.streams[$0]! }
    }

    /// Reads every packet from where the demuxer is to the end (from the first, straight after
    /// opening: the packets read to find the streams are handed out first), one at a time, handing
    /// each to `body` (its buffers are released after); a read error other than the end of the file
    /// is thrown with the reason.
    func forEachPacket(_ body: (Packet) throws -> Void) throws {
        moved = true
        let packet = try Packet()
        while true {
            let read = av_read_frame(context, packet.pointer)
            if read == FFmpegCode.endOfFile { return }
            if read < 0 {
                throw VideoReadError(path: path, reason: .unreadable("cannot read the video's packets: \(VideoError.text(for: read))"))
            }
            defer { av_packet_unref(packet.pointer) }
            try body(packet)
        }
    }

    /// The bytes of the video stream's first packets (at most `packets` of them, read from where the
    /// demuxer is), for what a codec's stream carries besides pictures (a camcorder's recording date).
    /// Decodes nothing; the demuxer has moved on after.
    func firstVideoPacketBytes(packets: Int) throws -> [UInt8] {
        moved = true
        let packet = try Packet()
        var bytes: [UInt8] = []
        var found = 0, read = 0
        while found < packets, read < packets * 16, av_read_frame(context, packet.pointer) >= 0 {
            defer { av_packet_unref(packet.pointer) }
            read += 1
            guard packet.pointer.pointee.stream_index == videoIndex, let data = packet.pointer.pointee.data else { continue }
            bytes += UnsafeBufferPointer(start: data, count: Int(packet.pointer.pointee.size))
            found += 1
        }
        return bytes
    }

    private func checkPixels(of stream: UnsafeMutablePointer<AVStream>, limit: Int) throws {
        let width = Int(stream.pointee.codecpar.pointee.width), height = Int(stream.pointee.codecpar.pointee.height)
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > limit {
            throw VideoReadError(path: path, reason: .tooManyPixels(width: width, height: height, limit: limit))
        }
    }

    /// FFmpeg's short name of a codec (`h264`, `hevc`, `aac`).
    static func codecName(_ id: AVCodecID) -> String {
        avcodec_get_name(id).map { String(cString: $0) } ?? "unknown"
    }
}
