import DarkroomVideo
import Foundation

/// How many frame periods each photo gets on the 1/frame-rate grid (each a frame of its own with
/// `constant` timing; one frame lasting that long with `variable` timing).
///
/// Photo k covers [k·s, (k+1)·s) seconds, so it gets round((k+1)·s·fps) − round(k·s·fps) frames:
/// 0.3 s at 30 fps is 9 frames each, and a pacing that is not a whole number of frames (0.25 s at
/// 30 fps: 7, 8, 7, 8...) never drifts. The total is round(n·s·fps).
struct FrameSchedule {
    let secondsPerPhoto: Double
    let frameRate: Int
    /// Crossfade frames wanted at the start of each photo after the first.
    let crossfade: Int

    /// Frames for the photo at `index` among those shown.
    func frames(forPhotoAt index: Int) -> Int {
        boundary(index + 1) - boundary(index)
    }

    /// Of those frames, how many blend from the previous photo (always leaving one frame of the photo alone).
    func crossfadeFrames(forPhotoAt index: Int) -> Int {
        index == 0 ? 0 : max(0, min(crossfade, frames(forPhotoAt: index) - 1))
    }

    /// The blend weight of the new photo in crossfade frame `step` of `count`: evenly spaced, never 0 or 1.
    static func weight(step: Int, of count: Int) -> Double {
        Double(step + 1) / Double(count + 1)
    }

    /// Total frame periods for `photos` photos.
    func totalFrames(photos: Int) -> Int { boundary(photos) }

    /// Frames sent to the encoder for `photos` photos: every period with `constant` timing; with
    /// `variable` timing one frame a photo plus its crossfade frames (which stay at the full rate).
    func encodedFrames(photos: Int, timing: FrameTiming) -> Int {
        switch timing {
        case .constant: return totalFrames(photos: photos)
        case .variable: return photos + (0..<photos).reduce(0) { $0 + crossfadeFrames(forPhotoAt: $1) }
        }
    }

    private func boundary(_ index: Int) -> Int {
        Int((Double(index) * secondsPerPhoto * Double(frameRate)).rounded())
    }
}
