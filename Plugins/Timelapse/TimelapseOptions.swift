import DarkroomCore
import DarkroomVideo
import DarkroomVips
import Foundation

/// Options of the `timelapse` stage.
///
///     - timelapse:
///         seconds-per-frame: 0.3
///         size: 1920x1080
///         fit: contain
///         caption: true
///         output: timelapse.mp4
public struct TimelapseOptions: StageOptions {
    /// Which photo represents a day when `one-per-day` is on.
    public enum DayPick: String, Codable, Sendable, CaseIterable {
        case all, first, middle, last
    }

    /// How a photo fills the frame.
    public enum Fit: String, Codable, Sendable, CaseIterable {
        /// The whole photo, letterboxed with `background`.
        case contain
        /// The frame filled, the photo cropped.
        case cover
    }

    /// Which part of a photo `cover` keeps.
    public enum CoverCrop: String, Codable, Sendable, CaseIterable {
        case centre, attention

        var vips: Image.Crop { self == .centre ? .centre : .attention }
    }

    /// Where the caption sits.
    public enum CaptionPosition: String, Codable, Sendable, CaseIterable {
        case topLeft = "top-left", top = "top", topRight = "top-right"
        case bottomLeft = "bottom-left", bottom = "bottom", bottomRight = "bottom-right"
    }

    /// How long each photo is shown, in seconds.
    public var secondsPerPhoto: Double
    /// The output's constant frame rate.
    public var frameRate: Int
    public var onePerDay: DayPick
    /// First day included (inclusive), if any.
    public var from: LocalDateTime?
    /// Last day included (inclusive), if any.
    public var to: LocalDateTime?
    public var size: FrameSize
    public var fit: Fit
    public var crop: CoverCrop
    public var background: Colour
    public var caption: Bool
    public var captionFormat: String
    public var captionPosition: CaptionPosition
    /// The caption's font size in pixels; nil for a twentieth of the frame height.
    public var captionSize: Int?
    public var captionColour: Colour
    public var captionFont: String
    /// Frames of crossfade into each photo (0: hard cuts).
    public var crossfade: Int
    public var deflicker: Bool
    /// How many neighbouring photos the deflicker's moving average spans (odd).
    public var deflickerWindow: Int
    public var codec: VideoCodec
    public var crf: Double
    public var preset: String
    public var output: PathTemplate

    /// Output-path fields: the first photo's date.
    static let outputFields = ["yyyy", "MM", "dd"]

    public static let fields: [OptionField] = [
        OptionField("seconds-per-frame", "How long each photo is shown, in seconds.", default: "0.3"),
        OptionField("fps", "Photos per second instead of seconds-per-frame (fps: 10 is 0.1 s a photo).", default: ""),
        OptionField("frame-rate", "Output frames per second, kept standard so the file plays and uploads everywhere: 24, 25, 30, 50 or 60.", default: "30"),
        OptionField("one-per-day", "Keep one photo per calendar day: first, middle (the earlier of two middle ones) or last; all keeps every photo.", default: "all"),
        OptionField("from", "First day to include, yyyy-MM-dd (inclusive).", default: ""),
        OptionField("to", "Last day to include, yyyy-MM-dd (inclusive).", default: ""),
        OptionField("size", "Frame size WxH (odd sides rounded up to even) or a preset: "
                        + FrameSize.presets.map { "\($0.name) \($0.size)" }.joined(separator: ", ") + ".", default: "1920x1080"),
        OptionField("fit", "contain: whole photo, letterboxed with background; cover: fill the frame, cropping.", default: "contain"),
        OptionField("crop", "For cover: centre, or attention (keep the most interesting region).", default: "centre"),
        OptionField("background", "Letterbox colour, #rrggbb or a name.", default: "#000000"),
        OptionField("caption", "Draw the capture date on each photo.", default: "false"),
        OptionField("caption-format", "Date pattern (Unicode/ICU: yyyy-MM-dd, d MMM yyyy, EEEE...).", default: "yyyy-MM-dd"),
        OptionField("caption-position", "top-left, top, top-right, bottom-left, bottom or bottom-right.", default: "bottom-right"),
        OptionField("caption-size", "Font size in pixels.", default: "frame height / 20"),
        OptionField("caption-colour", "Text colour, #rrggbb[aa] or a name (a soft shadow is added).", default: "#ffffff"),
        OptionField("caption-font", "Pango font family and style.", default: "DejaVu Sans Bold"),
        OptionField("crossfade", "Frames of crossfade into each photo (0: cuts). At most one less than a photo's frames.", default: "0"),
        OptionField("deflicker", "Even out brightness: scale each photo toward the mean brightness of its neighbours.", default: "false"),
        OptionField("deflicker-window", "Photos in the deflicker's moving average (odd, 3-99).", default: "7"),
        OptionField("codec", "h264 (libx264, plays everywhere) or hevc (libx265, tagged hvc1).", default: "h264"),
        OptionField("crf", "Constant rate factor 0-51: lower is better and bigger.", default: "20"),
        OptionField("preset", "Encoder speed: " + VideoEncoding.presets.joined(separator: ", ") + ".", default: "medium"),
        OptionField("output", "Path inside the library, ending .mp4; may use {yyyy} {MM} {dd} of the first photo.", default: "timelapse.mp4"),
    ]

    public init(from decoder: Decoder) throws {
        let reader = try OptionsReader(decoder)
        let seconds = try reader.optional("seconds-per-frame", Double.self, where: { $0 > 0 && $0 <= 3600 },
                                          expected: "a number of seconds above 0, at most 3600")
        let photosPerSecond = try reader.optional("fps", Double.self, where: { $0 > 0 && $0 <= 240 },
                                                  expected: "a number of photos per second above 0, at most 240")
        if seconds != nil && photosPerSecond != nil {
            throw reader.invalid("fps", expected: "either seconds-per-frame or fps, not both", got: "both")
        }
        secondsPerPhoto = seconds ?? photosPerSecond.map { 1 / $0 } ?? 0.3
        frameRate = try reader.value("frame-rate", default: 30, where: { [24, 25, 30, 50, 60].contains($0) },
                                     expected: "one of 24, 25, 30, 50, 60")
        if secondsPerPhoto * Double(frameRate) < 0.999 {
            throw reader.invalid(photosPerSecond == nil ? "seconds-per-frame" : "fps",
                                 expected: "each photo to last at least one frame (1/\(frameRate) s at frame-rate \(frameRate))",
                                 got: String(format: "%g s a photo", secondsPerPhoto))
        }
        onePerDay = try reader.choice("one-per-day", default: .all)
        from = try Self.day(reader, "from")
        to = try Self.day(reader, "to")
        if let from, let to, to < from {
            throw reader.invalid("to", expected: "a day on or after from (\(Self.dayText(from)))", got: Self.dayText(to))
        }

        let sizeText = try reader.value("size", default: "1920x1080")
        guard let size = FrameSize(parsing: sizeText) else {
            throw reader.invalid("size", expected: "WxH with sides 2-\(FrameSize.maximumSide), or one of "
                                    + FrameSize.presets.map(\.name).joined(separator: ", "), got: "'\(sizeText)'")
        }
        self.size = size
        fit = try reader.choice("fit", default: .contain)
        crop = try reader.choice("crop", default: .centre)
        background = try Self.colour(reader, "background", default: .black)

        caption = try reader.value("caption", default: false)
        captionFormat = try reader.value("caption-format", default: "yyyy-MM-dd",
                                         where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty && $0.count <= 100 },
                                         expected: "a date pattern such as yyyy-MM-dd")
        captionPosition = try reader.choice("caption-position", default: .bottomRight)
        captionSize = try reader.optional("caption-size", Int.self, where: { $0 >= 4 && $0 <= size.height / 2 },
                                          expected: "a font size from 4 to half the frame height (\(size.height / 2)) pixels")
        captionColour = try Self.colour(reader, "caption-colour", default: .white)
        captionFont = try reader.value("caption-font", default: "DejaVu Sans Bold",
                                       where: { !$0.isEmpty && $0.count <= 200 }, expected: "a font name")

        crossfade = try reader.value("crossfade", default: 0, where: { $0 >= 0 }, expected: "a number of frames, 0 or more")
        let framesPerPhoto = Int((secondsPerPhoto * Double(frameRate)).rounded(.down))
        if crossfade > 0 && crossfade >= framesPerPhoto {
            throw reader.invalid("crossfade", expected: "fewer frames than each photo lasts (\(framesPerPhoto))", got: "\(crossfade)")
        }
        deflicker = try reader.value("deflicker", default: false)
        deflickerWindow = try reader.value("deflicker-window", default: 7, where: { $0 >= 3 && $0 <= 99 && $0 % 2 == 1 },
                                           expected: "an odd number from 3 to 99")

        codec = try reader.choice("codec", default: .h264)
        crf = try reader.value("crf", default: 20, where: { $0 >= 0 && $0 <= 51 }, expected: "a number from 0 to 51")
        preset = try reader.value("preset", default: "medium", where: { VideoEncoding.presets.contains($0) },
                                  expected: "one of " + VideoEncoding.presets.joined(separator: ", "))
        let outputText = try reader.value("output", default: "timelapse.mp4")
        do {
            output = try PathTemplate(outputText, allowedFields: Self.outputFields)
        } catch let error as TemplateError {
            throw reader.invalid("output", expected: "a path template", got: "'\(outputText)': \(error.message)")
        }
        guard (output.template as NSString).pathExtension.lowercased() == "mp4" else {
            throw reader.invalid("output", expected: "a file name ending in .mp4", got: "'\(outputText)'")
        }
    }

    /// The caption font size actually used.
    var effectiveCaptionSize: Int { captionSize ?? max(8, size.height / 20) }

    /// The encoder settings these options ask for.
    var encoding: VideoEncoding {
        VideoEncoding(codec: codec, width: size.width, height: size.height, frameRate: frameRate, crf: crf, preset: preset)
    }

    private static func day(_ reader: OptionsReader, _ key: String) throws -> LocalDateTime? {
        guard let text = try reader.optional(key, String.self) else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, text.count == 10, let y = parts[0], let m = parts[1], let d = parts[2],
              let day = LocalDateTime(year: y, month: m, day: d) else {
            throw reader.invalid(key, expected: "a day written yyyy-MM-dd", got: "'\(text)'")
        }
        return day
    }

    static func dayText(_ day: LocalDateTime) -> String { String(format: "%04d-%02d-%02d", day.year, day.month, day.day) }

    private static func colour(_ reader: OptionsReader, _ key: String, default fallback: Colour) throws -> Colour {
        guard let text = try reader.optional(key, String.self) else { return fallback }
        guard let colour = Colour(parsing: text) else {
            throw reader.invalid(key, expected: "a colour #rgb, #rrggbb, #rrggbbaa or a name (white, black, grey...)", got: "'\(text)'")
        }
        return colour
    }
}
