internal import CCairo
import Foundation

/// A cairo or Pango call that failed, with the file it was writing and cairo's reason.
public struct CairoError: Error, CustomStringConvertible, Sendable {
    /// The PDF being written, when the failure concerns one.
    public var path: String?
    /// What was being done (`create PDF`, `show page`, `image surface`).
    public var operation: String
    /// cairo's own words (`error while writing to output stream`).
    public var reason: String

    /// A failure of `operation` on `path`, for `reason`.
    public init(path: String?, operation: String, reason: String) {
        self.path = path
        self.operation = operation
        self.reason = reason
    }

    init(path: String?, operation: String, status: cairo_status_t) {
        self.init(path: path, operation: operation, reason: String(cString: cairo_status_to_string(status)))
    }

    public var description: String {
        (path.map { "\($0): " } ?? "") + "\(operation): \(reason)"
    }
}
