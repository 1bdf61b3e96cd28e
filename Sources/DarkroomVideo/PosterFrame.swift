internal import CFFmpeg
import Foundation

/// The picture that stands for a video: a frame about one second in (the first frame of a clip
/// shorter than two seconds), passing over black frames (fades from black), upright, tone-mapped
/// to SDR when the video is HDR, and scaled in FFmpeg to the size asked for before it becomes RGB.
///
///     let picture = try video.posterPicture(width: 400, height: 225)
public enum PosterFrame {
    /// Where the poster is taken in clips at least `shortClip` seconds long.
    public static let preferredTime = 1.0
    /// Clips shorter than this show their first frame.
    public static let shortClip = 2.0
    /// A picture whose mean level is below this (0...255) counts as black.
    public static let blackLevel = 16.0
    /// How many moments are tried, a second apart, when the frames are black.
    public static let attempts = 4
    /// At most this many packets are read for one moment (a hostile file cannot make it endless).
    static let packetBudget = 3_000

    /// The poster of the video `info` describes, `width` x `height` as shown (upright), opening the
    /// file again (a step that has the video open asks its `VideoSource`); the caller keeps the
    /// displayed aspect ratio and never asks for more than the video has.
    public static func picture(from info: VideoInfo, width: Int, height: Int, pixelLimit: Int) throws -> RGBPicture {
        try VideoSource(path: info.path, pixelLimit: pixelLimit).posterPicture(width: width, height: height)
    }

    /// The poster of `video`, `width` x `height` as shown.
    static func picture(of video: VideoSource, width: Int, height: Int) throws -> RGBPicture {
        let info = video.info, input = video.input
        let decoder = try StreamDecoder(input.videoStream, path: info.path)
        // Frames no other frame refers to need not be decoded on the way to the moment: the poster
        // is then the first reference frame at or after it, a frame or two later at most.
        decoder.context.pointee.skip_frame = AVDISCARD_NONREF
        let stream = info.video
        let turned = stream.rotation % 180 != 0
        let chain = ColourChains.chain(for: stream, width: turned ? height : width, height: turned ? width : height,
                                       output: .rgb24, upright: true)
        let start = info.duration.map { $0 >= shortClip ? preferredTime : 0 } ?? preferredTime
        let seeker = FrameSeeker(input: input, decoder: decoder)
        var best: RGBPicture?
        var lastProblem: String?
        for attempt in 0..<attempts {
            let time = start + Double(attempt)
            if attempt > 0, let duration = info.duration, time >= duration { break }
            let frame: FrameHandle
            do {
                guard let found = try seeker.frame(at: time) else { break }
                frame = found
            } catch let error as PosterProblem {
                lastProblem = error.reason
                continue
            }
            let picture = try render(frame, timeBase: input.videoStream.pointee.time_base, chain: chain, path: info.path)
            if picture.meanLevel >= blackLevel { return picture }
            if best.map({ picture.meanLevel > $0.meanLevel }) ?? true { best = picture }
        }
        if let best { return best }
        throw VideoReadError(path: info.path, reason: .undecodable(
            "no frame of the video could be decoded" + (lastProblem.map { " (\($0))" } ?? "")))
    }

    /// Runs one decoded frame through `chain` and copies out its RGB rows.
    private static func render(_ frame: FrameHandle, timeBase: AVRational, chain: String, path: String) throws -> RGBPicture {
        let graph = try FilterGraph(video: frame.pointer, timeBase: timeBase, chain: chain)
        try graph.push(frame.pointer)
        try graph.push(nil)
        let out = try FrameHandle()
        guard try graph.pull(into: out) else {
            throw VideoError(operation: "make poster frame", message: "the filters '\(chain)' gave no picture", path: path)
        }
        let width = Int(out.pointer.pointee.width), height = Int(out.pointer.pointee.height)
        let stride = Int(darkroom_frame_linesize(out.pointer, 0))
        guard let base = darkroom_frame_plane(out.pointer, 0), stride >= width * 3 else {
            throw VideoError(operation: "make poster frame", message: "the filters gave an empty picture", path: path)
        }
        var bytes = Data(count: width * height * 3)
        bytes.withUnsafeMutableBytes { raw in
            let target = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for row in 0..<height {
                (target + row * width * 3).update(from: base + row * stride, count: width * 3)
            }
        }
        return RGBPicture(width: width, height: height, bytes: bytes)
    }
}

/// Why no frame came out for one moment (the poster tries the next).
struct PosterProblem: Error {
    var reason: String
}

/// Decodes the frame shown at a given time: seeks to the key frame before it, then decodes
/// forward, passing over packets that fail to decode.
struct FrameSeeker {
    let input: InputFile
    let decoder: StreamDecoder

    /// The first frame at or after `seconds` (from the stream's start), or the last frame when the
    /// stream ends before; nil when the stream has no frame at all there.
    func frame(at seconds: Double) throws -> FrameHandle? {
        let stream = input.videoStream
        input.moved = true
        let origin = stream.pointee.start_time == darkroom_av_nopts_value() ? 0 : stream.pointee.start_time
        let target = origin + Int64((seconds / av_q2d(stream.pointee.time_base)).rounded())
        // To the key frame before the moment. Not every file can seek there: a damaged index, or an
        // MPEG-TS file that lands on a frame needing earlier ones. Then decoding starts at the start.
        if seconds > 0, av_seek_frame(input.context, input.videoIndex, target, AVSEEK_FLAG_BACKWARD) >= 0,
           let frame = try? decodeForward(to: target) {
            return frame
        }
        if av_seek_frame(input.context, input.videoIndex, origin, AVSEEK_FLAG_BACKWARD) < 0 {
            _ = av_seek_frame(input.context, -1, 0, AVSEEK_FLAG_BYTE)
        }
        return try decodeForward(to: target)
    }

    /// Decodes from where the file is to the first frame stamped at or after `target`.
    private func decodeForward(to target: Int64) throws -> FrameHandle? {
        let stream = input.videoStream
        decoder.flush()
        let packet = try Packet()
        var frame = try FrameHandle()
        var candidate: FrameHandle?
        var failures = 0, lastError: Int32 = 0, packets = 0, ended = false
        func outcome() throws -> FrameHandle? {
            if let candidate { return candidate }
            if failures > 0 { throw PosterProblem(reason: "\(failures) packets failed to decode: \(VideoError.text(for: lastError))") }
            return nil
        }
        while true {
            // Take every frame the decoder has ready.
            while true {
                let received = decoder.receive(into: frame)
                if received == FFmpegCode.again { break }
                if received == FFmpegCode.endOfFile { return try outcome() }
                if received < 0 {
                    failures += 1; lastError = received
                    if failures > PosterFrame.packetBudget { return try outcome() }
                    if ended { continue } else { break }
                }
                guard let timestamp = frame.timestamp, timestamp < target - halfFrame(stream) else { return frame }
                // Before the moment: kept in case the stream ends first.
                candidate = frame
                frame = try FrameHandle()
            }
            if ended { continue }
            // Then feed the next packet of the video stream.
            guard packets < PosterFrame.packetBudget else {
                if let candidate { return candidate }
                throw PosterProblem(reason: "no frame within \(PosterFrame.packetBudget) packets")
            }
            if av_read_frame(input.context, packet.pointer) < 0 {
                ended = true
                _ = decoder.send(nil)
                continue
            }
            defer { av_packet_unref(packet.pointer) }
            guard packet.pointer.pointee.stream_index == input.videoIndex else { continue }
            packets += 1
            let sent = decoder.send(packet)
            if sent < 0 && sent != FFmpegCode.again { failures += 1; lastError = sent }
        }
    }

    /// Half a frame in stream ticks, so a frame stamped a hair before the moment still counts.
    private func halfFrame(_ stream: UnsafeMutablePointer<AVStream>) -> Int64 {
        let rate = stream.pointee.avg_frame_rate
        guard rate.num > 0, rate.den > 0 else { return 0 }
        return Int64((0.5 / av_q2d(rate) / av_q2d(stream.pointee.time_base)).rounded(.down))
    }
}

extension VideoSource {
    /// The video's poster frame (see `PosterFrame`), `width` x `height` as shown (upright): the
    /// caller keeps the displayed aspect ratio and never asks for more than the video has.
    public func posterPicture(width: Int, height: Int) throws -> RGBPicture {
        try PosterFrame.picture(of: self, width: width, height: height)
    }
}
