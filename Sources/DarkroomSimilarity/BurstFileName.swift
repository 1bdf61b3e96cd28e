import Foundation

/// The burst naming schemes of phone cameras, read from a file name.
///
/// Followed (see docs/duplicates.md for the sources): immich-go's `internal/filenames` parsers
/// (nexus.go, huawei.go, samsung.go, sony_xperia.go) and the file names reported in immich-go
/// issues 94, 99, 100, 345 and 1259, Simple-Gallery issue 952 and nextcloud/photos issue 298.
/// Pixel's `PXL_20231207_032111247.RAW-01.COVER.jpg` / `.RAW-02.ORIGINAL.dng` are not a burst but
/// one shot's JPEG and DNG (immich-go's pixel.go treats them as a RAW+JPEG stack), so they are not
/// matched here; Pixel bursts are found by their XMP `GCamera:BurstID`.
public struct BurstFileName: Hashable, Sendable {
    /// A naming scheme.
    public enum Pattern: String, Hashable, Sendable, CaseIterable {
        /// Google Camera on Nexus and older Pixels, and Sony Xperia: a burst timestamp shared by
        /// every frame, `00001IMG_00001_BURST20171111030039.jpg`, the primary ending `_COVER`
        /// (`00015IMG_00015_BURST20171111030039_COVER.jpg`, `DSC_0052_BURST20230709220904977_COVER.JPG`).
        case burstTimestamp
        /// Motorola, Huawei, Fairphone: a shared stem and a frame number,
        /// `IMG_20180914_094602055_BURST001.jpg`, the primary `..._BURST000_COVER.jpg` (or `_COVER_TOP`).
        case burstNumber
        /// Samsung: the capture second and a three-digit frame number, `20231207_101605_001.jpg`;
        /// the name does not say which frame Samsung chose.
        case samsungSequence
    }

    /// The scheme.
    public var pattern: Pattern
    /// What the frames of one burst share (the burst timestamp, or the stem).
    public var key: String
    /// Whether the name marks the burst's primary frame (`COVER`).
    public var isPrimary: Bool

    /// Reads `fileName`; nil when it follows no burst scheme.
    public init?(_ fileName: String) {
        // Most names follow no scheme: say so without a regular expression.
        let bytes = Array(fileName.utf8.prefix(16))
        let samsungShaped = bytes.count == 16 && bytes[8] == UInt8(ascii: "_") && bytes[15] == UInt8(ascii: "_")
        guard samsungShaped || fileName.range(of: "_BURST", options: .caseInsensitive) != nil else { return nil }
        let range = NSRange(fileName.startIndex..., in: fileName)
        func capture(_ match: NSTextCheckingResult, _ group: Int) -> String? {
            Range(match.range(at: group), in: fileName).map { String(fileName[$0]) }
        }
        if let match = Self.burstTimestamp.firstMatch(in: fileName, range: range), let key = capture(match, 1) {
            (pattern, self.key, isPrimary) = (.burstTimestamp, "BURST" + key, capture(match, 2) != nil)
        } else if let match = Self.burstNumber.firstMatch(in: fileName, range: range), let stem = capture(match, 1) {
            (pattern, key, isPrimary) = (.burstNumber, stem, capture(match, 3) != nil)
        } else if let match = Self.samsungSequence.firstMatch(in: fileName, range: range), let second = capture(match, 1) {
            (pattern, key, isPrimary) = (.samsungSequence, second, false)
        } else {
            return nil
        }
    }

    // `..._BURST` then 14 to 17 digits (yyyyMMddHHmmss and milliseconds), an optional `_COVER`, one extension.
    private static let burstTimestamp = try! NSRegularExpression(pattern: #"^.+_BURST(\d{14,17})(_COVER)?\.[A-Za-z0-9]+$"#, options: .caseInsensitive)
    // A stem, `_BURST` and one to three digits, an optional `_COVER` or `_COVER_TOP`.
    private static let burstNumber = try! NSRegularExpression(pattern: #"^(.+)_BURST(\d{1,3})(_COVER(?:_TOP)?)?\.[A-Za-z0-9]+$"#, options: .caseInsensitive)
    // yyyyMMdd_HHmmss_NNN.
    private static let samsungSequence = try! NSRegularExpression(pattern: #"^(\d{8}_\d{6})_(\d{3})\.[A-Za-z0-9]+$"#)
}
