internal import CFFmpeg
import Foundation

/// Putting a video's streams into an MP4 without re-encoding them (a remux): every stream's packets
/// copied as they are, with the container's tags (creation dates, Apple's keys), each stream's
/// tags and the display matrix, `moov` first. Reads and writes one packet at a time: memory does
/// not grow with the file.
public enum VideoRemux {
    /// What `copy` should do with a file.
    public enum Plan: Sendable, Equatable {
        /// Every stream fits in MP4: remux.
        case remux
        /// Already an MP4 with `moov` first: its bytes are what a remux would write.
        case alreadyMP4
        /// Some stream does not fit in MP4 (PCM sound, a QuickTime timecode or metadata track, a
        /// codec MP4 does not carry): keep the original bytes. Names the streams.
        case keepOriginal(reason: String)
    }

    /// Decides how `info`'s file is put into the library without re-encoding (opening it again: a
    /// step that has the video open asks its `VideoSource`).
    public static func plan(for info: VideoInfo, pixelLimit: Int) throws -> Plan {
        try VideoSource(path: info.path, pixelLimit: pixelLimit).remuxPlan()
    }

    /// Remuxes `source` into an MP4 at `destination` (which it creates).
    public static func remux(from source: String, to destination: String, pixelLimit: Int) throws {
        try VideoSource(path: source, pixelLimit: pixelLimit).remux(to: destination)
    }

    /// Remuxes the video and sound of `source` into a file to share at `destination` (see
    /// `VideoSource.remuxForSharing`).
    public static func remuxForSharing(from source: String, to destination: String, container: String = "mp4",
                                       keepLocation: Bool, pixelLimit: Int) throws {
        try VideoSource(path: source, pixelLimit: pixelLimit).remuxForSharing(to: destination, container: container, keepLocation: keepLocation)
    }

    /// Whether `info`'s streams can be shared by `remuxForSharing` without re-encoding: an H.264
    /// 8-bit SDR video no larger than `longEdge` on its long side, and AAC sound or none.
    public static func isShareable(_ info: VideoInfo, longEdge: Int) -> Bool {
        info.video.codec == "h264" && info.video.bitDepth == 8 && info.video.hdr == nil
            && max(info.video.displayWidth, info.video.displayHeight) <= longEdge
            && (info.audioCodec == nil || info.audioCodec == "aac")
    }
}

extension VideoSource {
    /// How the video is put into the library without re-encoding (see `VideoRemux.Plan`).
    public func remuxPlan() throws -> VideoRemux.Plan {
        let misfits = input.streams.filter { !MP4Output.accepts($0.pointee.codecpar.pointee.codec_id) }.map { stream -> String in
            let kind = av_get_media_type_string(stream.pointee.codecpar.pointee.codec_type).map { String(cString: $0) } ?? "data"
            let tag = VideoStreamInfo.fourCC(stream.pointee.codecpar.pointee.codec_tag).map { " '\($0)'" } ?? ""
            return "\(kind) stream \(stream.pointee.index) (\(InputFile.codecName(stream.pointee.codecpar.pointee.codec_id))\(tag))"
        }
        if !misfits.isEmpty { return .keepOriginal(reason: misfits.joined(separator: ", ") + " cannot go in MP4") }
        if info.container == "mp4", MovieBoxes(input.file)?.movieFirst == true { return .alreadyMP4 }
        return .remux
    }

    /// Remuxes the video into an MP4 at `destination` (which it creates), every packet from the first.
    public func remux(to destination: String) throws {
        try remux(to: destination, sharing: nil)
    }

    /// Remuxes the video and sound into a file to share at `destination` (which it creates):
    /// `container` `mp4` or `mov`, every other stream (timed metadata, timecode, a GPS track) left
    /// out, and unless `keepLocation` every tag that says where it was taken (`VideoLocationTags`).
    /// Creation dates, make and model, the display matrix are kept.
    public func remuxForSharing(to destination: String, container: String = "mp4", keepLocation: Bool) throws {
        try remux(to: destination, sharing: (container, keepLocation))
    }

    private func remux(to destination: String, sharing: (container: String, keepLocation: Bool)?) throws {
        let input = try inputAtStart()
        let output = try MP4Output(path: destination, format: sharing?.container ?? "mp4")
        output.leavesOutLocation = sharing.map { !$0.keepLocation } ?? false
        var mapped: [Int32: (stream: UnsafeMutablePointer<AVStream>, timeBase: AVRational)] = [:]
        let streams = sharing == nil ? input.streams : input.streams.filter { $0.pointee.index == input.videoIndex || $0.pointee.index == input.audioIndex }
        for stream in streams {
            let copy = try output.addCopy(of: stream)
            if let matrix = darkroom_stream_display_matrix(stream) {
                try FFmpegCode.check(darkroom_stream_set_display_matrix(copy, matrix), "copy display matrix", path: destination)
            }
            mapped[stream.pointee.index] = (copy, stream.pointee.time_base)
        }
        output.copyContainerTags(from: input.context)
        try output.writeHeader()
        try input.forEachPacket { packet in
            guard let target = mapped[packet.pointer.pointee.stream_index] else { return }
            try output.write(packet, to: target.stream, from: target.timeBase)
        }
        try output.finish()
    }
}
