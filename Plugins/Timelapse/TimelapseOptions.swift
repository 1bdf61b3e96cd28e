import DarkroomCore
import DarkroomVideo
import DarkroomVips
import Foundation
import DarkroomModel
import DarkroomOptions

/// Options of the `timelapse` stage.
///
///     - timelapse:
///         seconds-per-frame: 0.3
///         size: 1920x1080
///         fit: contain
///         caption: true
///         align: scene          # hand-held photos mapped onto one another (TimelapseOptions+Alignment)
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

    /// What the stage writes: a video, or an animated image to share in chats.
    public enum Format: String, Codable, Sendable, CaseIterable {
        case mp4, webp, gif

        /// The animated-image format, nil for the MP4 video.
        var animation: AnimationFormat? {
            switch self {
            case .mp4: return nil
            case .webp: return .webp
            case .gif: return .gif
            }
        }
    }

    /// A GIF's colours: one palette for the whole animation, or one a frame.
    public enum Palette: String, Codable, Sendable, CaseIterable {
        case global, frame
    }

    /// How long each photo is shown, in seconds.
    public var secondsPerPhoto: Double
    /// The output's frame rate: every timestamp is on its grid.
    public var frameRate: Int
    /// Each photo encoded once and held (`variable`), or every frame written (`constant`).
    public var frameTiming: FrameTiming
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
    /// How photos are mapped onto one another.
    public var align: Align
    /// What happens to a photo that cannot be aligned.
    public var unaligned: Unaligned
    /// What an aligned photo shows where it does not reach the frame.
    public var fill: Fill
    public var format: Format
    /// For `webp` and `gif`: the largest file wanted, in bytes; nil for no limit.
    public var maxBytes: Int?
    /// For `gif`: one palette or one a frame.
    public var palette: Palette
    public var output: PathTemplate
    /// Which shots of a burst it shows (`pick`: one a burst).
    public var bursts: BurstChoice

    /// Output-path fields: the first photo's date.
    static let outputFields = ["yyyy", "MM", "dd"]

    static let secondsOption = StageOption<Double?>.custom(
        "seconds-per-frame", as: Double.self, default: nil, shown: "0.3", accepts: "a number of seconds above 0, at most 3600",
        "How long each photo is shown, in seconds.") { $0 > 0 && $0 <= 3600 ? $0 : nil }
    static let fpsOption = StageOption<Double?>.custom(
        "fps", as: Double.self, default: nil, shown: "", accepts: "a number of photos per second above 0, at most 240",
        "Photos per second instead of seconds-per-frame (fps: 10 is 0.1 s a photo).") { $0 > 0 && $0 <= 240 ? $0 : nil }
    static let frameRateOption = StageOption<Int>.value(
        "frame-rate", default: 30, accepts: "one of 24, 25, 30, 50, 60", where: { [24, 25, 30, 50, 60].contains($0) },
        "Output frames per second, kept standard so the file plays and uploads everywhere.")
    static let frameTimingOption = StageOption.choice(
        "frame-timing", default: FrameTiming.variable,
        "variable: each photo is encoded once and shown for its time (timestamps on the frame-rate grid: players show the same frames at the same times, much faster to make); constant: every frame is written, for editors that need a constant frame rate. Crossfade frames are at the full frame rate either way.")
    static let onePerDayOption = StageOption.choice(
        "one-per-day", default: DayPick.all,
        "Keep one photo per calendar day: the first, the middle one (the earlier of two middle ones) or the last; all keeps every photo.")
    static let fromOption = StageOption.day("from", "First day to include (inclusive).")
    static let toOption = StageOption.day("to", "Last day to include (inclusive).")
    static let sizeOption = StageOption<FrameSize>.custom(
        "size", as: String.self, default: FrameSize(parsing: "1920x1080")!, shown: "1920x1080 (720x405 for webp and gif)",
        accepts: "WxH with sides 2-\(FrameSize.maximumSide), or one of " + FrameSize.presets.map(\.name).joined(separator: ", "),
        names: FrameSize.presets.map(\.name),
        "Frame size (odd sides rounded up to even) or a preset: " + FrameSize.presets.map { "\($0.name) \($0.size)" }.joined(separator: ", ") + "."
    ) { FrameSize(parsing: $0) }
    static let fitOption = StageOption.choice(
        "fit", default: Fit.contain, "contain: the whole photo, letterboxed with background; cover: fill the frame, cropping.")
    static let cropOption = StageOption.choice(
        "crop", default: CoverCrop.centre, "For cover: keep the centre, or attention (the most interesting region).")
    static let backgroundOption = StageOption.colour("background", default: .black, shown: "#000000", "Letterbox colour.")
    static let captionOption = StageOption.flag("caption", default: false, "Draw the capture date on each photo.")
    static let captionFormatOption = StageOption<String>.value(
        "caption-format", default: "yyyy-MM-dd", accepts: "a date pattern such as yyyy-MM-dd",
        where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty && $0.count <= 100 },
        "Date pattern (Unicode/ICU: yyyy-MM-dd, d MMM yyyy, EEEE...).")
    static let captionPositionOption = StageOption.choice("caption-position", default: CaptionPosition.bottomRight, "Where the caption sits.")
    static let captionSizeOption = StageOption<Int?>.custom(
        "caption-size", as: Int.self, default: nil, shown: "frame height / 20",
        accepts: "a font size from 4 to half the frame height, in pixels", "Font size in pixels.") { $0 >= 4 ? $0 : nil }
    static let captionColourOption = StageOption.colour(
        "caption-colour", default: .white, shown: "#ffffff", "Text colour (a soft shadow is added).")
    static let captionFontOption = StageOption<String>.value(
        "caption-font", default: "DejaVu Sans Bold", accepts: "a font name", where: { !$0.isEmpty && $0.count <= 200 },
        "Pango font family and style.")
    static let crossfadeOption = StageOption<Int>.value(
        "crossfade", default: 0, accepts: "a number of frames, 0 or more", where: { $0 >= 0 },
        "Frames of crossfade into each photo (0: cuts). At most one less than a photo's frames.")
    static let deflickerOption = StageOption.flag(
        "deflicker", default: false, "Even out brightness: scale each photo toward the mean brightness of its neighbours.")
    static let deflickerWindowOption = StageOption<Int>.value(
        "deflicker-window", default: 7, accepts: "an odd number from 3 to 99", where: { $0 >= 3 && $0 <= 99 && $0 % 2 == 1 },
        "Photos in the deflicker's moving average.")
    static let codecOption = StageOption.choice("codec", default: VideoCodec.h264, "h264 (libx264, plays everywhere) or hevc (libx265, tagged hvc1).")
    static let crfOption = StageOption<Double>.value(
        "crf", default: 20, accepts: "a number from 0 to 51", where: { $0 >= 0 && $0 <= 51 },
        "Constant rate factor: lower is better and bigger.")
    static let presetOption = StageOption.oneOf("preset", VideoEncoding.presets, default: "medium", "Encoder speed: slower makes smaller files.")
    static let formatOption = StageOption.choice(
        "format", default: Format.mp4,
        "mp4: H.264/HEVC video; webp or gif: an animated image that chat apps play inline (one frame a photo, each shown for seconds-per-frame, looping forever; \(AnimationSize.defaultLongEdge) px long edge unless size is given, at most \(AnimationSize.maximumLongEdge)).")
        .keyedOnlyWhenNotDefault()  // added after time-lapses were made: at mp4 they keep their work
    static let maxBytesOption = StageOption<Int?>.custom(
        "max-bytes", as: String.self, default: nil, shown: "no limit", accepts: "a number of bytes such as 8000000, 800KB or 8MB",
        "For webp and gif: the largest file wanted. A bigger result is made again smaller (long edge lowered step by step to \(AnimationSize.minimumLongEdge) px, then every other photo left out) until it fits; the run says what was lowered, and fails when it cannot fit.") {
        ByteCount.parse($0)
    }
    static let paletteOption = StageOption.choice(
        "palette", default: Palette.global,
        "For gif, 256 colours from: global, every photo (a first pass reads them all; what stays the same from photo to photo is stored once, several times smaller for one scene); frame, each photo's own (truer colours when photos differ a lot, bigger). Dithered (Sierra-2-4A) either way.")
        .keyedOnlyWhenNotDefault()  // added after time-lapses were made
    static let outputOption = StageOption.template(
        "output", default: "timelapse.mp4", fields: outputFields,
        "Path inside the library, ending .mp4 (.webp or .gif with that format; timelapse.webp or timelapse.gif by default); may use {yyyy} {MM} {dd} of the first photo.")

    public static let options: [any OptionDeclaration] = [
        secondsOption, fpsOption, frameRateOption, frameTimingOption, onePerDayOption, fromOption, toOption, sizeOption,
        fitOption, cropOption, backgroundOption, captionOption, captionFormatOption, captionPositionOption, captionSizeOption,
        captionColourOption, captionFontOption, crossfadeOption, deflickerOption, deflickerWindowOption, codecOption, crfOption,
        presetOption,
        BurstChoice.option,
    ] + alignmentOptions + [formatOption, maxBytesOption, paletteOption, outputOption]

    public init(from decoder: Decoder) throws {
        // Named in the key as they always were (`frameRate`), so libraries keep their work.
        let reader = try OptionsReader(decoder, declaring: Self.options, keyNames: .camelCase)
        let seconds = reader.read(Self.secondsOption)
        let photosPerSecond = reader.read(Self.fpsOption)
        if seconds != nil && photosPerSecond != nil {
            reader.reject(Self.fpsOption, expected: "either seconds-per-frame or fps, not both", got: "both")
        }
        secondsPerPhoto = seconds ?? photosPerSecond.map { 1 / $0 } ?? 0.3
        reader.key("secondsPerPhoto", secondsPerPhoto, for: Self.secondsOption, Self.fpsOption)
        frameRate = reader.read(Self.frameRateOption)
        if secondsPerPhoto * Double(frameRate) < 0.999 {
            reader.reject(photosPerSecond == nil ? Self.secondsOption : Self.fpsOption,
                          expected: "each photo to last at least one frame (1/\(frameRate) s at frame-rate \(frameRate))",
                          got: String(format: "%g s a photo", secondsPerPhoto))
        }
        frameTiming = reader.read(Self.frameTimingOption)
        onePerDay = reader.read(Self.onePerDayOption)
        let days = reader.readDays(from: Self.fromOption, to: Self.toOption)
        (from, to) = (days.from, days.to)

        format = reader.read(Self.formatOption)
        size = reader.read(Self.sizeOption, default: format.animation == nil ? Self.sizeOption.defaultValue : AnimationSize.defaultSize)
        if format.animation != nil, max(size.width, size.height) > AnimationSize.maximumLongEdge {
            reader.reject(Self.sizeOption, expected: "a long edge of at most \(AnimationSize.maximumLongEdge) px for format \(format.rawValue) "
                          + "(chat apps show animations no bigger; \(AnimationSize.defaultLongEdge) suits them)", got: "\(size)")
        }
        align = reader.read(Self.alignOption)
        unaligned = reader.read(Self.unalignedOption, onlyIf: align != .none, expected: "unaligned only with align scene or face", got: "align none")
        fill = reader.read(Self.fillOption, onlyIf: align != .none, expected: "fill only with align scene or face", got: "align none")
        // Aligned photos are placed to fill the frame (then cropped once to what they all cover).
        fit = reader.read(Self.fitOption, default: align == .none ? Self.fitOption.defaultValue : .cover)
        if align != .none, fit == .contain {
            reader.reject(Self.fitOption, expected: "cover (aligned photos fill the frame, cropped once to what they all cover)",
                          got: "contain with align \(align.rawValue)")
        }
        crop = reader.read(Self.cropOption)
        background = reader.read(Self.backgroundOption)

        caption = reader.read(Self.captionOption)
        captionFormat = reader.read(Self.captionFormatOption)
        captionPosition = reader.read(Self.captionPositionOption)
        captionSize = reader.read(Self.captionSizeOption)
        if let captionSize, captionSize > size.height / 2 {
            reader.reject(Self.captionSizeOption, expected: "a font size from 4 to half the frame height (\(size.height / 2)) pixels",
                          got: "\(captionSize)")
        }
        captionColour = reader.read(Self.captionColourOption)
        captionFont = reader.read(Self.captionFontOption)

        crossfade = reader.read(Self.crossfadeOption)
        let framesPerPhoto = Int((secondsPerPhoto * Double(frameRate)).rounded(.down))
        if crossfade > 0 && crossfade >= framesPerPhoto {
            reader.reject(Self.crossfadeOption, expected: "fewer frames than each photo lasts (\(framesPerPhoto))", got: "\(crossfade)")
        }
        deflicker = reader.read(Self.deflickerOption)
        deflickerWindow = reader.read(Self.deflickerWindowOption)

        codec = reader.read(Self.codecOption)
        crf = reader.read(Self.crfOption)
        preset = reader.read(Self.presetOption)
        maxBytes = reader.read(Self.maxBytesOption)
        if format.animation == nil, maxBytes != nil {
            reader.reject(Self.maxBytesOption, expected: "max-bytes only with format webp or gif", got: "format mp4")
        }
        palette = reader.read(Self.paletteOption)
        if format != .gif, reader.isGiven(Self.paletteOption) {
            reader.reject(Self.paletteOption, expected: "palette only with format gif", got: "format \(format.rawValue)")
        }
        if format.animation != nil {
            if secondsPerPhoto < AnimationSchedule.minimumSeconds {
                reader.reject(photosPerSecond == nil ? Self.secondsOption : Self.fpsOption,
                              expected: "at least \(AnimationSchedule.minimumSeconds) s a photo for format \(format.rawValue) "
                                  + "(browsers show shorter frames for 0.1 s)", got: String(format: "%g s a photo", secondsPerPhoto))
            }
            for videoOnly in [Self.codecOption, Self.crfOption, Self.presetOption, Self.frameTimingOption] as [any OptionDeclaration]
            where reader.isGiven(videoOnly) {
                reader.reject(videoOnly, expected: "\(videoOnly.key) only with format mp4", got: "format \(format.rawValue)")
            }
        }
        output = reader.read(Self.outputOption, default: format == .mp4 ? Self.outputOption.defaultValue
                             : try! PathTemplate("timelapse.\(format.rawValue)", allowedFields: Self.outputFields))
        reader.requireExtension(Self.outputOption, of: output, in: [format.rawValue], why: "for format \(format.rawValue)")
        bursts = reader.read(BurstChoice.option)
        try reader.finish()
    }

    /// The caption font size actually used.
    var effectiveCaptionSize: Int { captionSize ?? max(8, size.height / 20) }

    /// The encoder settings these options ask for.
    var encoding: VideoEncoding {
        VideoEncoding(codec: codec, width: size.width, height: size.height, frameRate: frameRate, frameTiming: frameTiming,
                      crf: crf, preset: preset)
    }
}
