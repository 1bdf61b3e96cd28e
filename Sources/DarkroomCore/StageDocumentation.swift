import Foundation

/// The stages' documentation, rendered from their option declarations: the text `darkroom stages`
/// prints and the Markdown tables in the README (a test keeps the README equal to `markdown`).
public enum StageDocumentation {
    /// Plain text: each stage with its summary, then one line per option.
    public static func text(_ stages: [StageDescriptor]) -> String {
        stages.map { stage in
            (["\(stage.name) (\(stage.kind.rawValue))", "  \(stage.summary)"] + stage.options.map { option in
                let value = option.defaultText.isEmpty ? "" : " [default: \(option.defaultText)]"
                return "    \(option.key): \(option.summary) Accepts \(option.accepts).\(value)"
            }).joined(separator: "\n")
        }.joined(separator: "\n") + "\n"
    }

    /// Markdown: a heading and a table of options per stage.
    public static func markdown(_ stages: [StageDescriptor]) -> String {
        stages.map { stage in
            var lines = ["#### \(stage.name) (\(stage.kind.rawValue))", "", stage.summary, ""]
            if stage.options.isEmpty {
                lines.append("No options.")
            } else {
                lines += ["| option | default | accepts | what it does |", "| --- | --- | --- | --- |"]
                lines += stage.options.map { option in
                    let defaultText = option.defaultText.isEmpty ? "" : "`\(cell(option.defaultText))`"
                    return "| `\(option.key)` | \(defaultText) | \(cell(option.accepts)) | \(cell(option.summary)) |"
                }
            }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n\n") + "\n"
    }

    /// Text made safe inside a table cell.
    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
