import DarkroomAlignment
import DarkroomCore
import DarkroomImaging
import DarkroomModel
import DarkroomVips
import Foundation

/// The two photos of a then-and-now collage mapped onto each other (`align: scene | face`): each decoded
/// once (upright sRGB, whole, covering its cell with room for the crop, materialised), its grey working
/// copy aligned ("then" first: the reference for `scene`, where the eyes go for `face`), then both placed
/// in the cell and cropped to the area both cover (`CommonCrop`), each warped from that same decode: the
/// two halves show the same framing, with no border. With `fill: blur`, not cropped: what a photo leaves
/// empty is filled from a blurred copy of it.
struct AlignedPair {
    let mode: AlignmentMode
    /// Crop both to what both cover, or keep the frame and fill what a photo leaves empty from its blurred copy.
    let fill: FillChoice
    let pixelLimit: Int

    /// What aligning a pair came to.
    enum Outcome {
        /// Each photo as its cell shows it (exactly the size asked for), and its alignment's facts.
        case aligned(cells: [Image], facts: [AlignmentFacts])
        /// Photo `index` could not be aligned, and why (`cannot be aligned: no face found`).
        case unaligned(index: Int, reason: String)
    }

    /// Aligns `photos` (then, now) for cells whose photos are `sizes` (the first is the shared frame).
    /// Throws `CollageRenderer.PhotoFailure` for a photo that does not decode.
    func align(_ photos: [ItemRecord], sizes: [PixelSize]) throws -> Outcome {
        precondition(photos.count == 2 && sizes.count == 2, "a then-and-now pair")
        let frame = sizes[0]
        let decoded = try photos.indices.map { try decode(photos[$0], index: $0, frame: frame) }
        let aligner: SequenceAligner
        do {
            aligner = try SequenceAligner(mode: mode, frame: frame)
        } catch {
            throw StageError("collage: cannot align \(mode.rawValue): \(error)")
        }
        var alignments: [SequenceAlignment] = []
        for (index, photo) in decoded.enumerated() {
            do {
                alignments.append(try aligner.align(photo.grey))
            } catch {
                return .unaligned(index: index, reason: "cannot be aligned: \(error)")
            }
        }
        let placement: SequencePlacement
        do {
            placement = try SequencePlacement(
                mode: mode, frame: frame,
                photos: zip(decoded, alignments).map { SequencePlacement.Photo(size: $0.image.pixelSize, alignment: $1.transform) },
                referenceSize: decoded[0].image.pixelSize, crop: fill == .crop)
        } catch {
            return .unaligned(index: 1, reason: "cannot be aligned: \(error)")
        }
        let cells = try decoded.indices.map { index in
            // A cell a pixel off the first one's size (rounding) gets the same picture, scaled to it.
            let toCell = SimilarityTransform(scale: Double(sizes[index].width) / Double(frame.width))
            do {
                let transform = placement.final(index).then(toCell), photo = decoded[index].image
                return try (fill == .blur ? photo.warpedOverBlur(by: transform, frame: sizes[index])
                    : photo.warped(by: transform, frame: sizes[index], interpolator: .bicubic, edge: .copy)).eightBitRGB()
            } catch {
                throw CollageRenderer.PhotoFailure(index: index, reason: "\(error)", failureKind: FailureKind.of(error))
            }
        }
        let facts = decoded.indices.map { placement.facts(of: $0, photo: decoded[$0].image.pixelSize, alignment: alignments[$0]) }
        return .aligned(cells: cells, facts: facts)
    }

    /// One photo decoded once, with its grey working copy made from that decode.
    private func decode(_ item: ItemRecord, index: Int, frame: PixelSize) throws -> (image: Image, grey: GreyImage) {
        do {
            let header = try ImageLoader.header(of: item.source, pixelLimit: pixelLimit)
            let turned = header.orientation >= 5
            let upright = turned ? PixelSize(width: header.height, height: header.width) : PixelSize(width: header.width, height: header.height)
            guard upright.width > 0, upright.height > 0 else { throw StageError("image has no pixels (\(upright))") }
            let box = upright.alignmentDecodeBox(for: frame)
            let size = DecodeSize(width: box.width, height: box.height, crop: .none, enlarge: true)
            let image = try ImageLoader.decode(item.source, header: header, size: size,
                                               exportProfile: ColourHandling.srgb.exportProfile(for: header))
                .eightBitRGB().flattened().materialized()
            return (image, try image.greyWorkingImage(longEdge: 1024))
        } catch {
            throw CollageRenderer.PhotoFailure(index: index, reason: "\(error)", failureKind: FailureKind.of(error))
        }
    }
}
