/// Links from a page to a file, written so that any file name works: every path segment is
/// percent-encoded as UTF-8 (a space, `#`, `?`, `%`, `:` or `é` cannot end the path or start a
/// fragment, query or scheme), and the link is relative to the page's folder or an absolute `file://` URL.
public enum URLPath {
    /// The URL of a relative file path (`Thumbnails/2024/03/a b#1.jpg` -> `Thumbnails/2024/03/a%20b%231.jpg`).
    public static func encoded(_ relativePath: String) -> String {
        relativePath.split(separator: "/", omittingEmptySubsequences: false).map { segment($0) }.joined(separator: "/")
    }

    /// The relative URL from a page in `folder` to `path` (both relative to one root, or both
    /// absolute): `from: "gallery", to: "Thumbnails/x.jpg"` -> `../Thumbnails/x.jpg`.
    public static func relative(fromFolder folder: String, to path: String) -> String {
        let from = components(folder), to = components(path)
        var common = 0
        while common < from.count, common < to.count - 1, from[common] == to[common] { common += 1 }
        let up = Array(repeating: "..", count: from.count - common)
        return (up + to[common...].map(segment)).joined(separator: "/")
    }

    /// The `file://` URL of an absolute path (`/tmp/My Library/x.jpg` -> `file:///tmp/My%20Library/x.jpg`).
    public static func fileURL(_ absolutePath: String) -> String {
        "file://" + encoded(absolutePath)
    }

    private static func components(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init).filter { $0 != "." }
    }

    /// One segment, every byte outside the unreserved set (`A-Z a-z 0-9 - . _ ~`) percent-encoded.
    private static func segment<S: StringProtocol>(_ text: S) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
