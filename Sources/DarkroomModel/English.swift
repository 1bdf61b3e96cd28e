import Foundation

/// English for summaries.
public enum English {
    /// `1 file`, `2 files`, `0 files`: a count and its noun, plural unless the count is one.
    public static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(n == 1 ? noun : noun + "s")"
    }
}
