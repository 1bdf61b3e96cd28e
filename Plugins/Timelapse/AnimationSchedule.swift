import Foundation

/// How long each frame of an animation lasts, in the format's ticks (1/100 s for GIF, 1/1000 s for
/// WebP): one frame a photo, held for its seconds-per-frame, preceded by its crossfade frames (each
/// one frame period of `frame-rate` long, as in the MP4).
///
/// Photo k covers [k·s, (k+1)·s) seconds rounded to ticks, so a pace that is not a whole number of
/// ticks never drifts. No frame is shorter than `minimumSeconds`: browsers show a GIF or WebP frame
/// of 10 ms or less for 100 ms.
struct AnimationSchedule {
    /// The shortest frame made, in seconds.
    static let minimumSeconds = 0.02

    let secondsPerPhoto: Double
    let ticksPerSecond: Int
    let frameRate: Int
    /// Crossfade frames wanted before each photo after the first.
    let crossfade: Int

    /// Ticks the photo at `index` (among those shown) lasts, its crossfade frames included.
    func ticks(forPhotoAt index: Int) -> Int {
        boundary(index + 1, secondsEach: secondsPerPhoto) - boundary(index, secondsEach: secondsPerPhoto)
    }

    /// The length of each crossfade frame into the photo at `index`: none for the first; as many of
    /// `crossfade` as leave the photo itself at least `minimumSeconds` on its own.
    func crossfadeTicks(forPhotoAt index: Int) -> [Int] {
        guard index > 0, crossfade > 0 else { return [] }
        let shortest = Int((Self.minimumSeconds * Double(ticksPerSecond)).rounded(.up))
        let span = ticks(forPhotoAt: index)
        var fades: [Int] = [], used = 0
        for step in 0..<crossfade {
            let length = max(shortest, boundary(step + 1, secondsEach: 1 / Double(frameRate)) - boundary(step, secondsEach: 1 / Double(frameRate)))
            guard used + length + shortest <= span else { break }
            fades.append(length)
            used += length
        }
        return fades
    }

    private func boundary(_ index: Int, secondsEach: Double) -> Int {
        Int((Double(index) * secondsEach * Double(ticksPerSecond)).rounded())
    }
}
