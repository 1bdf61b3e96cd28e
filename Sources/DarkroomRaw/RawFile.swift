internal import CLibRaw
import Foundation

/// One RAW file opened by LibRaw: what it is (`info`), its embedded preview (`preview()`) and its
/// sensor data developed into RGB pixels (`develop(...)`).
///
/// Owns one `libraw_data_t` and closes it in `deinit`. LibRaw's decoder state is not safe to share:
/// use a `RawFile` on one thread only, and one per thread (the type is deliberately not `Sendable`).
/// The sensor data stays in memory from the first `develop` until the `RawFile` is released.
public final class RawFile {
    /// The file opened.
    public let path: String
    /// What LibRaw identified: camera, sizes, orientation, ISO.
    public let info: RawInfo

    let handle: UnsafeMutablePointer<libraw_data_t>
    /// Problems LibRaw reported through its callbacks while decoding.
    let log: DecoderLog
    /// The camera-to-sRGB matrix as LibRaw computed it, kept to re-target it per development (nil
    /// until the sensor data is unpacked).
    var cameraToSRGB: [[Float]]?
    /// Set when a LibRaw call failed fatally: LibRaw then recycles the decoder, so the file must be
    /// opened again before anything else is asked of it.
    var needsReopening = false

    /// The default cap on sensor pixels (160 MP: Phase One's 150 MP backs fit, a hostile header does not).
    public static let defaultMaximumPixels = 160_000_000

    /// Opens and identifies a RAW file: reads its header, no sensor data yet.
    ///
    /// Throws `RawError` when LibRaw was not started, the file cannot be read, LibRaw does not know
    /// the format, or the sensor is larger than `maximumPixels`.
    public static func open(_ path: String, maximumPixels: Int = defaultMaximumPixels) throws -> RawFile {
        try LibRaw.requireStarted(path: path)
        try FileCheck.requireReadable(path)
        guard let handle = libraw_init(0) else { throw RawError(path: path, reason: .outOfMemory) }
        let log = DecoderLog()
        log.install(on: handle)
        do {
            let code = libraw_open_file(handle, path)
            guard code == 0 else {
                let error = RawError(path: path, code: code, function: "libraw_open_file")
                // A RAW whose image data was cut out can be one LibRaw does not recognise at all.
                if error.reason == .unsupportedFormat { try SensorDataExtent.verifyUnidentified(path: path) }
                throw error
            }
            let info = RawInfo(handle)
            guard info.rawWidth > 0, info.rawHeight > 0 else {
                throw RawError(path: path, reason: .imageDataMissing("LibRaw found no sensor size in the file"))
            }
            guard info.rawWidth * info.rawHeight <= maximumPixels else {
                throw RawError(path: path, reason: .tooManyPixels(width: info.rawWidth, height: info.rawHeight, limit: maximumPixels))
            }
            return RawFile(path: path, handle: handle, log: log, info: info)
        } catch {
            libraw_close(handle)
            throw error
        }
    }

    private init(path: String, handle: UnsafeMutablePointer<libraw_data_t>, log: DecoderLog, info: RawInfo) {
        self.path = path
        self.handle = handle
        self.log = log
        self.info = info
    }

    deinit { libraw_close(handle) }

    /// Checks, without decoding, that the sensor data the file's structure declares is in the file
    /// (a file cut short, or a metadata-only copy, fails with `imageDataMissing`), so that a RAW shown
    /// through its embedded preview is not a damaged original imported as if whole.
    public func verifySensorDataPresent() throws {
        try SensorDataExtent.verify(path: path, width: info.rawWidth, height: info.rawHeight)
    }

    /// Reads and decompresses the sensor data (once), then checks it is really there.
    ///
    /// LibRaw 0.20 reports a missing or cut-short file in several ways: an error code, a data-error
    /// callback (while returning success), or, for some decoders, silence with pixels it never wrote.
    /// The file's structure is checked first (`SensorDataExtent`), LibRaw's reports and the pixels
    /// after; each becomes `imageDataMissing` or `imageDataCorrupt`.
    func unpack() throws {
        if cameraToSRGB != nil { return }
        try verifySensorDataPresent()
        try reopenIfNeeded()
        log.reset()
        let code = libraw_unpack(handle)
        noteFatal(code)
        if let problem = log.problem(path: path) { throw problem }
        guard code == 0 else { throw RawError(path: path, code: code, function: "libraw_unpack") }
        try SensorDataCheck(handle: handle).verify(path: path)
        cameraToSRGB = (0..<3).map { row in (0..<4).map { darkroom_libraw_rgb_cam(handle, Int32(row), Int32($0)) } }
    }

    /// Records that LibRaw recycled the decoder after a fatal error (I/O, corrupt data, memory).
    func noteFatal(_ code: Int32) {
        if code < -100_000 {
            needsReopening = true
            cameraToSRGB = nil
        }
    }

    /// Opens the file again after a fatal error, so that a failed preview does not doom a development.
    func reopenIfNeeded() throws {
        guard needsReopening else { return }
        let code = libraw_open_file(handle, path)
        guard code == 0 else { throw RawError(path: path, code: code, function: "libraw_open_file") }
        needsReopening = false
    }
}

/// Collects what LibRaw reports through its data-error and memory-error callbacks (which otherwise
/// print to standard error), so that a decode that "succeeds" with damaged data still fails.
final class DecoderLog {
    private(set) var dataErrors: [Int32] = []
    private(set) var memoryErrors: [String] = []

    func reset() {
        dataErrors = []
        memoryErrors = []
    }

    func install(on handle: UnsafeMutablePointer<libraw_data_t>) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        libraw_set_dataerror_handler(handle, { context, _, offset in
            guard let context else { return }
            Unmanaged<DecoderLog>.fromOpaque(context).takeUnretainedValue().dataErrors.append(offset)
        }, context)
        libraw_set_memerror_handler(handle, { context, _, location in
            guard let context else { return }
            let place = location.map { String(cString: $0) } ?? "unknown"
            Unmanaged<DecoderLog>.fromOpaque(context).takeUnretainedValue().memoryErrors.append(place)
        }, context)
    }

    /// The first problem reported since `reset()`, as the error to throw.
    func problem(path: String) -> RawError? {
        if let place = memoryErrors.first {
            return RawError(path: path, reason: .outOfMemory, libraryDetail: "LibRaw could not allocate memory in \(place)")
        }
        guard let offset = dataErrors.first else { return nil }
        if offset < 0 {
            return RawError(path: path, reason: .imageDataMissing("the file ends before its sensor data does"),
                            libraryDetail: "LibRaw: unexpected end of file")
        }
        return RawError(path: path, reason: .imageDataCorrupt("the sensor data does not decode"),
                        libraryDetail: "LibRaw: data corrupted at byte \(offset)")
    }
}

/// Whether a path can be opened for reading, with the system's reason when not.
enum FileCheck {
    static func requireReadable(_ path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw RawError(path: path, reason: .unreadable(String(cString: strerror(errno))))
        }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw RawError(path: path, reason: .unreadable("it is a folder")) }
        guard access(path, R_OK) == 0 else {
            throw RawError(path: path, reason: .unreadable(String(cString: strerror(errno))))
        }
    }
}
