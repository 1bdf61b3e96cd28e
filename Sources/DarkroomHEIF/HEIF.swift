internal import CHeif
import Foundation
import Synchronization

/// Process-wide libheif set-up. `start` runs once, on the thread that starts the work, before any
/// worker (Darkroom's `NativeRuntime` calls it); every libheif read or write throws a `HEIFError`
/// saying libheif is not started until it has.
public enum HEIF {
    /// Held by `start`, so that two threads calling it at once set libheif up once.
    private static let starting = Mutex(())
    /// Whether `start` has succeeded: read by every factory, without taking a lock.
    private static let isStartedFlag = Atomic<Bool>(false)

    /// Whether `warmHEVCEncoder` has run.
    private static let isWarm = Mutex(false)

    /// Starts libheif once: `heif_init` registers its codecs (libheif 1.15 otherwise registers them
    /// on first use, from whichever thread gets there first, unlocked). Idempotent and safe to call
    /// from any thread.
    public static func start() throws {
        try starting.withLock { _ in
            if isStarted { return }
            try HEIFError.check(heif_init(nil), "heif_init")
            isStartedFlag.store(true, ordering: .releasing)
        }
    }

    /// Whether `start` has run.
    public static var isStarted: Bool { isStartedFlag.load(ordering: .acquiring) }

    /// libheif's version, e.g. "1.15.1".
    public static var version: String { String(cString: heif_get_version()) }

    /// Throws the not-started error for `operation` unless `start` has run.
    static func requireStarted(_ operation: String) throws {
        guard isStarted else { throw HEIFError.notStarted(operation: operation) }
    }

    /// Encodes one 64x64 image (grey, preset ultrafast, one thread, kept in memory), once, so that
    /// x265's one-time set-up (its primitive tables, shared by every encoder in the process, FFmpeg's
    /// libx265 included) runs here rather than in the first two encodes at once. Call after `start`;
    /// idempotent.
    public static func warmHEVCEncoder() throws {
        try isWarm.withLock { warm in
            if warm { return }
            try encodeTinyImage()
            warm = true
        }
    }

    private static func encodeTinyImage() throws {
        let side = 64
        let pixels = RGBPixels(bytes: Data(repeating: 128, count: side * side * 3), width: side, height: side, hasAlpha: false)
        let context = try HEIFContext()
        let image = try HEIFImage(pixels, iccProfile: nil)
        let encoder = try HEIFEncoderHandle(context: context, settings: HEIFEncodeSettings(quality: 50, preset: "ultrafast"))
        let options = try HEIFEncodingOptions(alpha: false)
        var handle: OpaquePointer?
        try HEIFError.check(heif_context_encode_image(context.pointer, image.pointer, encoder.pointer, options.pointer, &handle),
                            "warm the HEVC encoder")
        heif_image_handle_release(handle)
    }
}
