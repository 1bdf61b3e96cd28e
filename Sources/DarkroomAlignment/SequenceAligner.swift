/// How the photos of a time-lapse or a then-and-now pair are mapped onto one another.
public enum AlignmentMode: String, Sendable, Codable, CaseIterable {
    /// What stays put (a plant's pot, a room) stays put: each photo onto the first one aligned.
    case scene
    /// The eyes land at the same place of the frame in every photo.
    case face
}

/// How one photo of a sequence was aligned: the transform, and in words how it was found.
public struct SequenceAlignment: Sendable, Equatable {
    /// Scene: the photo (normalised) onto the reference photo (normalised); face: onto the frame (normalised).
    public var transform: SimilarityTransform
    /// How it was found (`matched the previous photo on 412 features, refined to sub-pixel`).
    public var how: String
}

/// Aligns the photos of one sequence, in order, by scene or by face: the one aligner a stage needs,
/// whichever the mode. The first photo that aligns is the reference (scene), or sets where the eyes go.
///
/// Not thread-safe: one per sequence, fed from one thread in capture order.
public final class SequenceAligner {
    public let mode: AlignmentMode
    /// The output frame (its aspect ratio places the eyes for `face`).
    public let frame: PixelSize
    private let scene: SceneAligner?
    private let face: FaceAligner?

    /// An aligner for photos shown in `frame`. Throws `notStarted` before `AlignmentRuntime.start`, and
    /// `missingCascade` for `face` without Debian's `opencv-data`.
    public init(mode: AlignmentMode, frame: PixelSize) throws {
        self.mode = mode
        self.frame = frame
        switch mode {
        case .scene:
            scene = try SceneAligner()
            face = nil
        case .face:
            var options = FaceAligner.Options()
            options.frameAspectRatio = frame.aspectRatio
            face = try FaceAligner(options: options)
            scene = nil
        }
    }

    /// Aligns the next photo from its grey working copy (`Image.greyWorkingImage`, made from the same
    /// decode the frame is made from). Throws an `AlignmentError` saying why it cannot be aligned; the
    /// sequence goes on from the photos before it.
    public func align(_ grey: GreyImage) throws -> SequenceAlignment {
        if let scene {
            let result = try scene.align(grey)
            let how: String
            switch result.anchor {
            case .reference: how = "the reference (\(result.matches) features)"
            case .previous: how = "matched the previous photo on \(result.matches) features"
            case .first:
                how = "matched the first photo on \(result.matches) features"
                    + (result.drift.map { String(format: " (the chain had drifted %.1f px)", $0) } ?? "")
            }
            return SequenceAlignment(transform: result.transform, how: how + (result.refined ? ", refined to sub-pixel" : ""))
        }
        let result = try face!.align(grey)
        let eyes: String
        switch result.eyes {
        case .detected: eyes = "both eyes found"
        case .oneDetected: eyes = "one eye found, the other mirrored"
        case .faceProportions: eyes = "eyes placed by the face's proportions"
        }
        let faces = result.facesFound == 1 ? "one face" : "\(result.facesFound) faces (the nearest to the last used)"
        return SequenceAlignment(transform: result.transform,
                                 how: "\(faces), \(eyes)" + (result.refined ? ", matched to the first face" : ""))
    }
}

/// Where every photo of an aligned sequence goes in the output frame, and the crop they all cover.
///
/// Scene: each photo is placed as its alignment maps it onto the reference, the reference covering the
/// frame. Face: as its alignment maps it onto the frame. A photo without an alignment (kept unaligned)
/// covers the frame on its own. With `crop`, the frame is then cropped once, for the whole sequence, to
/// what every photo covers (`CommonCrop`), so no frame has a border and nothing pumps.
public struct SequencePlacement: Sendable {
    /// One photo: its size (as decoded for the frame) and its alignment, nil when shown unaligned.
    public struct Photo: Sendable {
        public var size: PixelSize
        public var alignment: SimilarityTransform?

        public init(size: PixelSize, alignment: SimilarityTransform?) {
            self.size = size
            self.alignment = alignment
        }
    }

    public let frame: PixelSize
    /// Each photo's pixels to the frame's pixels, before the crop.
    public let placements: [SimilarityTransform]
    /// The crop every photo covers (nil when not cropping).
    public let crop: CommonCrop?

    /// Places `photos` in `frame`; `referenceSize` is the scene reference's size (the first aligned photo).
    /// Throws `implausibleTransform` when cropping and the photos share no common area.
    public init(mode: AlignmentMode, frame: PixelSize, photos: [Photo], referenceSize: PixelSize?, crop: Bool) throws {
        self.frame = frame
        placements = photos.map { photo in
            let normalising = SimilarityTransform.normalising(photo.size)
            guard let alignment = photo.alignment else {
                return normalising.then(.placing(aspectRatio: photo.size.aspectRatio, in: frame))
            }
            switch mode {
            case .scene:
                let aspect = (referenceSize ?? photo.size).aspectRatio
                return alignment.photoToFrame(photo: photo.size, referenceAspectRatio: aspect, frame: frame)
            case .face:
                return normalising.then(alignment).then(SimilarityTransform.normalising(frame).inverse)
            }
        }
        self.crop = crop && !photos.isEmpty
            ? try CommonCrop(frame: frame, photos: zip(photos, placements).map { CommonCrop.Photo(size: $0.size, transform: $1) })
            : nil
    }

    /// Photo `index`'s pixels to the final frame's pixels (its placement, then the crop enlarged to the frame).
    public func final(_ index: Int) -> SimilarityTransform {
        crop.map { placements[index].then($0.zoom) } ?? placements[index]
    }

    /// How far photo `index`'s centre lands from the frame's centre, in frame pixels (before the crop).
    public func shift(of index: Int, photo size: PixelSize) -> Point2D {
        let centre = placements[index].apply(Point2D(x: Double(size.width) / 2, y: Double(size.height) / 2))
        return Point2D(x: centre.x - Double(frame.width) / 2, y: centre.y - Double(frame.height) / 2)
    }
}
