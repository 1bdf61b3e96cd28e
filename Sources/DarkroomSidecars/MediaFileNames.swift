/// Which file names are photos or videos, for matching sidecars to them: by extension, ignoring
/// case. Wider than what Darkroom decodes (RAW files and Google's `.MP` motion videos have
/// sidecars too).
public enum MediaFileNames {
    /// Extensions of photos (including RAW) and videos, lower case.
    public static let extensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "heic", "heif", "hif", "avif", "png", "webp", "gif", "bmp", "tif", "tiff", "jxl",
        "dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "raf", "orf", "rw2", "pef", "srw", "x3f",
        "3fr", "iiq", "erf", "kdc", "mrw", "rwl",
        "mov", "mp4", "m4v", "3gp", "3g2", "mts", "m2ts", "avi", "mkv", "webm", "mpg", "mpeg", "wmv", "mp",
    ]

    /// Whether `name` ends in a photo or video extension.
    public static func isMedia(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }
}
