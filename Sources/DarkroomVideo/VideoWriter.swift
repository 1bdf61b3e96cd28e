internal import CFFmpeg
import Foundation

/// Writes an MP4 video frame by frame: H.264 or HEVC, yuv420p, BT.709 tagged, constant frame
/// rate, fast start.
///
///     let writer = try VideoWriter(path: temp.path, encoding: VideoEncoding(width: 1920, height: 1080))
///     try writer.append(frame, times: 9)   // the same frame for 0.3 s at 30 fps, converted once
///     try writer.finish()                  // drains the encoder, writes the trailer
///
/// Nothing is complete until `finish()` returns: write to a temp file and publish it afterwards.
public final class VideoWriter {
    private let encoder: Encoder
    private let output: MP4Output
    private let stream: UnsafeMutablePointer<AVStream>
    private let packet: Packet
    private var finished = false
    /// How many frames were sent to the encoder so far.
    public private(set) var frameCount = 0
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

    /// Sends `frame` `times` times in a row (one frame period each). The frame is not copied:
    /// the encoder references its buffers, so showing a photo for many frames costs one conversion.
    public func append(_ frame: VideoFrame, times: Int = 1) throws {
        guard !finished else { throw VideoError(operation: "append frame", message: "the video is already finished", path: output.path) }
        guard frame.width == encoding.width, frame.height == encoding.height else {
            throw VideoError(operation: "append frame",
                             message: "frame is \(frame.width)x\(frame.height), the video \(encoding.width)x\(encoding.height)", path: output.path)
        }
        for _ in 0..<max(0, times) {
            frame.pointer.pointee.pts = Int64(frameCount)
            while try !encoder.send(frame.pointer) { try drain() }
            frameCount += 1
            try drain()
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

    /// Writes every packet the encoder has ready.
    private func drain() throws {
        while try encoder.receive(into: packet) {
            try output.write(packet, to: stream, from: encoder.context.pointee.time_base)
        }
    }
}
