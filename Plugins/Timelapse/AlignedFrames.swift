import DarkroomModel
import DarkroomAlignment
import DarkroomCore
import DarkroomVideo
import DarkroomVips
import Foundation

/// The frames of an aligned time-lapse, between its two passes: every photo decoded once and aligned
/// (`FirstPass`), kept in a temporary file (`PhotoStore`), each one's place in the frame and the one
/// crop they all cover chosen for the whole video, so `render` only reads a photo back, warps it into
/// the frame, captions and converts it.
///
/// Held in memory: 32 bytes of transform and a slot a photo; the pixels stay in the store.
struct AlignedFrames: Sendable {
    /// The photos shown, in order.
    let shown: [PreparedPhoto]
    let placement: SequencePlacement
    /// Each shown photo's deflicker gain (1 without deflicker).
    let gains: [Double]
    let store: PhotoStore
    let renderer: PhotoRenderer

    /// Runs the first pass over `photos` (in capture order), reports what it had to leave out or show
    /// unaligned, chooses the crop, and logs each photo's shift, angle and scale (`-v`).
    static func prepare(_ photos: [ItemRecord], renderer: PhotoRenderer, temporaryFolder: URL,
                        context: CollectionContext) throws -> AlignedFrames {
        let options = renderer.options
        let store = try PhotoStore(in: temporaryFolder)
        let started = Date()
        let pass = FirstPass(options: options, renderer: renderer, jobs: max(1, min(2, context.settings.jobs)))
        let (shown, dropped) = try pass.run(photos, into: store, context: context)
        guard !shown.isEmpty else {
            throw StageError("timelapse: none of the \(photos.count) photos could be \(dropped.isEmpty ? "decoded" : "aligned") "
                             + "(each is listed in the report with the reason)")
        }
        let frame = options.size.pixels
        let referenceSize = shown.first { $0.alignment != nil }?.slot.size
        let placement: SequencePlacement
        do {
            placement = try SequencePlacement(
                mode: options.align == .face ? .face : .scene, frame: frame,
                photos: shown.map { SequencePlacement.Photo(size: $0.slot.size, alignment: $0.alignment?.transform) },
                referenceSize: referenceSize, crop: options.fill == .crop)
        } catch {
            throw StageError("timelapse: the aligned photos cannot share one frame: \(error)")
        }
        let gains = options.deflicker
            ? Deflicker.gains(means: shown.map { $0.mean ?? 128 }, window: options.deflickerWindow)
            : Array(repeating: 1.0, count: shown.count)
        let frames = AlignedFrames(shown: shown, placement: placement, gains: gains, store: store, renderer: renderer)
        frames.log(dropped: dropped, seconds: Date().timeIntervalSince(started), context: context)
        return frames
    }

    /// Photo `index` (of `shown`) as its finished frame.
    func render(_ index: Int, converter: FrameConverter) throws -> VideoFrame {
        let photo = shown[index]
        do {
            return try renderer.finish(try warped(index), of: photo.item, gain: gains[index], converter: converter)
        } catch let error as VipsError {
            throw StageError.image("cannot make the aligned frame", error)
        }
    }

    /// Photo `index` (of `shown`) as its finished frame, an 8-bit RGB image (for animations).
    func renderImage(_ index: Int) throws -> Image {
        do {
            return try renderer.finishedImage(try warped(index), of: shown[index].item, gain: gains[index])
        } catch let error as VipsError {
            throw StageError.image("cannot make the aligned frame", error)
        }
    }

    /// Photo `index` read back from the store and warped into the frame (bilinear: the photo was decoded
    /// at about the frame's scale, so this is its one resample, and the cheap one).
    private func warped(_ index: Int) throws -> Image {
        let slot = shown[index].slot
        do {
            guard renderer.options.fill == .crop else {
                return try store.image(slot).warpedOverBlur(by: placement.final(index), frame: placement.frame)
            }
            return try Image.warpedRGB(try store.pixels(slot), size: slot.size, by: placement.final(index), frame: placement.frame)
        } catch let error as AlignmentError {
            throw StageError("cannot make the aligned frame: \(error)")
        } catch let error as VipsError {
            throw StageError.image("cannot make the aligned frame", error)
        }
    }

    /// The pass's summary, and each photo's shift (frame pixels, before the crop), angle and scale: in the
    /// log (`-v`) and as each photo's figures in the run's report (`itemFacts`, with the reason for those
    /// shown unaligned or left out).
    private func log(dropped: [FirstPass.Dropped], seconds: Double, context: CollectionContext) {
        let crop = placement.crop.map { String(format: "cropped to %.0fx%.0f at (%.0f, %.0f), enlarged %.3fx", $0.rect.width, $0.rect.height,
                                               $0.rect.x, $0.rect.y, $0.zoomFactor) } ?? "not cropped, what a photo leaves empty filled from its blurred copy"
        let unaligned = shown.filter { $0.alignment == nil }.count
        let summary = "align \(renderer.options.align.rawValue): \(shown.count - unaligned) aligned, \(unaligned) shown unaligned, "
            + "\(dropped.count) left out; \(crop); first pass \(String(format: "%.1f", seconds)) s, \(store.byteCount / 1_000_000) MB kept"
        context.logger.info("timelapse: \(summary)")
        for (index, photo) in shown.enumerated() {
            let line: String
            if let alignment = photo.alignment {
                let facts = placement.facts(of: index, photo: photo.slot.size, alignment: alignment)
                context.recordFacts(photo.item, topic: "alignment", figures: facts.figures, note: facts.how)
                line = facts.description
            } else {
                line = "shown unaligned: " + (photo.unalignedReason ?? "")
                context.recordFacts(photo.item, topic: "alignment", figures: [:], note: line)
            }
            context.logger.info("timelapse: \(photo.item.source.path): \(line)")
        }
        for photo in dropped {
            context.recordFacts(photo.item, topic: "alignment", figures: [:], note: "left out: " + photo.reason)
        }
    }
}
