internal import CHeif

/// A libheif failure: the step that failed and libheif's message.
public struct HEIFError: Error, CustomStringConvertible, Sendable {
    /// What Darkroom was doing (`encode`, `write`, ...).
    public var operation: String
    /// libheif's explanation.
    public var message: String

    public var description: String { "\(operation): \(message)" }

    /// Throws when `error` reports a failure.
    static func check(_ error: heif_error, _ operation: String) throws {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        throw HEIFError(operation: operation, message: message)
    }
}

/// Owns a `heif_context*`.
final class HEIFContext {
    let pointer: OpaquePointer

    init() throws {
        guard let p = heif_context_alloc() else { throw HEIFError(operation: "context", message: "out of memory") }
        pointer = p
    }

    deinit { heif_context_free(pointer) }
}
