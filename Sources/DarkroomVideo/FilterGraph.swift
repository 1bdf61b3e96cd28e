internal import CFFmpeg
import Foundation

/// Owns a configured libavfilter graph with one source and one sink: frames go in at the source
/// (`buffer` or `abuffer`), through a chain written in FFmpeg's filter syntax, and come out at the sink.
///
///     decoded frame ─▶ [buffer] ─▶ zscale,tonemap,...,format=rgb24 ─▶ [buffersink] ─▶ frame
final class FilterGraph {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    /// The sources after the first, by their label in the chain (a GIF's fixed palette).
    private let extraSources: [String: UnsafeMutablePointer<AVFilterContext>]
    private let sink: UnsafeMutablePointer<AVFilterContext>
    /// The chain, for error messages.
    let chain: String

    /// A graph for video frames shaped like `frame` (size, pixel format, aspect), whose timestamps
    /// are in `timeBase`.
    /// `extraInputs` are more video sources, each shaped like its frame and fed with `push(_:to:)`,
    /// that the chain reads by label (`[palette]`); the main source is `[in]`.
    convenience init(video frame: UnsafeMutablePointer<AVFrame>, timeBase: AVRational, chain: String,
                     extraInputs: [(label: String, frame: UnsafeMutablePointer<AVFrame>)] = []) throws {
        try self.init(source: "buffer", arguments: Self.videoArguments(frame, timeBase: timeBase), sink: "buffersink", chain: chain,
                      extraInputs: extraInputs.map { ($0.label, Self.videoArguments($0.frame, timeBase: timeBase)) })
    }

    /// The `buffer` source's arguments for frames shaped like `frame`.
    private static func videoArguments(_ frame: UnsafeMutablePointer<AVFrame>, timeBase: AVRational) -> String {
        let f = frame.pointee
        let format = av_get_pix_fmt_name(AVPixelFormat(rawValue: f.format)).map { String(cString: $0) } ?? "\(f.format)"
        let aspect = f.sample_aspect_ratio.num > 0 ? f.sample_aspect_ratio : AVRational(num: 1, den: 1)
        return "video_size=\(f.width)x\(f.height):pix_fmt=\(format):time_base=\(timeBase.num)/\(timeBase.den)"
            + ":pixel_aspect=\(aspect.num)/\(aspect.den)"
    }

    /// A graph for audio frames shaped like `frame` (rate, sample format, channel layout), whose
    /// timestamps are in `timeBase`; `frameSize` makes every output frame that many samples (the
    /// AAC encoder takes 1024), 0 leaves them as they come.
    convenience init(audio frame: UnsafeMutablePointer<AVFrame>, timeBase: AVRational, chain: String, frameSize: Int32) throws {
        let f = frame.pointee
        let format = av_get_sample_fmt_name(AVSampleFormat(rawValue: f.format)).map { String(cString: $0) } ?? "\(f.format)"
        var layout = [CChar](repeating: 0, count: 128)
        var channels = f.ch_layout
        if av_channel_layout_describe(&channels, &layout, layout.count) < 0 { layout = Array("stereo".utf8CString) }
        let arguments = "time_base=\(timeBase.num)/\(timeBase.den):sample_rate=\(f.sample_rate):sample_fmt=\(format)"
            + ":channel_layout=\(String(filledBuffer: layout))"
        try self.init(source: "abuffer", arguments: arguments, sink: "abuffersink", chain: chain)
        if frameSize > 0 { av_buffersink_set_frame_size(sink, UInt32(frameSize)) }
    }

    private init(source sourceName: String, arguments: String, sink sinkName: String, chain: String,
                 extraInputs: [(label: String, arguments: String)] = []) throws {
        try FFmpeg.requireStarted("allocate filter graph", needing: .filters)
        self.chain = chain
        guard let graph = avfilter_graph_alloc() else { throw VideoError(operation: "allocate filter graph", message: "out of memory") }
        do {
            (source, extraSources, sink) = try Self.build(graph, source: sourceName, arguments: arguments, sink: sinkName,
                                                          chain: chain, extraSources: extraInputs)
        } catch {
            var unused: UnsafeMutablePointer<AVFilterGraph>? = graph
            avfilter_graph_free(&unused)
            throw error
        }
        self.graph = graph
    }

    /// Creates the sources and the sink in `graph`, parses `chain` between them and configures it.
    private static func build(_ graph: UnsafeMutablePointer<AVFilterGraph>, source sourceName: String, arguments: String,
                              sink sinkName: String, chain: String, extraSources: [(label: String, arguments: String)])
        throws -> (UnsafeMutablePointer<AVFilterContext>, [String: UnsafeMutablePointer<AVFilterContext>], UnsafeMutablePointer<AVFilterContext>) {
        var source: UnsafeMutablePointer<AVFilterContext>?
        var sink: UnsafeMutablePointer<AVFilterContext>?
        try FFmpegCode.check(avfilter_graph_create_filter(&source, avfilter_get_by_name(sourceName), "in", arguments, nil, graph),
                             "create \(sourceName) filter (\(arguments))")
        try FFmpegCode.check(avfilter_graph_create_filter(&sink, avfilter_get_by_name(sinkName), "out", nil, nil, graph),
                             "create \(sinkName) filter")
        guard let source, let sink else { throw VideoError(operation: "create filters", message: "out of memory") }
        var extras: [String: UnsafeMutablePointer<AVFilterContext>] = [:]
        for extra in extraSources {
            var context: UnsafeMutablePointer<AVFilterContext>?
            try FFmpegCode.check(avfilter_graph_create_filter(&context, avfilter_get_by_name(sourceName), extra.label, extra.arguments, nil, graph),
                                 "create \(sourceName) filter \(extra.label) (\(extra.arguments))")
            guard let context else { throw VideoError(operation: "create filters", message: "out of memory") }
            extras[extra.label] = context
        }

        var inputs = avfilter_inout_alloc(), outputs = avfilter_inout_alloc()
        defer { avfilter_inout_free(&inputs); avfilter_inout_free(&outputs) }
        guard let open = outputs, let close = inputs else { throw VideoError(operation: "allocate filter graph", message: "out of memory") }
        // The chain's open input is fed by the source; its open output feeds the sink.
        open.pointee.name = av_strdup("in")
        open.pointee.filter_ctx = source
        open.pointee.pad_idx = 0
        // Each further source is one more open output of the graph, found by its label.
        var last = open
        for extra in extraSources {
            guard let next = avfilter_inout_alloc() else { throw VideoError(operation: "allocate filter graph", message: "out of memory") }
            next.pointee.name = av_strdup(extra.label)
            next.pointee.filter_ctx = extras[extra.label]
            next.pointee.pad_idx = 0
            last.pointee.next = next
            last = next
        }
        close.pointee.name = av_strdup("out")
        close.pointee.filter_ctx = sink
        close.pointee.pad_idx = 0
        try FFmpegCode.check(avfilter_graph_parse_ptr(graph, chain, &inputs, &outputs, nil), "parse filters '\(chain)'")
        try FFmpegCode.check(avfilter_graph_config(graph, nil), "configure filters '\(chain)'")
        return (source, extras, sink)
    }

    deinit {
        avfilter_graph_free(&graph)
    }

    /// Sends a frame into the graph (its buffers are referenced, not taken); nil marks the end.
    func push(_ frame: UnsafeMutablePointer<AVFrame>?) throws {
        let flags = Int32(AV_BUFFERSRC_FLAG_KEEP_REF)
        try FFmpegCode.check(av_buffersrc_add_frame_flags(source, frame, flags), "filter frame ('\(chain)')")
    }

    /// Sends a frame into the further source labelled `label` (nil marks its end).
    func push(_ frame: UnsafeMutablePointer<AVFrame>?, to label: String) throws {
        guard let extra = extraSources[label] else {
            throw VideoError(operation: "filter frame", message: "the graph has no source labelled \(label) ('\(chain)')")
        }
        try FFmpegCode.check(av_buffersrc_add_frame_flags(extra, frame, Int32(AV_BUFFERSRC_FLAG_KEEP_REF)), "filter \(label) frame ('\(chain)')")
    }

    /// Takes the next filtered frame into `frame`; false when none is ready or the graph is drained.
    func pull(into frame: FrameHandle) throws -> Bool {
        let result = av_buffersink_get_frame(sink, frame.pointer)
        if result == FFmpegCode.again || result == FFmpegCode.endOfFile { return false }
        try FFmpegCode.check(result, "take filtered frame ('\(chain)')")
        return true
    }

    /// The time base of the frames coming out.
    var outputTimeBase: AVRational { av_buffersink_get_time_base(sink) }
}
