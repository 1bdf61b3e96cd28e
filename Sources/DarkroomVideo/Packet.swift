internal import CFFmpeg

/// Owns one reusable `AVPacket`.
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws {
        try FFmpeg.requireStarted("allocate packet")
        guard let packet = av_packet_alloc() else { throw VideoError(operation: "allocate packet", message: "out of memory") }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }
}
