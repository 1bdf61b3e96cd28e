import Foundation

/// English for summaries.
public enum English {
    /// `1 file`, `2 files`, `0 files`: a count and its noun, plural unless the count is one.
    public static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(n == 1 ? noun : noun + "s")"
    }

    /// `1 photo`, `2 videos`, `3 files`: a count of the files at `paths`, named by their kind (photos
    /// or videos, by their names), or `file` when they are of both kinds.
    public static func count(_ n: Int, filesAt paths: [String]) -> String {
        let kinds = Set(paths.map { MediaKind(fileName: $0) })
        return count(n, kinds.count == 1 ? kinds.first!.rawValue : "file")
    }
}
