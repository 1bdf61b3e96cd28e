internal import CLibRaw
import Synchronization

/// Process-wide LibRaw set-up. The native runtime calls `LibRaw.start()` once, on the main thread,
/// before any worker opens a RAW file; every factory (`RawFile.open`) throws `RawError.Reason.notStarted`
/// until it has.
public enum LibRaw {
    /// What `start()` found: the library's version and how many cameras it knows.
    public struct Library: Sendable, Equatable {
        /// LibRaw's version string, e.g. `0.20.2-Release`.
        public var version: String
        /// LibRaw's version as a number, `major << 16 | minor << 8 | patch`.
        public var versionNumber: Int
        /// How many camera models LibRaw's tables name.
        public var cameraCount: Int
    }

    /// The oldest LibRaw this wrapper was written against (Debian 12's 0.20.2).
    static let minimumVersionNumber = 0x00_14_00

    private static let library = Mutex<Library?>(nil)

    /// Checks the library once (its version, that a decoder can be made) and records its version and
    /// camera count. Idempotent and safe to call from any thread; throws when LibRaw is too old or
    /// cannot allocate a decoder.
    public static func start() throws {
        try library.withLock { started in
            if started != nil { return }
            let number = Int(libraw_versionNumber())
            let version = String(cString: libraw_version())
            guard number >= minimumVersionNumber else {
                throw RawError(path: nil, reason: .libraryUnusable("LibRaw \(version) is older than 0.20, which Darkroom needs"))
            }
            // One decoder made and freed: it fails here, at start-up, rather than in the first worker.
            guard let probe = libraw_init(0) else {
                throw RawError(path: nil, reason: .libraryUnusable("LibRaw \(version) could not allocate a decoder"))
            }
            libraw_close(probe)
            started = Library(version: version, versionNumber: number, cameraCount: Int(libraw_cameraCount()))
        }
    }

    /// The library `start()` checked, or nil before it has been called.
    public static var started: Library? { library.withLock { $0 } }

    /// Throws `notStarted` unless `start()` has succeeded (every factory calls this first).
    static func requireStarted(path: String) throws {
        if started == nil { throw RawError(path: path, reason: .notStarted) }
    }
}
