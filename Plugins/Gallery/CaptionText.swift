import DarkroomCaptions
import DarkroomCore
import Foundation
import DarkroomModel

/// The words the pages use for dates, months, places, videos and where a date came from (English).
enum CaptionText {
    /// `March 2024`.
    static func month(_ month: Month) -> String {
        LocalDateTime(year: month.year, month: month.month, day: 1).map(monthFormat.string) ?? "\(month.year)-\(month.month)"
    }

    /// `March`.
    static func monthName(_ month: Month) -> String {
        LocalDateTime(year: month.year, month: month.month, day: 1).map(monthNameFormat.string) ?? "\(month.month)"
    }

    /// `Saturday 9 March`.
    static func day(_ date: LocalDateTime) -> String { dayFormat.string(date) }

    /// `Saturday 9 March 2024, 14:03`.
    static func dateTime(_ date: LocalDateTime) -> String { dateTimeFormat.string(date) }

    private static let monthFormat = DateText(pattern: "MMMM yyyy")
    private static let monthNameFormat = DateText(pattern: "MMMM")
    private static let dayFormat = DateText(pattern: "EEEE d MMMM")
    private static let dateTimeFormat = DateText(pattern: "EEEE d MMMM yyyy, HH:mm")

    /// Where a date came from, as a person reads it.
    static func source(_ source: CaptureDate.Source) -> String {
        switch source {
        case .exifOriginal: return "EXIF date taken (DateTimeOriginal)"
        case .exifDigitized: return "EXIF date digitised (DateTimeDigitized)"
        case .gps: return "GPS time"
        case .xmp: return "XMP metadata"
        case .filename: return "the file name"
        case .fileModified: return "the file's modification time"
        case .quickTimeCreationDate: return "the video's QuickTime creation date"
        case .camcorderRecordingDate: return "the camcorder's recording date"
        case .quickTimeCreationTime: return "the video's creation time (UTC)"
        case .xmpSidecar: return "the XMP sidecar"
        case .takeout: return "Google Takeout's photo-taken time"
        case .user: return "a date set by hand (darkroom catalog set-date)"
        }
    }

    /// `Date from EXIF date taken (DateTimeOriginal)`; a low-confidence one says so.
    static func dateSource(_ date: CaptureDate?) -> String {
        guard let date else { return "No capture date" }
        let text = "Date from \(source(date.source))"
        return date.confidence == .low ? text + ": low confidence, it may be wrong" : text
    }

    /// `0:07`, `2:05`, `1:02:03`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, rest) = (total / 3600, total % 3600 / 60, total % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }

    /// `48.8584° N, 2.2945° E`.
    static func place(_ location: GeoLocation) -> String {
        String(format: "%.4f° %@, %.4f° %@", abs(location.latitude), location.latitude < 0 ? "S" : "N",
               abs(location.longitude), location.longitude < 0 ? "W" : "E")
    }

    /// A video's length and encoding: `0:12 · HEVC 10-bit HLG`.
    static func videoFacts(_ video: VideoFacts) -> String {
        var encoding = video.codec.uppercased()
        if video.bitDepth > 8 { encoding += " \(video.bitDepth)-bit" }
        if let transfer = video.hdrTransfer { encoding += " " + transfer.rawValue.uppercased() }
        return "\(duration(video.duration)) · \(encoding)"
    }

    /// The larger view's second line: camera, place, video facts.
    static func details(_ entry: GalleryEntry) -> String {
        [entry.rawPair ? "RAW+JPEG" : nil, entry.video.map(videoFacts), entry.camera, entry.location.map(place)].compactMap { $0 }
            .joined(separator: " · ")
    }

    /// What a person who cannot see the thumbnail is told: kind, date, camera, and an uncertain date.
    static func alt(_ entry: GalleryEntry) -> String {
        var text = entry.kind == .video ? "Video" : entry.motion != nil ? "Live photo" : "Photo"
        if let seconds = entry.video?.duration { text += ", \(duration(seconds)),"}
        if let date = entry.date?.local {
            text += " taken \(day(date)) \(date.year) at " + String(format: "%02d:%02d", date.hour, date.minute)
        } else {
            text += " with no capture date"
        }
        if let camera = entry.camera { text += " with \(camera)" }
        if entry.rawPair { text += ", shot RAW+JPEG" }
        if entry.uncertainDate { text += " (date uncertain)" }
        return text
    }

    /// `123 photos and 4 videos`.
    static func count(photos: Int, videos: Int) -> String {
        let parts = [photos > 0 || videos == 0 ? plural(photos, "photo") : nil, videos > 0 ? plural(videos, "video") : nil]
        return parts.compactMap { $0 }.joined(separator: " and ")
    }

    /// `1 photo`, `1,234 photos`.
    static func plural(_ count: Int, _ noun: String) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.locale = Locale(identifier: "en_GB")
        return "\(formatter.string(from: NSNumber(value: count)) ?? String(count)) \(noun)\(count == 1 ? "" : "s")"
    }
}
