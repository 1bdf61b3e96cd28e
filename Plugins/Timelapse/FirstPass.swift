import DarkroomModel
import DarkroomAlignment
import DarkroomCore
import DarkroomImaging
import DarkroomVips
import Foundation

/// One photo as the first pass left it: its pixels in the store, and how it lines up with the others.
struct PreparedPhoto: Sendable {
    let item: ItemRecord
    let slot: PhotoStore.Slot
    /// Its alignment; nil when not aligning or when shown unaligned.
    let alignment: SequenceAlignment?
    /// Why it could not be aligned, when it is shown unaligned.
    let unalignedReason: String?
    /// Its mean brightness (0...255), for deflicker.
    let mean: Double?
}

/// The first pass of an aligned time-lapse: every photo decoded once, at the size its frame
/// needs, on `jobs` threads; its grey working copy aligned in capture order; its pixels appended to the
/// store for the second pass. A photo that does not decode is reported and left out; one that cannot be
/// aligned is dropped or kept as `unaligned` says, and named with the reason either way.
///
///     decode threads:  decode photo k+1, k+2 (upright sRGB) ─▶ grey working copy, mean ─┐
///     calling thread:  align photo k (in order) ─▶ append its pixels to the store ◀──────┘
struct FirstPass {
    let options: TimelapseOptions
    let renderer: PhotoRenderer
    let jobs: Int

    /// The long edge of the grey copies the aligners look at.
    static let workingLongEdge = 1024

    /// What a decode thread hands over.
    private struct Decoded: @unchecked Sendable {  // the image is materialised: read-only pixels in memory.
        let image: Image
        /// The grey working copy when aligning.
        let grey: GreyImage?
        let mean: Double?
    }

    /// A photo left out, and the report entry for it.
    struct Dropped: Sendable {
        let item: ItemRecord
        let reason: String
    }

    /// Runs the pass over `photos`; returns the photos shown, in order, and those dropped for not aligning.
    func run(_ photos: [ItemRecord], into store: PhotoStore, context: CollectionContext) throws -> (shown: [PreparedPhoto], dropped: [Dropped]) {
        let aligner: SequenceAligner?
        do {
            aligner = try options.align == .none ? nil
                : SequenceAligner(mode: options.align == .face ? .face : .scene, frame: options.size.pixels)
        } catch let error as AlignmentError {
            throw StageError("timelapse: cannot align \(options.align.rawValue): \(error)")
        }
        let aligning = aligner != nil
        let decoded = Prefetcher(count: photos.count, depth: jobs + 1, workers: jobs) { index in
            Result { try decode(photos[index], aligning: aligning) }
        }
        defer { decoded.cancel() }
        var shown: [PreparedPhoto] = []
        var dropped: [Dropped] = []
        while let (index, result) = decoded.next() {
            let item = photos[index]
            context.reportProgress(done: index, total: photos.count, unit: "photos read")
            let photo: Decoded
            switch result {
            case .success(let made): photo = made
            case .failure(let error): context.reportSkipped(item, because: error); continue
            }
            var alignment: SequenceAlignment?
            var unalignedReason: String?
            if let aligner, let grey = photo.grey {
                do {
                    alignment = try aligner.align(grey)
                } catch {
                    let reason = "cannot be aligned: \(error)"
                    guard options.unaligned == .keep else {
                        context.reportSkipped(item, reason: "left out of the time-lapse: \(reason)")
                        dropped.append(Dropped(item: item, reason: reason))
                        continue
                    }
                    context.warn(item, "shown unaligned: \(reason)")
                    unalignedReason = reason
                }
            }
            let slot = try store.append(photo.image)
            shown.append(PreparedPhoto(item: item, slot: slot, alignment: alignment, unalignedReason: unalignedReason, mean: photo.mean))
        }
        context.reportProgress(done: photos.count, total: photos.count, unit: "photos read")
        return (shown, dropped)
    }

    /// One photo decoded for the store (materialised: read once, here), with its grey copy and mean.
    private func decode(_ item: ItemRecord, aligning: Bool) throws -> Decoded {
        do {
            let image = try renderer.decodeForStore(item)
            let grey = aligning ? try image.greyWorkingImage(longEdge: Self.workingLongEdge) : nil
            let mean = options.deflicker ? try image.average() : nil
            return Decoded(image: image, grey: grey, mean: mean)
        } catch let error as VipsError {
            throw StageError.image("cannot decode image", error)
        }
    }
}

extension FrameSize {
    /// The same size as the aligners' `PixelSize`.
    var pixels: PixelSize { PixelSize(width: width, height: height) }
}
