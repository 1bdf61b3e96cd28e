import DarkroomRuntime
import Foundation

/// The native libraries for a test that uses the wrappers (`Image`, `HEIFEncoder`, `VideoInfo`...)
/// or a stage's `process` directly, without a `Runner` (which starts them itself): call `start()`
/// in `setUp`. It starts `NativeRuntime` once per test process, as a program does on its main thread;
/// without it every factory throws its "not started" error.
public enum NativeLibraries {
    /// Starts `NativeRuntime` (idempotent; later calls cost a lock).
    public static func start() throws {
        try NativeRuntime.start()
    }
}
