import DarkroomReport
import Foundation
import Logging

/// How much the CLI says while it works: warnings and errors by default, `-v` adds info, `-vv` debug.
enum Verbosity {
    /// The log level for a count of `-v` flags.
    static func level(verbose: Int) -> Logger.Level {
        switch verbose {
        case 0: return .warning
        case 1: return .info
        default: return .debug
        }
    }

    /// Starts logging to standard error at the level `-v` asks for, in colour on a terminal unless
    /// `NO_COLOR` is set (https://no-color.org).
    static func bootstrap(verbose: Int) {
        let level = level(verbose: verbose)
        let colour = TerminalLogHandler.wantsColour(environment: ProcessInfo.processInfo.environment,
                                                    isTerminal: isatty(STDERR_FILENO) != 0)
        LoggingSystem.bootstrap { label in TerminalLogHandler(label: label, level: level, colour: colour) }
    }
}

/// Log lines for people: `warning: message` (`[module]` only at debug level), coloured by level.
struct TerminalLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    let colour: Bool
    private let output: @Sendable (String) -> Void

    init(label: String, level: Logger.Level, colour: Bool,
         output: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.label = label
        self.logLevel = level
        self.colour = colour
        self.output = output
    }

    /// Colour only on a terminal, and never with `NO_COLOR` set to anything but the empty string.
    static func wantsColour(environment: [String: String], isTerminal: Bool) -> Bool {
        isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
             file: String, function: String, line: UInt) {
        let name = level == .critical ? "error" : level.rawValue
        let prefix = colour ? "\(Self.colourCode(level))\(name):\u{1B}[0m" : "\(name):"
        let origin = logLevel <= .debug ? " [\(source)]" : ""
        output("\r\u{1B}[K".filter { _ in colour } + "\(prefix)\(origin) \(TerminalText.escaped(message.description))\n")
    }

    private static func colourCode(_ level: Logger.Level) -> String {
        switch level {
        case .error, .critical: return "\u{1B}[31m"  // red
        case .warning: return "\u{1B}[33m"  // yellow
        case .notice, .info: return "\u{1B}[36m"  // cyan
        case .debug, .trace: return "\u{1B}[2m"  // dim
        }
    }
}
