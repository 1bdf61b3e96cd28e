import Foundation

/// A shell-style glob over relative paths: `*` and `?` stay within a folder, `**/` spans folders,
/// `{a,b}` gives alternatives, `[abc]` a character class. Matching ignores case.
public struct Glob: Sendable, CustomStringConvertible {
    public let pattern: String
    private let regex: NSRegularExpression
    /// The same pattern matched without the regular expression, where that answers the same.
    private let matcher: GlobMatcher?

    /// Nil when the pattern is malformed (unbalanced braces or brackets).
    public init?(_ pattern: String) {
        self.pattern = pattern
        var out = "^"
        var chars = Array(pattern)[...]
        var braceDepth = 0
        while let c = chars.popFirst() {
            switch c {
            case "*":
                if chars.first == "*" {
                    chars.removeFirst()
                    if chars.first == "/" { chars.removeFirst(); out += "(?:.*/)?" } else { out += ".*" }
                } else {
                    out += "[^/]*"
                }
            case "?": out += "[^/]"
            case "{": braceDepth += 1; out += "(?:"
            case "}":
                guard braceDepth > 0 else { return nil }
                braceDepth -= 1; out += ")"
            case "," where braceDepth > 0: out += "|"
            case "[":
                guard let end = chars.firstIndex(of: "]") else { return nil }
                var body = String(chars[chars.startIndex..<end])
                if body.hasPrefix("!") { body = "^" + body.dropFirst() }
                out += "[" + body.replacingOccurrences(of: "\\", with: "\\\\") + "]"
                chars = chars[chars.index(after: end)...]
            default: out += NSRegularExpression.escapedPattern(for: String(c))
            }
        }
        guard braceDepth == 0, let regex = try? NSRegularExpression(pattern: out + "$", options: [.caseInsensitive]) else {
            return nil
        }
        self.regex = regex
        matcher = GlobMatcher(pattern)
    }

    /// Whether a relative path (with `/` separators) matches.
    public func matches(_ path: String) -> Bool {
        if let answer = matcher?.matches(path) { return answer }
        return regex.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
    }

    public var description: String { pattern }
}
