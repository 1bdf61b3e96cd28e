internal import CFFmpeg
import Foundation

/// Writes an animated GIF or WebP picture by picture, each picture shown for its own time, looping
/// forever. Pictures stream through: each is converted (a palette of its own for GIF), encoded and
/// let go before the next comes, so memory does not grow with the number of pictures (libwebp keeps
/// the compressed frames until the file is assembled).
///
///     let writer = try AnimationWriter(path: temp.path, format: .gif, width: 720, height: 405)
///     try writer.append(rgb: pixels, bytesPerRow: 720 * 3, lasting: 30)   // 0.3 s: 30 ticks of 1/100 s
///     try writer.finish()
///
/// Nothing is complete until `finish()` returns: write to a temp file and publish it afterwards.
public final class AnimationWriter {
    /// The format written.
    public let format: AnimationFormat
    /// Picture width in pixels.
    public let width: Int
    /// Picture height in pixels.
    public let height: Int
    private let output: MP4Output
    private let encoder: AnimationEncoder
    private let filters: FilterGraph
    private let stream: UnsafeMutablePointer<AVStream>
    private let filtered: FrameHandle
    private let packet: Packet
    /// Ticks each frame in the encoder lasts, by pts, until its packet comes out.
    private var durations: [Int64: Int64] = [:]
    private var finished = false
    /// How long the last picture appended lasts, in ticks.
    private var lastLength: Int?
    /// How many pictures were appended so far.
    public private(set) var framesWritten = 0
    /// How long the animation lasts so far, in 1/`format.ticksPerSecond` s.
    public private(set) var ticks = 0

    /// Creates the file at `path` and opens the encoder; `quality` (0-100) applies to WebP. A GIF
    /// gets each frame its own palette, or `palette` for every frame.
    public init(path: String, format: AnimationFormat, width: Int, height: Int, quality: Int = 75, palette: GIFPalette? = nil) throws {
        guard width > 0, height > 0 else {
            throw VideoError(operation: "create animation", message: "width and height must be positive, got \(width)x\(height)", path: path)
        }
        self.format = format
        self.width = width
        self.height = height
        output = try MP4Output(path: path, format: format.rawValue)
        encoder = try AnimationEncoder(format: format, width: width, height: height, quality: quality,
                                       globalHeader: output.wantsGlobalHeader)
        let prototype = try FrameHandle.rgb24Shape(width: width, height: height)
        let fixedPalette = format == .gif ? palette : nil
        filters = try FilterGraph(video: prototype.pointer, timeBase: encoder.context.pointee.time_base,
                                  chain: format.filterChain(fixedPalette: fixedPalette != nil),
                                  extraInputs: fixedPalette.map { [(label: AnimationFormat.paletteLabel, frame: $0.frame.pointer)] } ?? [])
        if let fixedPalette {
            // One palette frame, then the end of that input: paletteuse keeps using it.
            try filters.push(fixedPalette.frame.pointer, to: AnimationFormat.paletteLabel)
            try filters.push(nil, to: AnimationFormat.paletteLabel)
        }
        stream = try output.addStream()
        try FFmpegCode.check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.context), "describe \(format.rawValue) stream", path: path)
        stream.pointee.time_base = encoder.context.pointee.time_base
        filtered = try FrameHandle()
        packet = try Packet()
        // Loop forever (0); GIF's muxer writes it as the NETSCAPE2.0 extension, WebP's in the ANIM chunk.
        try output.writeHeader(muxerOptions: ["loop": "0"])
    }

    /// Shows a picture for `length` ticks (at least one): `rgb` holds `height` rows of `bytesPerRow`
    /// bytes, 3 bytes (R, G, B) a pixel.
    public func append(rgb: Data, bytesPerRow: Int, lasting length: Int) throws {
        guard !finished else { throw VideoError(operation: "append picture", message: "the animation is already finished", path: output.path) }
        guard length >= 1 else {
            throw VideoError(operation: "append picture", message: "a picture must last at least one tick, got \(length)", path: output.path)
        }
        let picture = try FrameHandle.rgb24(rgb, width: width, height: height, bytesPerRow: bytesPerRow)
        picture.pointer.pointee.pts = Int64(ticks)
        durations[Int64(ticks)] = Int64(length)
        try filters.push(picture.pointer)
        framesWritten += 1
        ticks += length
        lastLength = length
        try encodeFiltered()
    }

    /// Flushes the filters and the encoder, writes the trailer and closes the file.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        try filters.push(nil)
        try encodeFiltered()
        while try !encoder.send(nil) { try drain() }
        try drain()
        // The GIF muxer writes each frame's delay when the next frame comes, and the last one's as
        // `final_delay` (by default the delay before it: a crossfade frame's).
        if format == .gif, let last = lastLength { try output.setMuxerOption("final_delay", to: Int64(last)) }
        try output.finish()
    }

    /// Encodes every frame the filters have ready.
    private func encodeFiltered() throws {
        while try filters.pull(into: filtered) {
            defer { filtered.clear() }
            while try !encoder.send(filtered.pointer) { try drain() }
            try drain()
        }
    }

    /// Writes every packet the encoder has ready, each with its picture's duration (the muxers
    /// take the last frame's delay from it).
    private func drain() throws {
        while try encoder.receive(into: packet) {
            let pts = packet.pointer.pointee.pts
            if let duration = durations.removeValue(forKey: pts) { packet.pointer.pointee.duration = duration }
            try output.write(packet, to: stream, from: encoder.context.pointee.time_base)
        }
    }
}
