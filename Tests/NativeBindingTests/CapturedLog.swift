import Logging
import Synchronization

/// Every log line of the process, kept for a test to read (the process's logging system is this,
/// once `bootstrap` has run: call it once per process).
final class CapturedLog: Sendable {
    struct Line: Sendable, CustomStringConvertible {
        var label: String
        var level: Logger.Level
        var message: String
        var description: String { "\(level) \(label): \(message)" }
    }

    private let lines = Mutex<[Line]>([])

    /// Makes every logger of the process write here, at every level, and returns the lines' keeper.
    static func bootstrap() -> CapturedLog {
        let log = CapturedLog()
        LoggingSystem.bootstrap { label in Handler(label: label, sink: log) }
        return log
    }

    /// The lines logged by loggers labelled `label`.
    func matching(label: String) -> [Line] { lines.withLock { $0.filter { $0.label == label } } }

    private struct Handler: LogHandler {
        let label: String
        let sink: CapturedLog
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
                 file: String, function: String, line: UInt) {
            sink.lines.withLock { $0.append(Line(label: label, level: level, message: message.description)) }
        }
    }
}
