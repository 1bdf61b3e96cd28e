internal import CVips
import Foundation
import Logging
import Synchronization

/// Process-wide libvips set-up. `start` runs once, on the thread that starts the work, before any
/// worker (Darkroom's `NativeRuntime` calls it); every factory of an image (`Image.open`,
/// `Image.thumbnail(_:)`, `Image.jpeg`, `Image.rgb`, `Image.solid`, `Image.text`) throws a
/// `VipsError` saying libvips is not started until it has, rather than starting it lazily on a
/// worker thread, where libvips 8.14's unlocked `vips_init` would race other workers.
public enum Vips {
    /// Held by `start`, so that two threads calling it at once initialise libvips once.
    private static let starting = Mutex(())
    /// Whether `start` has succeeded: read by every factory, without taking a lock.
    private static let isStartedFlag = Atomic<Bool>(false)
    /// The loader policy `start` applied.
    private static let appliedPolicy = Mutex<LoaderPolicy?>(nil)
    /// Where libvips' warnings go (swift-log, at debug): set once by `start`.
    private static let warnings = Mutex<Logger?>(nil)

    /// Starts libvips once: `VIPS_INIT` with only the policy's modules (`LoaderPolicy.modules`), the
    /// operation cache off, the loader `policy` applied, and libvips' warnings (the `VIPS` GLib log
    /// domain: a bad tile, a truncated file read with `fail_on` none) routed to `logger` at debug
    /// level instead of stderr. Idempotent and safe to call from any thread; call it on the main
    /// thread before any worker starts. Later calls change nothing (the first policy and logger stay).
    public static func start(policy: LoaderPolicy = .photoLibrary, logger: Logger = Logger(label: "darkroom.vips")) throws {
        try starting.withLock { _ in
            if isStarted { return }
            guard darkroom_vips_init_without_modules("darkroom") == 0 else { throw failure(of: "vips_init") }
            loadModules(policy.modules, logger: logger)
            // Batch work touches each file once, so the operation cache only costs memory; worse, it
            // keys loads by file name and would hand back stale pixels for a file rewritten in place.
            vips_cache_set_max(0)
            // liborc's run-time generated code (libvips 8.14's vector paths for convolution and
            // resampling) double-frees when programs are released while other threads run theirs:
            // the test suite died in orc_code_free from vips_vector_free, as imagor and sharp have
            // seen. libvips then runs its plain C paths; 8.15 dropped orc altogether.
            vips_vector_set_enabled(0)
            apply(policy)
            warnings.withLock { $0 = logger }
            _ = darkroom_glib_route_log("VIPS", { domain, level, message in
                Vips.logWarning(domain: domain, level: level, message: message)
            })
            appliedPolicy.withLock { $0 = policy }
            isStartedFlag.store(true, ordering: .releasing)
        }
    }

    /// Whether `start` has run.
    public static var isStarted: Bool { isStartedFlag.load(ordering: .acquiring) }

    /// The loader policy `start` applied, or nil before it has run.
    public static var policy: LoaderPolicy? { appliedPolicy.withLock { $0 } }

    /// Throws the not-started error for `operation` unless `start` has run.
    static func requireStarted(_ operation: String) throws {
        guard isStarted else { throw VipsError.notStarted(operation: operation) }
    }

    /// Sets how many threads libvips uses inside one operation (cores divided by items in flight).
    public static func setConcurrency(_ threads: Int) {
        vips_concurrency_set(Int32(max(1, threads)))
    }

    /// How many threads libvips uses inside one operation.
    public static var concurrency: Int { Int(vips_concurrency_get()) }

    /// Whether images are computed in the calling thread rather than by libvips' thread pool: with one
    /// thread per operation (the photos in flight fill the cores), the pool would only hand each strip
    /// to a worker while the caller waits, leaving the core idle for every wake-up.
    static var computesInCallingThread: Bool { concurrency == 1 }

    /// The libvips version, e.g. "8.14.1".
    public static var version: String { String(cString: vips_version_string()) }

    /// The modules `start` loaded, by name (`heif`).
    public static var modules: [String] { loadedModules.withLock { $0 } }
    private static let loadedModules = Mutex<[String]>([])

    /// Loads the libvips modules named (see `LoaderPolicy.modules`) from the folder libvips installed
    /// them in; one that will not load is a warning, since its formats will then not be read.
    private static func loadModules(_ names: [String], logger: Logger) {
        var folder = [CChar](repeating: 0, count: 4096)
        guard darkroom_vips_modules_folder(&folder, folder.count) == 0 else {
            if !names.isEmpty {
                logger.warning("libvips' modules folder was not found next to libvips: \(names.joined(separator: ", ")) not loaded")
            }
            return
        }
        var loaded: [String] = []
        for name in names {
            if let failure = darkroom_vips_load_module(folder, name) {
                logger.warning("libvips module \(name) did not load: \(String(cString: failure))")
            } else {
                loaded.append(name)
            }
        }
        loadedModules.withLock { $0 = loaded }
    }

    /// Blocks every loader, then unblocks the ones `policy` allows (a class unblocks its subclasses).
    private static func apply(_ policy: LoaderPolicy) {
        vips_operation_block_set("VipsForeignLoad", 1)
        for loader in policy.allowed { vips_operation_block_set(loader.className, 0) }
    }

    private static func logWarning(domain: UnsafePointer<CChar>?, level: Int32, message: UnsafePointer<CChar>?) {
        guard let message, let logger = warnings.withLock({ $0 }) else { return }
        let domainName = domain.map { String(cString: $0) } ?? "GLib"
        logger.debug("\(domainName): \(String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines))")
    }
}

/// A libvips failure: which operation failed and libvips' own words for why.
public struct VipsError: Error, CustomStringConvertible, Sendable {
    /// The operation that failed (`thumbnail`, `jpegsave`, ...).
    public var operation: String
    /// libvips' explanation, one line per reason.
    public var message: String

    public init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    /// The error of a factory called before `Vips.start()`.
    static func notStarted(operation: String) -> VipsError {
        VipsError(operation: operation, message: "\(operation): libvips is not started: call NativeRuntime.start() "
                  + "(or Vips.start()) on the main thread before any image is made")
    }

    /// Whether this is the error of a factory called before `Vips.start()`.
    public var isNotStarted: Bool { message.contains("libvips is not started") }

    public var description: String {
        // libvips prefixes lines with the loader name; keep only the distinct reasons.
        var seen = Set<String>()
        let lines = message.split(separator: "\n").map(String.init).filter { seen.insert($0).inserted }
        return lines.joined(separator: "; ")
    }
}
