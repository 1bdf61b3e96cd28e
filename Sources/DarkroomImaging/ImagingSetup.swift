import DarkroomCore
import DarkroomRuntime
import Foundation

/// Process-wide image settings derived from a run's settings, and the share of the machine each
/// photo in flight gets, so that `--jobs` photos at once keep every core busy without more threads
/// than cores (libvips' and x265's pools are sized from the same share).
public enum ImagingSetup {
    /// Starts the native libraries (`NativeRuntime`: libvips, FFmpeg, libheif, x265) once, on the
    /// calling thread, and gives each photo in flight its share of the cores (libvips threads per
    /// operation = cores / photos processed at once). Every image and video stage's `prepare` calls it.
    public static func configure(for settings: RunSettings) throws {
        try NativeRuntime.start(threadsPerOperation: threadsPerPhoto(for: settings))
    }

    /// The threads one photo's native work may use: the cores divided by the photos in flight, at
    /// least one. With `--jobs` at the core count (the default) that is one: each photo's decode,
    /// resize and encode run on its own thread while the other photos use the other cores.
    public static func threadsPerPhoto(for settings: RunSettings) -> Int {
        max(1, ProcessInfo.processInfo.activeProcessorCount / max(1, settings.jobs))
    }
}
