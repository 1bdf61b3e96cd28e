internal import CFFmpeg
import Foundation

/// Writes an MP4 video picture by picture: H.264 or HEVC, yuv420p, BT.709 tagged, fast start,
/// every timestamp on the 1/frame-rate grid.
///
///     let writer = try VideoWriter(path: temp.path, encoding: VideoEncoding(width: 1920, height: 1080, frameTiming: .variable))
///     try writer.append(frame, lasting: 9)   // a photo for 0.3 s at 30 fps: converted once, encoded once
///     try writer.finish()                    // drains the encoder, writes the trailer
///
/// With `constant` timing the same picture is sent to the encoder once a frame period (9 frames in
/// the stream); with `variable` timing it is sent once, stamped with the period it starts at, and
/// its packet carries the duration, so the file's timeline is the same either way.
/// Nothing is complete until `finish()` returns: write to a temp file and publish it afterwards.
public final class VideoWriter {
    private let encoder: Encoder
    private let output: MP4Output
    private let stream: UnsafeMutablePointer<AVStream>
    private let packet: Packet
    private var finished = false
    /// Frame periods each frame in the encoder lasts, by pts, until its packet comes out.
    private var durations: [Int64: Int64] = [:]
    /// Where the last forced key frame started (`variable` timing keeps key frames in time).
    private var lastKeyframe: Int?
    /// How many frames were sent to the encoder so far (with `variable` timing, one per `append`).
    public private(set) var framesEncoded = 0
    /// How many frame periods the video lasts so far: the pts the next picture starts at.
    public private(set) var periods = 0
    /// The encoding this writer was made with.
    public var encoding: VideoEncoding { encoder.encoding }

    /// Creates the file at `path` and opens the encoder; throws with FFmpeg's reason when either fails.
    public init(path: String, encoding: VideoEncoding) throws {
        guard encoding.width > 0, encoding.height > 0, encoding.width % 2 == 0, encoding.height % 2 == 0 else {
            throw VideoError(operation: "create video", message: "width and height must be even and positive, got \(encoding.width)x\(encoding.height)", path: path)
        }
        guard encoding.frameRate > 0 else {
            throw VideoError(operation: "create video", message: "frame rate must be positive, got \(encoding.frameRate)", path: path)
        }
        output = try MP4Output(path: path)
        encoder = try Encoder(encoding, globalHeader: output.wantsGlobalHeader)
        stream = try output.addStream(for: encoder)
        packet = try Packet()
        try output.writeHeader(metadataKeys: false)
    }

    /// Shows `frame` for the next `length` frame periods (at least one). The frame is not copied:
    /// the encoder references its buffers, so a photo held for many periods costs one conversion,
    /// and with `variable` timing one encoded frame.
    public func append(_ frame: VideoFrame, lasting length: Int = 1) throws {
        guard !finished else { throw VideoError(operation: "append frame", message: "the video is already finished", path: output.path) }
        guard frame.width == encoding.width, frame.height == encoding.height else {
            throw VideoError(operation: "append frame",
                             message: "frame is \(frame.width)x\(frame.height), the video \(encoding.width)x\(encoding.height)", path: output.path)
        }
        guard length >= 1 else {
            throw VideoError(operation: "append frame", message: "a frame must last at least one frame period, got \(length)", path: output.path)
        }
        switch encoding.frameTiming {
        case .constant:
            for _ in 0..<length { try send(frame, lasting: 1) }
        case .variable:
            try send(frame, lasting: length)
        }
    }

    /// Flushes the encoder, writes the trailer with `moov` before `mdat`, and closes the file.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        while try !encoder.send(nil) { try drain() }
        try drain()
        try output.finish()
    }

    /// Sends one frame starting at the current period, forcing a key frame when `variable` timing
    /// has gone `VideoEncoding.keyframePeriods` without one.
    private func send(_ frame: VideoFrame, lasting length: Int) throws {
        let pts = Int64(periods)
        let forceKey = encoding.frameTiming == .variable
            && lastKeyframe.map { periods - $0 >= VideoEncoding.keyframePeriods } ?? true
        if forceKey { lastKeyframe = periods }
        frame.pointer.pointee.pts = pts
        frame.pointer.pointee.pict_type = forceKey ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        durations[pts] = Int64(length)
        while try !encoder.send(frame.pointer) { try drain() }
        framesEncoded += 1
        periods += length
        try drain()
    }

    /// Writes every packet the encoder has ready, each with the duration of its frame (the MP4
    /// muxer takes the last sample's duration from its packet: without it the last photo would
    /// last no time at all).
    private func drain() throws {
        while try encoder.receive(into: packet) {
            packet.pointer.pointee.duration = durations.removeValue(forKey: packet.pointer.pointee.pts) ?? 1
            try output.write(packet, to: stream, from: encoder.context.pointee.time_base)
        }
    }
}
