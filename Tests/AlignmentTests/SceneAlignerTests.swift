import AlignmentTestSupport
import DarkroomAlignment
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// Scene alignment of a hand-held set with a growing subject and changing light, checked against the
/// true transforms the set was made with.
final class SceneAlignerTests: XCTestCase {
    static let landscape = "exif-samples/jpg/hdr/iphone_hdr_NO.jpg"  // wisteria, a post, foliage: 3264x2448
    static let frame = PixelSize(width: 1920, height: 1080)

    override func setUpWithError() throws {
        try Vips.start()
        AlignmentRuntime.start(threads: 1)
    }

    func testBackgroundStaysWithinAPixelWhileTheSubjectGrowsAndTheLightChanges() throws {
        let set = try HandheldSet(base: try HandheldSet.base(Self.landscape, longEdge: 1460), count: 16, growingSubject: true, seed: 23)
        let aligner = try SceneAligner()
        let alignments = try set.photos.map { try aligner.align($0.image.greyWorkingImage(longEdge: 1024)) }
        XCTAssertEqual(alignments.first?.anchor, .reference)
        XCTAssertEqual(alignments.dropFirst().filter(\.refined).count, 15, "every later photo is refined to sub-pixel")

        // Where each photo lands in the 1920x1080 frame, and the crop every photo covers.
        let reference = set.photos[0].image.pixelSize
        let toFrame = zip(set.photos, alignments).map { photo, alignment in
            alignment.transform.photoToFrame(photo: photo.image.pixelSize, referenceAspectRatio: reference.aspectRatio, frame: Self.frame)
        }
        let crop = try CommonCrop(frame: Self.frame, photos: zip(set.photos, toFrame).map { .init(size: $0.image.pixelSize, transform: $1) })
        XCTAssertLessThan(crop.zoomFactor, 1.4, "a crop that keeps most of the frame: \(crop.rect)")

        // Background points of the base picture, taken through each photo's true transform and the found
        // one into the final frame: between consecutive photos they may move at most 1 px (median).
        let points = backgroundPoints(of: set)
        var pairMedians: [Double] = []
        var previous: [Point2D?]?
        for (photo, placement) in zip(set.photos, toFrame) {
            let final = placement.then(crop.zoom)
            let size = photo.image.pixelSize
            let landed: [Point2D?] = points.map { point in
                let inPhoto = photo.truth.apply(point)
                guard (0...Double(size.width)).contains(inPhoto.x), (0...Double(size.height)).contains(inPhoto.y) else { return nil }
                return final.apply(inPhoto)
            }
            if let previous {
                let moves = zip(previous, landed).compactMap { a, b in a.flatMap { a in b.map { a.distance(to: $0) } } }
                XCTAssertGreaterThan(moves.count, points.count / 4)
                pairMedians.append(median(moves))
            }
            previous = landed
        }
        XCTAssertLessThanOrEqual(pairMedians.max() ?? .infinity, 1.0, "median background motion per pair (px at 1920x1080): \(pairMedians)")

        // No black border: a white sheet of each photo's size, placed the same way, covers the whole frame.
        for (photo, placement) in zip(set.photos, toFrame) {
            let sheet = try Image.solid(width: photo.image.width, height: photo.image.height, colour: .white)
            let placed = try sheet.warped(by: placement.then(crop.zoom).then(SimilarityTransform(scale: 0.25)),
                                          frame: PixelSize(width: 480, height: 270), interpolator: .bilinear)
            let darkest = try placed.extractBand(0).pixelBytes().min() ?? 0
            XCTAssertGreaterThanOrEqual(darkest, 250, "a frame with a border after the common crop")
        }
    }

    func testAPhotoOfSomethingElseFailsWithTheReasonAndTheSequenceGoesOn() throws {
        let set = try HandheldSet(base: try HandheldSet.base(Self.landscape, longEdge: 1000), count: 3, growingSubject: false, seed: 5)
        let aligner = try SceneAligner()
        _ = try aligner.align(set.photos[0].image.greyWorkingImage())

        var random = SeededGenerator(seed: 9)
        let noise = try GreyImage(width: 700, height: 525, pixels: (0..<(700 * 525)).map { _ in UInt8.random(in: 0...255, using: &random) })
        XCTAssertThrowsError(try aligner.align(noise)) { error in
            guard case .tooFewMatches(let found, let needed) = error as? AlignmentError else { return XCTFail("\(error)") }
            XCTAssertLessThan(found, needed)
            XCTAssertEqual(needed, 30)
            XCTAssertEqual("\(error)", "too few matching features (\(found), need 30)")
        }
        let flat = try GreyImage(width: 700, height: 525, pixels: [UInt8](repeating: 128, count: 700 * 525))
        XCTAssertThrowsError(try aligner.align(flat)) { error in
            XCTAssertEqual(error as? AlignmentError, .tooFewFeatures(found: 0, needed: 30))
            XCTAssertTrue("\(error)".hasPrefix("too few features to match (0, need 30)"), "\(error)")
        }
        // The failures left the sequence as it was: the next real photo still aligns, onto the previous good one.
        let next = try aligner.align(set.photos[1].image.greyWorkingImage())
        XCTAssertEqual(next.anchor, .previous)
        let truth = set.photos[1].truth.inverse.then(set.photos[0].truth)
        let found = next.transform.inPixels(from: set.photos[1].image.pixelSize, to: set.photos[0].image.pixelSize)
        XCTAssertLessThan(found.cornerDistance(to: truth, width: 700, height: 525), 1.0)
    }

    func testAPhotoThatWouldHaveToTurnTooFarIsRefused() throws {
        let base = try HandheldSet.base(Self.landscape, longEdge: 1000)
        let aligner = try SceneAligner()
        _ = try aligner.align(base.greyWorkingImage())
        let turned = try base.warped(by: SimilarityTransform(dx: -500, dy: -375).then(SimilarityTransform(rotation: 25))
                                        .then(SimilarityTransform(dx: 500, dy: 375)), frame: base.pixelSize)
        XCTAssertThrowsError(try aligner.align(turned.greyWorkingImage())) { error in
            XCTAssertEqual("\(error)", "no plausible alignment: the photo would have to be turned 25.0 degrees (at most 15)")
        }
    }

    /// Points of the base picture on a grid, away from the subject.
    private func backgroundPoints(of set: HandheldSet) -> [Point2D] {
        stride(from: 4.0, to: Double(set.base.height), by: 16).flatMap { y in
            stride(from: 4.0, to: Double(set.base.width), by: 16).map { Point2D(x: $0, y: y) }
        }.filter { point in
            guard let subject = set.subject else { return true }
            let margin = subject.width * 0.15
            return !(point.x > subject.x - margin && point.x < subject.x + subject.width + margin
                     && point.y > subject.y - margin && point.y < subject.y + subject.height + margin)
        }
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .infinity : sorted[sorted.count / 2]
    }
}
