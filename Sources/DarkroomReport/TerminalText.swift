import Foundation

/// Text bound for a terminal or a log, with the control characters a file name can carry shown
/// escaped, as `ls` and git show them: a name holding an escape sequence (`evil\e]0;pwned\a.jpg`, which
/// a shared card or an export can carry) cannot retitle the terminal or colour what follows, and a
/// newline in a name cannot split one line into two. JSON and HTML escape these themselves.
public enum TerminalText {
    /// `text` with every C0 and C1 control character and DEL written as an escape (`\e`, `\a`, `\n`,
    /// `\t`, `\r`, `\x7f`, `\u{9b}`); everything else, accents included, as it is.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else { out.unicodeScalars.append(scalar); continue }
            switch scalar.value {
            case 0x1B: out += "\\e"
            case 0x07: out += "\\a"
            case 0x08: out += "\\b"
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x00...0x7F: out += String(format: "\\x%02x", scalar.value)
            default: out += String(format: "\\u{%x}", scalar.value)
            }
        }
        return out
    }

    /// C0 controls, DEL and C1 controls (which some terminals also obey).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
