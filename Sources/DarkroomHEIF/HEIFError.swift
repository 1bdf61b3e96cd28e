internal import CHeif

/// A libheif failure: the step that failed and libheif's message.
public struct HEIFError: Error, CustomStringConvertible, Sendable {
    /// What Darkroom was doing (`encode`, `write`, ...).
    public var operation: String
    /// libheif's explanation.
    public var message: String

    public var description: String { "\(operation): \(message)" }

    /// The error of a factory called before `HEIF.start()`.
    static func notStarted(operation: String) -> HEIFError {
        HEIFError(operation: operation, message: "libheif is not started: call NativeRuntime.start() (or HEIF.start()) "
                  + "on the main thread before any HEIF file is read or written")
    }

    /// Whether this is the error of a factory called before `HEIF.start()`.
    public var isNotStarted: Bool { message.contains("libheif is not started") }

    /// Throws when `error` reports a failure.
    static func check(_ error: heif_error, _ operation: String) throws {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        throw HEIFError(operation: operation, message: message)
    }
}

/// Owns a `heif_context*`: every libheif read and write starts with one, so it is where `HEIF.start()`
/// is required.
final class HEIFContext {
    let pointer: OpaquePointer

    init() throws {
        try HEIF.requireStarted("context")
        guard let p = heif_context_alloc() else { throw HEIFError(operation: "context", message: "out of memory") }
        pointer = p
    }

    deinit { heif_context_free(pointer) }
}
