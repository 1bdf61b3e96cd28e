import DarkroomCore
import DarkroomOptions

/// A valid value other than the default for each option of each built-in stage, as YAML: made from
/// the declaration when its `accepts` says enough (`true or false`, `one of ...`, `an integer from
/// A to B`), else taken from `table`. An option with neither has no example, and the test that asks
/// for one fails: a new option cannot be left out of the key test.
enum OptionExamples {
    /// Examples of options whose `accepts` does not give one, by `stage.option`.
    static let table: [String: String] = [
        "exif-date.sources": "[gps, exif-original]",
        "heic-encode.thumbnail": "off",
        "heic-encode.output": #""Photos/{yyyy}/{id}.heic""#,
        "thumbnail.size": "300",
        "thumbnail.sizes": "[200, 1024]",
        "thumbnail.output": #""Thumbs/{yyyy}/{id}.jpg""#,
        "motion-video.output": #""Live/{yyyy}/{id}.{ext}""#,
        "video-encode.long-edge": "1280",
        "video-encode.output": #""Movies/{yyyy}/{id}.{ext}""#,
        "collage.template": "polaroid",
        "collage.size": "portrait",
        "collage.grid": "3x3",
        "collage.photos-per-collage": "4",
        "collage.title": #""{count} photos""#,
        "collage.date-format": "yyyy",
        "collage.font": "DejaVu Serif",
        "collage.text-colour": ##""#ff0000""##,
        "collage.background": ##""#00ff00""##,
        "collage.output": #""collages/{n}.jpg""#,
        "timelapse.seconds-per-frame": "0.5",
        "timelapse.fps": "10",
        "timelapse.from": "2024-01-01",
        "timelapse.to": "2024-12-31",
        "timelapse.size": "1280x720",
        "timelapse.background": ##""#ffffff""##,
        "timelapse.caption-format": #""d MMM""#,
        "timelapse.caption-size": "40",
        "timelapse.caption-colour": ##""#000000""##,
        "timelapse.caption-font": "DejaVu Serif",
        "timelapse.crossfade": "3",
        "timelapse.deflicker-window": "5",
        "timelapse.crf": "23",
        "timelapse.output": "lapse.mp4",
        "timelapse.max-bytes": "8MB",
        "photo-book.from": "2024-01-01",
        "photo-book.to": "2024-12-31",
        "photo-book.layout": "layout.yaml",
        "photo-book.title": #""My book""#,
        "photo-book.caption-format": "yyyy",
        "photo-book.font": "DejaVu Serif",
        "photo-book.margin": "20",
        "photo-book.gutter": "3",
        "photo-book.output": #""books/{yyyy}.pdf""#,
        "gallery.folder": "pages",
        "gallery.title": "Trips",
        "gallery.thumbnails": #""Thumbnails/{yyyy}/{id}.jpg""#,
        "gallery.large": #""gallery/big/{yyyy}/{MM}/{id}.jpg""#,
    ]

    /// Other options an option needs to have an effect, by `stage.option` (a square's crop, a
    /// transcode's settings, a heic collage's preset).
    static let context: [String: String] = [
        "thumbnail.crop": "mode: square",
        "video-encode.long-edge": "codec: h264",
        "video-encode.crf": "codec: h264",
        "video-encode.preset": "codec: h264",
        "collage.preset": "format: heic",
        "collage.align": "template: then-and-now",
        "collage.unaligned": "template: then-and-now, align: scene",
        "timelapse.unaligned": "align: scene",
        "timelapse.fill": "align: scene",
        "collage.fill": "template: then-and-now, align: scene",
        "timelapse.max-bytes": "format: gif",
        "timelapse.palette": "format: gif",
    ]

    /// The layout file `photo-book.layout` names, written beside the pipeline.
    static let layoutFile = "name: halves\ncells:\n  - { x: 0, y: 0, width: 1, height: 0.5 }\n  - { x: 0, y: 0.5, width: 1, height: 0.5 }\n"

    /// A valid value other than the default for `option` of `stage`, as YAML; nil when there is none.
    static func example(_ option: any OptionDeclaration, of stage: String) -> String? {
        if let listed = table["\(stage).\(option.key)"] { return listed }
        let accepts = option.accepts
        if accepts == "true or false" { return option.defaultText == "true" ? "false" : "true" }
        if accepts.hasPrefix("one of ") {
            return accepts.dropFirst("one of ".count).components(separatedBy: ", ").first { $0 != option.defaultText }
        }
        let words = accepts.split(separator: " ")
        if accepts.hasPrefix("an integer from "), words.count == 6, let low = Int(words[3]), let high = Int(words[5]) {
            return [low, low + 1, high].map(String.init).first { $0 != option.defaultText }
        }
        return nil
    }
}
