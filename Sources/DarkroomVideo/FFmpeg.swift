internal import CFFmpeg
import Foundation
import Logging
import Synchronization

/// Process-wide FFmpeg set-up. `start` runs once, on the thread that starts the work, before any
/// worker (Darkroom's `NativeRuntime` calls it); every factory of an FFmpeg handle (reading a video,
/// an encoder, a muxer, a filter graph, a scaler, a frame, a packet) throws a `VideoError` saying
/// FFmpeg is not started until it has.
///
/// FFmpeg prints nothing itself once started: every line it logs (x264's statistics, a damaged
/// video's `No JPEG data found in image` once per frame, even its fatal-level lines) goes to
/// swift-log at debug level, so `-vv` shows them and nothing else does. Darkroom reports every
/// failure itself, with the file and FFmpeg's reason (`av_strerror`).
public enum FFmpeg {
    /// Held by `start`, so that two threads calling it at once set FFmpeg up once.
    private static let starting = Mutex(())
    /// Whether `start` has succeeded: read by every factory, without taking a lock.
    private static let isStartedFlag = Atomic<Bool>(false)
    /// Where FFmpeg's lines go: set once by `start`.
    private static let lines = Mutex<Logger?>(nil)

    /// Starts FFmpeg's logging once: one `av_log` callback that hands every line to `logger` at debug
    /// level and prints nothing, given to libavutil when it is opened, before any other FFmpeg library.
    /// Lines are formatted only when `logger` would show them (FFmpeg's info level and below at debug,
    /// its verbose level at trace). Idempotent and safe to call from any thread; later calls change nothing.
    public static func start(logger: Logger = Logger(label: "darkroom.ffmpeg")) {
        starting.withLock { _ in
            if isStarted { return }
            lines.withLock { $0 = logger }
            darkroom_av_log_install({ level, line in FFmpeg.forward(level: level, line: line) }, level(for: logger.logLevel))
            isStartedFlag.store(true, ordering: .releasing)
        }
    }

    /// Whether `start` has run.
    public static var isStarted: Bool { isStartedFlag.load(ordering: .acquiring) }

    /// The version of libavcodec Darkroom was built against, e.g. "59.37.100", known without opening it.
    public static var builtVersion: String {
        "\(LIBAVCODEC_VERSION_MAJOR).\(LIBAVCODEC_VERSION_MINOR).\(LIBAVCODEC_VERSION_MICRO)"
    }

    /// Which of FFmpeg's libraries an operation needs: FFmpeg's libraries are opened when first needed,
    /// not linked (`Sources/CFFmpeg/FFmpegLibraries.c`), so a run without videos never loads them.
    enum Libraries {
        /// libavutil, libswscale, libavcodec and libavformat: reading, decoding, scaling, encoding, muxing.
        case core
        /// libavfilter (tone mapping, GIF palettes, audio), which brings 27 more libraries of its own.
        case filters

        /// The `darkroom_ffmpeg_library` numbers, in the order they are opened.
        fileprivate var members: ClosedRange<UInt32> {
            switch self {
            case .core: DARKROOM_FFMPEG_AVUTIL.rawValue...DARKROOM_FFMPEG_AVFORMAT.rawValue
            case .filters: DARKROOM_FFMPEG_AVFILTER.rawValue...DARKROOM_FFMPEG_AVFILTER.rawValue
            }
        }
    }

    /// Throws the not-started error for `operation` unless `start` has run, and an error naming the
    /// library and its Debian package when one of `libraries` cannot be opened (opening them once;
    /// later calls cost a `pthread_once` check each).
    static func requireStarted(_ operation: @autoclosure () -> String, needing libraries: Libraries = .core) throws {
        guard isStarted else { throw VideoError.notStarted(operation: operation()) }
        for number in libraries.members {
            let library = darkroom_ffmpeg_library(rawValue: number)
            guard darkroom_ffmpeg_open(library, nil, 0) != 0 else { continue }
            var reason = [CChar](repeating: 0, count: 512)
            _ = darkroom_ffmpeg_open(library, &reason, reason.count)
            throw VideoError(operation: operation(), message: String(filledBuffer: reason))
        }
    }

    /// The most detailed FFmpeg level worth formatting for a logger at `level`.
    static func level(for level: Logger.Level) -> Int32 {
        switch level {
        case .trace: return AV_LOG_VERBOSE
        case .debug: return AV_LOG_INFO
        default: return AV_LOG_QUIET
        }
    }

    private static func forward(level: Int32, line: UnsafePointer<CChar>?) {
        guard let line, let logger = lines.withLock({ $0 }) else { return }
        logger.debug("\(String(cString: line))", metadata: ["ffmpeg-level": "\(name(ofLevel: level))"])
    }

    private static func name(ofLevel level: Int32) -> String {
        switch level {
        case ...AV_LOG_FATAL: return "fatal"
        case ...AV_LOG_ERROR: return "error"
        case ...AV_LOG_WARNING: return "warning"
        case ...AV_LOG_INFO: return "info"
        default: return "verbose"
        }
    }
}
