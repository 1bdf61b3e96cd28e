import Foundation

/// An error in a pipeline or template file, printed like a compiler's:
///
///     pipelines/import.yaml:12:7: error: steps[2].resize.long-edge: expected a positive integer, got -1
///           long-edge: -1
///                      ^
public struct Diagnostic: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int
    public var column: Int
    /// Where in the document: `steps[2].resize.long-edge` (empty for the document itself).
    public var keyPath: String
    public var message: String
    /// The offending source line, for the caret display.
    public var sourceLine: String?

    public init(file: String, line: Int, column: Int, keyPath: String, message: String, sourceLine: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
        self.message = message
        self.sourceLine = sourceLine
    }

    /// The one-line form, `file:line:col: error: path: message`.
    public var headline: String {
        "\(file):\(line):\(column): error: \(keyPath.isEmpty ? "" : keyPath + ": ")\(message)"
    }

    public var description: String {
        guard let sourceLine else { return headline }
        let caret = String(repeating: " ", count: max(0, column - 1)) + "^"
        return "\(headline)\n\(sourceLine)\n\(caret)"
    }
}

/// One or more diagnostics: a file is checked whole and every problem reported at once.
public struct Diagnostics: Error, CustomStringConvertible, Sendable {
    public var items: [Diagnostic]

    public init(_ items: [Diagnostic]) { self.items = items }

    public var description: String { items.map(\.description).joined(separator: "\n") }
}
