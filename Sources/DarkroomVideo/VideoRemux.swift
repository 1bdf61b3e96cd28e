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
        if info.container == "mp4", ISOBoxes(input.file)?.movieFirst == true { return .alreadyMP4 }
        return .remux
    }

    /// Remuxes the video into an MP4 at `destination` (which it creates), every packet from the first.
    public func remux(to destination: String) throws {
        let input = try inputAtStart()
        let output = try MP4Output(path: destination)
        var mapped: [Int32: (stream: UnsafeMutablePointer<AVStream>, timeBase: AVRational)] = [:]
        for stream in input.streams {
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
