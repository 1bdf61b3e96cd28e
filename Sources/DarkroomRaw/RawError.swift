internal import CLibRaw

/// Why a RAW file could not be opened, developed or read: the file, a reason a user can act on, and,
/// when LibRaw said so, its error code and the call that returned it.
///
/// `description` reads like `/photos/IMG_0001.CR2: RAW image data is missing or cut short
/// (LIBRAW_IO_ERROR from libraw_unpack: Input/output error)`.
public struct RawError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file, when the error is about one.
    public var path: String?
    /// What went wrong.
    public var reason: Reason
    /// LibRaw's own account (error code name, function, LibRaw's words), when LibRaw reported it.
    public var libraryDetail: String?

    /// An error about `path` (nil when about no file).
    public init(path: String?, reason: Reason, libraryDetail: String? = nil) {
        self.path = path
        self.reason = reason
        self.libraryDetail = libraryDetail
    }

    /// The kinds of failure, each with the words shown to the user.
    public enum Reason: Sendable, Equatable {
        /// `LibRaw.start()` was not called before a RAW file was opened.
        case notStarted
        /// LibRaw is missing, too old or cannot allocate a decoder.
        case libraryUnusable(String)
        /// The file cannot be read at all (missing, a folder, no permission).
        case unreadable(String)
        /// LibRaw does not recognise the file as a RAW it can decode.
        case unsupportedFormat
        /// The sensor has more pixels than the configured cap.
        case tooManyPixels(width: Int, height: Int, limit: Int)
        /// The file names a camera but its sensor data is absent or ends early.
        case imageDataMissing(String)
        /// The sensor data is there but does not decode.
        case imageDataCorrupt(String)
        /// The file carries no embedded preview.
        case noPreview
        /// The embedded preview is in a form Darkroom does not read (LibRaw's layer or Rollei formats).
        case previewUnsupported(String)
        /// The embedded preview is there but is not a readable image.
        case previewCorrupt(String)
        /// LibRaw ran out of memory (or refused an allocation over its own limit).
        case outOfMemory
        /// The file is not one of the RAW containers whose metadata Darkroom reads.
        case unknownContainer
        /// The container was recognised but its metadata is damaged.
        case metadataCorrupt(String)
        /// Any other LibRaw failure, with the call that failed.
        case libraryFailure(String)

        /// The reason in words.
        public var text: String {
            switch self {
            case .notStarted: return "LibRaw was not started (call LibRaw.start() before opening RAW files)"
            case .libraryUnusable(let why): return why
            case .unreadable(let why): return "cannot read the file: \(why)"
            case .unsupportedFormat: return "not a RAW format LibRaw \(LibRaw.started?.version ?? "0.20") can decode"
            case .tooManyPixels(let width, let height, let limit):
                return "the sensor is \(width)x\(height) (\(width * height / 1_000_000) MP), over the limit of \(limit / 1_000_000) MP"
            case .imageDataMissing(let why): return "RAW image data is missing or cut short: \(why)"
            case .imageDataCorrupt(let why): return "RAW image data is corrupt: \(why)"
            case .noPreview: return "the RAW file has no embedded preview"
            case .previewUnsupported(let format): return "the embedded preview is in a format Darkroom cannot read (\(format))"
            case .previewCorrupt(let why): return "the embedded preview is damaged: \(why)"
            case .outOfMemory: return "not enough memory to decode the RAW file"
            case .unknownContainer: return "not a RAW container Darkroom can read metadata from"
            case .metadataCorrupt(let why): return "the RAW metadata is damaged: \(why)"
            case .libraryFailure(let why): return why
            }
        }
    }

    public var description: String {
        let detail = libraryDetail.map { " (\($0))" } ?? ""
        return (path.map { "\($0): " } ?? "") + reason.text + detail
    }
}

extension RawError {
    /// The error for a non-zero LibRaw return code from `function`, with the reason that code means
    /// at that step.
    init(path: String, code: Int32, function: String) {
        let detail = "\(LibRawCode.name(code)) from \(function): \(String(cString: libraw_strerror(code)))"
        self.init(path: path, reason: LibRawCode.reason(code, function: function), libraryDetail: detail)
    }
}

/// LibRaw's error codes (enum LibRaw_errors, and errno values some calls return) in words.
enum LibRawCode {
    static func name(_ code: Int32) -> String {
        switch code {
        case LIBRAW_UNSPECIFIED_ERROR.rawValue: return "LIBRAW_UNSPECIFIED_ERROR"
        case LIBRAW_FILE_UNSUPPORTED.rawValue: return "LIBRAW_FILE_UNSUPPORTED"
        case LIBRAW_REQUEST_FOR_NONEXISTENT_IMAGE.rawValue: return "LIBRAW_REQUEST_FOR_NONEXISTENT_IMAGE"
        case LIBRAW_OUT_OF_ORDER_CALL.rawValue: return "LIBRAW_OUT_OF_ORDER_CALL"
        case LIBRAW_NO_THUMBNAIL.rawValue: return "LIBRAW_NO_THUMBNAIL"
        case LIBRAW_UNSUPPORTED_THUMBNAIL.rawValue: return "LIBRAW_UNSUPPORTED_THUMBNAIL"
        case LIBRAW_INPUT_CLOSED.rawValue: return "LIBRAW_INPUT_CLOSED"
        case LIBRAW_NOT_IMPLEMENTED.rawValue: return "LIBRAW_NOT_IMPLEMENTED"
        case LIBRAW_UNSUFFICIENT_MEMORY.rawValue: return "LIBRAW_UNSUFFICIENT_MEMORY"
        case LIBRAW_DATA_ERROR.rawValue: return "LIBRAW_DATA_ERROR"
        case LIBRAW_IO_ERROR.rawValue: return "LIBRAW_IO_ERROR"
        case LIBRAW_CANCELLED_BY_CALLBACK.rawValue: return "LIBRAW_CANCELLED_BY_CALLBACK"
        case LIBRAW_BAD_CROP.rawValue: return "LIBRAW_BAD_CROP"
        case LIBRAW_TOO_BIG.rawValue: return "LIBRAW_TOO_BIG"
        case LIBRAW_MEMPOOL_OVERFLOW.rawValue: return "LIBRAW_MEMPOOL_OVERFLOW"
        default: return code > 0 ? "errno \(code)" : "LibRaw error \(code)"
        }
    }

    /// What a code means to the user. An I/O or data error while reading pixels means the sensor
    /// data is missing or damaged; the same codes while identifying mean the file is not readable.
    static func reason(_ code: Int32, function: String) -> RawError.Reason {
        let readsPixels = function == "libraw_unpack" || function == "libraw_dcraw_process"
        switch code {
        case LIBRAW_FILE_UNSUPPORTED.rawValue: return .unsupportedFormat
        case LIBRAW_UNSUFFICIENT_MEMORY.rawValue, LIBRAW_MEMPOOL_OVERFLOW.rawValue, 12 /* ENOMEM */: return .outOfMemory
        case LIBRAW_TOO_BIG.rawValue: return .outOfMemory
        case LIBRAW_IO_ERROR.rawValue where readsPixels: return .imageDataMissing("the file ends before its sensor data does")
        case LIBRAW_DATA_ERROR.rawValue where readsPixels: return .imageDataCorrupt("the sensor data does not decode")
        case LIBRAW_IO_ERROR.rawValue, LIBRAW_DATA_ERROR.rawValue: return .metadataCorrupt("LibRaw cannot parse the file's structure")
        case LIBRAW_NO_THUMBNAIL.rawValue: return .noPreview
        case LIBRAW_UNSUPPORTED_THUMBNAIL.rawValue: return .previewUnsupported("LibRaw cannot extract it")
        case 22 /* EINVAL */ where function == "libraw_dcraw_make_mem_thumb": return .previewCorrupt("it is too short to be an image")
        default: return .libraryFailure("LibRaw failed in \(function)")
        }
    }
}
