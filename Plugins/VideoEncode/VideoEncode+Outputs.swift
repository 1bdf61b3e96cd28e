import DarkroomCore
import DarkroomImaging
import DarkroomVideo
import DarkroomOptions

extension VideoEncode {
    /// The path `process` would publish (for `darkroom explain`): `{ext}` is mp4 for a transcode or
    /// a remux, the original's extension when a stream cannot go in MP4; nothing when the video
    /// cannot be read.
    public func plannedOutputs(for item: Item, settings: RunSettings) -> [String] {
        guard let video = try? item.videoSource(settings: settings) else { return [] }
        var values = PathTemplate.values(for: item)
        var keepsOriginal = false
        if options.transcode == nil, case .keepOriginal? = try? video.remuxPlan() {
            keepsOriginal = true
        }
        if !keepsOriginal { values["ext"] = "mp4" }
        return (try? options.output.render(values)).map { [$0] } ?? []
    }
}
