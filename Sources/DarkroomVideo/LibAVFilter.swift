internal import CFFmpeg
import Foundation

/// libavfilter's functions that `FilterGraph` calls, from the library opened when the first graph is
/// built rather than linked into every process: libavfilter brings 27 more libraries (text to speech,
/// speech recognition, OpenGL, OCR...) whose symbols the dynamic loader would otherwise resolve at
/// every start of `darkroom`, also for runs that never filter a frame (20 ms of a 90 ms start).
/// Opening is thread-safe and happens once; libavfilter needs no start-up of its own.
struct LibAVFilter {
    let graphAlloc: @convention(c) () -> UnsafeMutablePointer<AVFilterGraph>?
    let graphFree: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVFilterGraph>?>?) -> Void
    let getByName: @convention(c) (UnsafePointer<CChar>?) -> UnsafePointer<AVFilter>?
    let graphCreateFilter: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVFilterContext>?>?, UnsafePointer<AVFilter>?,
                                           UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?,
                                           UnsafeMutablePointer<AVFilterGraph>?) -> Int32
    let inoutAlloc: @convention(c) () -> UnsafeMutablePointer<AVFilterInOut>?
    let inoutFree: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVFilterInOut>?>?) -> Void
    let graphParse: @convention(c) (UnsafeMutablePointer<AVFilterGraph>?, UnsafePointer<CChar>?,
                                    UnsafeMutablePointer<UnsafeMutablePointer<AVFilterInOut>?>?,
                                    UnsafeMutablePointer<UnsafeMutablePointer<AVFilterInOut>?>?, UnsafeMutableRawPointer?) -> Int32
    let graphConfig: @convention(c) (UnsafeMutablePointer<AVFilterGraph>?, UnsafeMutableRawPointer?) -> Int32
    let sourceAddFrame: @convention(c) (UnsafeMutablePointer<AVFilterContext>?, UnsafeMutablePointer<AVFrame>?, Int32) -> Int32
    let sinkGetFrame: @convention(c) (UnsafeMutablePointer<AVFilterContext>?, UnsafeMutablePointer<AVFrame>?) -> Int32
    let sinkTimeBase: @convention(c) (UnsafePointer<AVFilterContext>?) -> AVRational
    let sinkSetFrameSize: @convention(c) (UnsafeMutablePointer<AVFilterContext>?, UInt32) -> Void

    /// The library of the major version Darkroom was built against (`libavfilter.so.8` on Debian 12).
    static let soname = "libavfilter.so.\(LIBAVFILTER_VERSION_MAJOR)"

    /// The functions, or why they are not there (the library or one of its symbols is missing).
    static let shared = Result<LibAVFilter, VideoError> { () throws(VideoError) in try LibAVFilter(opening: soname) }

    /// The functions; throws, naming `operation`, when libavfilter cannot be opened.
    static func functions(for operation: String) throws(VideoError) -> LibAVFilter {
        switch shared {
        case .success(let functions): return functions
        case .failure(let error): throw VideoError(operation: operation, message: error.message)
        }
    }

    private init(opening soname: String) throws(VideoError) {
        // Never closed: the process keeps it, as it would a linked library.
        guard let library = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            throw VideoError(operation: "open \(soname)",
                             message: "cannot open \(soname) for FFmpeg's filters: \(dlerror().map { String(cString: $0) } ?? "not found")"
                                + " (Debian's libavfilter8 package)")
        }
        func symbol<T>(_ name: String) throws(VideoError) -> T {
            guard let address = dlsym(library, name) else {
                throw VideoError(operation: "open \(soname)", message: "\(soname) has no \(name)")
            }
            return unsafeBitCast(address, to: T.self)
        }
        graphAlloc = try symbol("avfilter_graph_alloc")
        graphFree = try symbol("avfilter_graph_free")
        getByName = try symbol("avfilter_get_by_name")
        graphCreateFilter = try symbol("avfilter_graph_create_filter")
        inoutAlloc = try symbol("avfilter_inout_alloc")
        inoutFree = try symbol("avfilter_inout_free")
        graphParse = try symbol("avfilter_graph_parse_ptr")
        graphConfig = try symbol("avfilter_graph_config")
        sourceAddFrame = try symbol("av_buffersrc_add_frame_flags")
        sinkGetFrame = try symbol("av_buffersink_get_frame")
        sinkTimeBase = try symbol("av_buffersink_get_time_base")
        sinkSetFrameSize = try symbol("av_buffersink_set_frame_size")
    }
}
