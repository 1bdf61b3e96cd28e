import Foundation

/// What kind of failure a reason describes, in a few words, so a summary can count them:
/// `12 failed (9 truncated, 3 not a photo)`. Read from the reasons libvips, libheif, FFmpeg and the
/// stages give; a reason it does not recognise counts as an error of its step.
public enum FailureKind {
    /// Patterns in a reason (lower-cased) and the label they count as, first match wins.
    static let patterns: [(needles: [String], label: String)] = [
        (["disk is full", "no space left"], "disk full"),
        (["over the limit of", "security limit exceeded"], "over the pixel limit"),
        (["premature end", "truncated", "unexpected end of file", "no 'moov'", "moov atom not found"], "truncated"),
        (["not a known file format", "operation is blocked", "not a photo", "invalid data found when processing input"], "not a photo or video"),
        (["no video stream"], "no video stream"),
        (["corrupt", "invalid jpeg file structure", "bad image dimensions", "invalid input", "undefined bits per pixel",
          "empty jpeg image", "read error", "no decodable frame"], "corrupt"),
        (["no capture date"], "no capture date"),
        (["map to the same output path", "is not darkroom's"], "output path taken"),
        (["changed while it was being imported", "disappeared while"], "changed while importing"),
        (["cannot read", "permission denied", "no such file"], "unreadable"),
    ]

    /// A short label for a failure at `step` with `reason`.
    public static func label(step: String, reason: String) -> String {
        let text = reason.lowercased()
        return patterns.first { $0.needles.contains { text.contains($0) } }?.label ?? "\(step) error"
    }
}
