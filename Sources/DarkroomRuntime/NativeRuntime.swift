import DarkroomRaw
import DarkroomHEIF
import DarkroomVideo
import DarkroomVips
import Foundation
import Logging
import Synchronization

/// The one owner of Darkroom's native libraries: starts each of them once per process, on the
/// calling thread, in a fixed order, before any worker thread touches one.
///
/// - libvips: `VIPS_INIT` with only the modules the policy names (heif, jxl), the operation cache off, the loader policy (`LoaderPolicy.photoLibrary`),
///   its warnings to swift-log (`darkroom.vips`, debug) instead of stderr, and its threads per
///   operation (set again on every call: a run with other `--jobs` gets its own share).
/// - FFmpeg: one log callback that sends every line to swift-log (`darkroom.ffmpeg`, debug), given to
///   libavutil when a video first needs FFmpeg's libraries (they are opened then, not linked).
/// - libheif: `heif_init`, which registers its codecs.
/// - x265: warmed by one 64x64 encode, so its one-time tables are not built by two encodes at once.
/// - LibRaw: its version checked and one decoder made (RAW photos are opened per item, one per thread).
///
/// Stages start it from `prepare` (the runner calls that before any worker); a program that uses the
/// wrappers itself calls `start` first. Each wrapper's factories throw a "not started" error until
/// then: nothing starts lazily on a worker thread.
public enum NativeRuntime {
    /// One library started, its version, and what starting it cost.
    public struct Library: Sendable, CustomStringConvertible {
        public var name: String
        public var version: String
        public var startTime: Duration

        public var description: String { "\(name)\(version.isEmpty ? "" : " " + version) (\(Self.milliseconds(startTime)))" }

        static func milliseconds(_ duration: Duration) -> String {
            let (seconds, attoseconds) = duration.components
            return String(format: "%.1f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
        }
    }

    /// What `start` did the first time it ran.
    public struct Started: Sendable, CustomStringConvertible {
        /// The libraries, in the order they started.
        public var libraries: [Library]
        /// The whole start, on the calling thread.
        public var startTime: Duration

        public var description: String {
            "native libraries started in \(Library.milliseconds(startTime)): "
                + libraries.map(\.description).joined(separator: ", ")
        }
    }

    private static let state = Mutex<Started?>(nil)

    /// Starts every native library once (see the type's summary) and gives libvips
    /// `threadsPerOperation` threads per operation; returns what the first start did. Idempotent and
    /// thread-safe: later calls only set the threads. Call it on the main thread before any worker.
    @discardableResult
    public static func start(threadsPerOperation: Int = ProcessInfo.processInfo.activeProcessorCount,
                             logger: Logger = Logger(label: "darkroom.runtime")) throws -> Started {
        try state.withLock { state in
            let started = try state ?? startLibraries(logger: logger)
            state = started
            Vips.setConcurrency(threadsPerOperation)
            return started
        }
    }

    /// What the first `start` did, or nil before it has run.
    public static var started: Started? { state.withLock { $0 } }

    /// The libraries, in the order they start: the one place to add a library. Later ones belong at
    /// the end of the list (OpenCV's `AlignmentRuntime.start(threads:)` is started by the steps that align).
    private static var libraries: [(name: String, version: () -> String, start: () throws -> Void)] {
        [
            ("libvips", { "\(Vips.version) with modules \(Vips.modules.joined(separator: "+"))" }, { try Vips.start(policy: .photoLibrary, logger: Logger(label: "darkroom.vips")) }),
            ("FFmpeg libavcodec", { "\(FFmpeg.builtVersion) (opened when a video needs it)" }, { FFmpeg.start(logger: Logger(label: "darkroom.ffmpeg")) }),
            ("libheif", { HEIF.version }, { try HEIF.start() }),
            ("x265 (one 64x64 encode)", { "" }, { try HEIF.warmHEVCEncoder() }),
            ("LibRaw", { LibRaw.started?.version ?? "" }, { try LibRaw.start() }),
        ]
    }

    private static func startLibraries(logger: Logger) throws -> Started {
        let clock = ContinuousClock()
        let begin = clock.now
        var started: [Library] = []
        for library in libraries {
            let time = try clock.measure(library.start)
            started.append(Library(name: library.name, version: library.version(), startTime: time))
        }
        let result = Started(libraries: started, startTime: clock.now - begin)
        logger.debug("\(result)")
        return result
    }
}
