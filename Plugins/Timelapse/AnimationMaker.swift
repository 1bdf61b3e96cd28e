import DarkroomCore
import DarkroomImaging
import DarkroomModel
import DarkroomVideo
import DarkroomVips
import Foundation

/// Makes the `webp` or `gif` animation: one frame a photo (plus crossfade frames), each shown for
/// its time, looping forever, streamed through `AnimationWriter` (a photo is rendered on a prefetch
/// thread while the previous one is encoded; no more than a few are held).
///
/// With `max-bytes`, a result that is too big is made again smaller: the long edge lowered (by the
/// square root of how much too big it was, at least a tenth each time) down to
/// `AnimationSize.minimumLongEdge`, then every other photo left out (each kept photo shown twice as
/// long, so the animation keeps its length); when even that is too big, the run fails.
struct AnimationMaker {
    let options: TimelapseOptions
    let format: AnimationFormat
    /// Photo `index`'s finished frame at the options' size, as 8-bit RGB (called on a prefetch thread).
    let render: @Sendable (Int) throws -> Image

    /// What was made.
    struct Made {
        var photos: Int
        var frames: Int
        var size: FrameSize
        var bytes: Int
        /// Every other photo left out to meet `max-bytes`.
        var halved: Bool
    }

    /// One encoding's frame size and whether every other photo is left out.
    private struct Attempt {
        var size: FrameSize
        var halved = false
    }

    /// Writes the animation of `photos` (in order) to `path`, smaller until it fits `max-bytes`.
    func make(_ photos: [ItemRecord], context: CollectionContext, to path: String) throws -> Made {
        var failed = Set<Int>()
        var attempt = Attempt(size: options.size)
        let smallestEdge = min(AnimationSize.minimumLongEdge, AnimationSize.longEdge(of: options.size))
        let palette = format == .gif && options.palette == .global
            ? try globalPalette(photos, size: attempt.size, failed: &failed, context: context) : nil
        while true {
            let made = try encode(photos, attempt, palette: palette, failed: &failed, context: context, to: path)
            guard let limit = options.maxBytes, made.bytes > limit else { return made }
            let edge = AnimationSize.longEdge(of: attempt.size)
            let over = "timelapse: \(ByteCount.describe(made.bytes)) at \(attempt.size)\(attempt.halved ? " with every other photo" : "")"
                + " is over max-bytes \(ByteCount.describe(limit)) (\(limit) bytes)"
            if edge > smallestEdge {
                let estimate = Int(Double(edge) * (Double(limit) / Double(made.bytes)).squareRoot() * 0.97)
                let lowered = max(smallestEdge, min(estimate, edge - max(2, edge / 10)))
                attempt.size = AnimationSize.scaled(options.size, toLongEdge: lowered)
                context.logger.warning("\(over): long edge lowered to \(lowered) px (\(attempt.size))")
            } else if !attempt.halved, made.photos > 1 {
                attempt.halved = true
                context.logger.warning("\(over): every other photo left out (each kept one shown for \(String(format: "%g", options.secondsPerPhoto * 2)) s)")
            } else {
                throw StageError("timelapse: the \(format.rawValue) cannot fit in max-bytes \(limit): it is still \(made.bytes) bytes "
                                 + "at the smallest it is made (\(attempt.size), \(smallestEdge) px long edge, every other photo left out); "
                                 + "raise max-bytes, or show fewer photos (from/to, one-per-day)")
            }
        }
    }

    /// The GIF's one palette: a first pass renders every photo at `size` and counts its colours
    /// (kept for the smaller attempts `max-bytes` may need: the colours stay the same).
    private func globalPalette(_ photos: [ItemRecord], size: FrameSize, failed: inout Set<Int>,
                               context: CollectionContext) throws -> GIFPalette? {
        let builder = try GIFPaletteBuilder(width: size.width, height: size.height)
        let counted = try forEachPicture(photos, indices: Array(photos.indices), size: size, failed: &failed, context: context) { _, picture in
            try builder.add(rgb: picture.bytes, bytesPerRow: size.width * 3)
        }
        return counted > 0 ? try builder.finish() : nil
    }

    /// Renders the photos at `indices` at `size` on a prefetch thread and hands each to `body` in
    /// order with its place among those shown; photos that fail are reported once and skipped.
    /// Returns how many were shown.
    @discardableResult
    private func forEachPicture(_ photos: [ItemRecord], indices: [Int], size: FrameSize, failed: inout Set<Int>,
                                context: CollectionContext, _ body: (Int, RGBPicture) throws -> Void) throws -> Int {
        let render = self.render, background = options.background
        let frames = Prefetcher(count: indices.count, depth: Timelapse.prefetchDepth) { position in
            Result { try Self.picture(render(indices[position]), size: size, background: background) }
        }
        defer { frames.cancel() }
        var shown = 0
        while let (position, result) = frames.next() {
            switch result {
            case .success(let picture):
                try body(shown, picture)
                shown += 1
            case .failure(let error):
                if failed.insert(indices[position]).inserted { context.reportSkipped(photos[indices[position]], because: error) }
            }
            context.reportProgress(done: position + 1, total: indices.count, unit: "photos")
        }
        return shown
    }

    /// One encoding of `photos` at `attempt`'s size; photos that fail are reported once and skipped.
    private func encode(_ photos: [ItemRecord], _ attempt: Attempt, palette: GIFPalette?, failed: inout Set<Int>,
                        context: CollectionContext, to path: String) throws -> Made {
        let candidates = photos.indices.filter { !failed.contains($0) }
        let indices = attempt.halved ? candidates.enumerated().filter { $0.offset % 2 == 0 }.map(\.element) : candidates
        let size = attempt.size
        let schedule = AnimationSchedule(secondsPerPhoto: options.secondsPerPhoto * (attempt.halved ? 2 : 1),
                                         ticksPerSecond: format.ticksPerSecond, frameRate: options.frameRate, crossfade: options.crossfade)
        let writer = try AnimationWriter(path: path, format: format, width: size.width, height: size.height, palette: palette)
        var previous: RGBPicture?
        let shown = try forEachPicture(photos, indices: indices, size: size, failed: &failed, context: context) { shown, picture in
            let fades = schedule.crossfadeTicks(forPhotoAt: shown)
            if let previous {
                for (step, length) in fades.enumerated() {
                    let mixed = previous.blended(with: picture, weight: FrameSchedule.weight(step: step, of: fades.count))
                    try writer.append(rgb: mixed.bytes, bytesPerRow: size.width * 3, lasting: length)
                }
            }
            try writer.append(rgb: picture.bytes, bytesPerRow: size.width * 3,
                              lasting: schedule.ticks(forPhotoAt: shown) - fades.reduce(0, +))
            previous = picture
        }
        guard shown > 0 else {
            throw StageError("timelapse: none of the \(photos.count) photos could be decoded (each is listed in the report)")
        }
        try writer.finish()
        guard let bytes = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int else {
            throw StageError("timelapse: cannot read the size of the \(format.rawValue) just written at \(path)")
        }
        return Made(photos: shown, frames: writer.framesWritten, size: size, bytes: bytes, halved: attempt.halved)
    }

    /// `image` (the options' frame) at `size`, as packed RGB bytes.
    private static func picture(_ image: Image, size: FrameSize, background: Colour) throws -> RGBPicture {
        do {
            var image = image
            if image.width != size.width || image.height != size.height {
                image = try image.thumbnail(width: size.width, height: size.height)
                if image.width != size.width || image.height != size.height {
                    image = try image.embedded(x: (size.width - image.width) / 2, y: (size.height - image.height) / 2,
                                               width: size.width, height: size.height, background: background)
                }
            }
            return RGBPicture(width: size.width, height: size.height, bytes: try image.pixelBytes())
        } catch let error as VipsError {
            // Pixels are computed here, so a photo that does not decode fails here, as in the MP4.
            throw StageError.image("cannot decode image", error)
        }
    }
}

extension RGBPicture {
    /// This picture mixed with `other` (same size), `weight` 0 giving this one and 1 `other`: a crossfade frame.
    func blended(with other: RGBPicture, weight: Double) -> RGBPicture {
        let mix = Int((min(max(weight, 0), 1) * 256).rounded()), keep = 256 - mix
        var out = Data(count: min(bytes.count, other.bytes.count))
        out.withUnsafeMutableBytes { o in
            bytes.withUnsafeBytes { a in
                other.bytes.withUnsafeBytes { b in
                    for index in 0..<o.count {
                        o[index] = UInt8(truncatingIfNeeded: (Int(a[index]) * keep + Int(b[index]) * mix + 128) >> 8)
                    }
                }
            }
        }
        return RGBPicture(width: width, height: height, bytes: out)
    }
}
