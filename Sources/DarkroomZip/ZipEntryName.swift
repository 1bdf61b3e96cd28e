/// Entry names as an archive may hold them: relative, `/`-separated, without `.` or `..`.
///
/// Extractors join names to their target folder; a name with `..` or a leading `/` would write
/// outside it ("zip slip"). Rather than trust the caller, every name is cleaned here: backslashes
/// become `/`, empty, `.` and `..` components are dropped (`../../etc/x` becomes `etc/x`,
/// `/a//b/./c` becomes `a/b/c`). Names are stored as UTF-8 (general purpose flag bit 11).
enum ZipEntryName {
    /// The longest name a header can hold (a 16-bit length).
    static let maximumBytes = 0xFFFF

    /// The cleaned name, or nil when nothing usable is left, it holds a NUL, or it is too long.
    static func sanitised(_ name: String) -> String? {
        guard !name.utf8.contains(0) else { return nil }
        let components = name.replacingOccurrences(of: "\\", with: "/")
            .split(separator: "/", omittingEmptySubsequences: true)
            .filter { $0 != "." && $0 != ".." }
        guard !components.isEmpty else { return nil }
        let cleaned = components.joined(separator: "/")
        return cleaned.utf8.count <= maximumBytes ? cleaned : nil
    }
}
