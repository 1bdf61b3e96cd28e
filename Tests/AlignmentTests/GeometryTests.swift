import DarkroomAlignment
import DarkroomVips
import Foundation
import DarkroomTestSupport
import XCTest

/// Similarity transforms, the common crop and the warp, on cases worked out by hand.
final class GeometryTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    func testTransformsComposeInvertAndMapTwoPoints() throws {
        let turn = SimilarityTransform(scale: 2, rotation: 90, dx: 10, dy: 0)
        let p = turn.apply(Point2D(x: 1, y: 0))
        XCTAssertEqual(p.x, 10, accuracy: 1e-9)  // (1, 0) turned 90 degrees clockwise on screen is (0, 1), doubled, shifted
        XCTAssertEqual(p.y, 2, accuracy: 1e-9)
        let back = turn.then(turn.inverse)
        XCTAssertEqual(back.scale, 1, accuracy: 1e-12)
        XCTAssertEqual(back.rotation, 0, accuracy: 1e-9)
        XCTAssertEqual(hypot(back.dx, back.dy), 0, accuracy: 1e-9)
        let shift = SimilarityTransform(dx: 3, dy: 4)
        let q = turn.then(shift).apply(Point2D(x: 1, y: 0))
        XCTAssertEqual(q, Point2D(x: p.x + 3, y: p.y + 4))

        let mapped = try XCTUnwrap(SimilarityTransform.mapping((Point2D(x: 0, y: 0), Point2D(x: 1, y: 0)),
                                                              onto: (Point2D(x: 5, y: 5), Point2D(x: 5, y: 7))))
        XCTAssertEqual(mapped.scale, 2, accuracy: 1e-12)
        XCTAssertEqual(mapped.rotation, 90, accuracy: 1e-9)
        XCTAssertNil(SimilarityTransform.mapping((Point2D(x: 1, y: 1), Point2D(x: 1, y: 1)), onto: (Point2D(x: 0, y: 0), Point2D(x: 1, y: 0))))
    }

    func testANormalisedTransformHoldsAtEveryResolution() {
        let normalised = SimilarityTransform(scale: 1.05, rotation: 3, dx: 0.02, dy: -0.01)
        let small = normalised.inPixels(from: PixelSize(width: 1000, height: 750), to: PixelSize(width: 1000, height: 750))
        let large = normalised.inPixels(from: PixelSize(width: 4000, height: 3000), to: PixelSize(width: 4000, height: 3000))
        // The same spot of the picture lands on the same spot, 4 times further from the origin.
        let spot = small.apply(Point2D(x: 250, y: 600))
        let spotLarge = large.apply(Point2D(x: 1000, y: 2400))
        XCTAssertEqual(spotLarge.x, spot.x * 4, accuracy: 1e-6)
        XCTAssertEqual(spotLarge.y, spot.y * 4, accuracy: 1e-6)
    }

    func testTheCommonCropAvoidsWhatAShiftedPhotoLeavesEmpty() throws {
        let frame = PixelSize(width: 1600, height: 900)
        let still = CommonCrop.Photo(size: frame, transform: .identity)
        let whole = try CommonCrop(frame: frame, photos: [still, still])
        XCTAssertEqual(whole.zoomFactor, 1, accuracy: 1e-6)

        let shifted = CommonCrop.Photo(size: frame, transform: SimilarityTransform(dx: 160, dy: 0))  // leaves x < 160 empty
        let crop = try CommonCrop(frame: frame, photos: [still, shifted])
        XCTAssertEqual(crop.rect.width, 1440, accuracy: 0.01)
        XCTAssertEqual(crop.rect.height, 810, accuracy: 0.01)
        XCTAssertGreaterThanOrEqual(crop.rect.x, 160 - 0.01)
        XCTAssertEqual(crop.zoomFactor, 1600.0 / 1440, accuracy: 1e-4)
        let zoomed = crop.zoom.apply(Point2D(x: crop.rect.x + crop.rect.width, y: crop.rect.y + crop.rect.height))
        XCTAssertEqual(zoomed.x, 1600, accuracy: 1e-6)
        XCTAssertEqual(zoomed.y, 900, accuracy: 1e-6)

        let empty = CommonCrop.uncovered(frame: frame, by: shifted)
        XCTAssertEqual(empty.fraction, 0.1, accuracy: 1e-9)
        XCTAssertTrue(CommonCrop.uncovered(frame: frame, by: still).polygons.isEmpty)
    }

    func testTheCommonCropOfTurnedPhotosLiesInsideEveryOne() throws {
        let frame = PixelSize(width: 1920, height: 1080)
        let photos = [-4.0, 0, 3, 5].enumerated().map { index, degrees in
            CommonCrop.Photo(size: frame, transform: SimilarityTransform(dx: -960, dy: -540)
                .then(SimilarityTransform(scale: 1 + 0.02 * Double(index), rotation: degrees))
                .then(SimilarityTransform(dx: 960 + 20 * Double(index), dy: 540 - 15 * Double(index))))
        }
        let crop = try CommonCrop(frame: frame, photos: photos)
        XCTAssertEqual(crop.rect.width / crop.rect.height, 16.0 / 9, accuracy: 1e-6)
        XCTAssertGreaterThan(crop.rect.width, 1400, "as large as the turns allow: \(crop.rect)")
        for photo in photos {
            let back = photo.transform.inverse
            for corner in crop.rect.corners {
                let inPhoto = back.apply(corner)
                XCTAssertTrue((-1e-6...1920 + 1e-6).contains(inPhoto.x) && (-1e-6...1080 + 1e-6).contains(inPhoto.y), "\(corner) is outside")
            }
        }
        XCTAssertThrowsError(try CommonCrop(frame: frame, photos: [photos[0], .init(size: frame, transform: SimilarityTransform(dx: 3000, dy: 0))])) {
            XCTAssertEqual("\($0)", "no plausible alignment: the aligned photos share no common area of the frame")
        }
    }

    func testTheWarpPutsPixelsWhereTheTransformSays() throws {
        try Vips.start()
        // A white 10x10 square at (20, 20) on black, 64x48.
        let canvas = try Image.solid(width: 64, height: 48, colour: .black)
            .drawingRectangles([(x: 20, y: 20, width: 10, height: 10)], colour: .white, fill: true)
        let shifted = try canvas.warped(by: SimilarityTransform(dx: 10, dy: 5), frame: PixelSize(width: 64, height: 48), interpolator: .bicubic)
        XCTAssertEqual(try shifted.pixel(x: 30, y: 25)[0], 255, accuracy: 1)
        XCTAssertEqual(try shifted.pixel(x: 39, y: 34)[0], 255, accuracy: 1)
        XCTAssertEqual(try shifted.pixel(x: 29, y: 25)[0], 0, accuracy: 1)
        XCTAssertEqual(try shifted.pixel(x: 40, y: 34)[0], 0, accuracy: 1)
        // Doubled about the origin: the square covers [40, 60) in each direction.
        let doubled = try canvas.warped(by: SimilarityTransform(scale: 2), frame: PixelSize(width: 128, height: 96), interpolator: .nearest)
        XCTAssertEqual(try doubled.pixel(x: 40, y: 40)[0], 255, accuracy: 1)
        XCTAssertEqual(try doubled.pixel(x: 59, y: 59)[0], 255, accuracy: 1)
        XCTAssertEqual(try doubled.pixel(x: 39, y: 40)[0], 0, accuracy: 1)
        XCTAssertEqual(try doubled.pixel(x: 60, y: 59)[0], 0, accuracy: 1)
        // Halved by four (box-shrunk first): the square averages into [5, 7.5).
        let quartered = try canvas.warped(by: SimilarityTransform(scale: 0.25), frame: PixelSize(width: 16, height: 12), interpolator: .bilinear)
        XCTAssertEqual(try quartered.pixel(x: 5, y: 5)[0], 255, accuracy: 1)
        XCTAssertEqual(try quartered.pixel(x: 3, y: 3)[0], 0, accuracy: 1)

        let grey = try canvas.greyWorkingImage(longEdge: 48)
        XCTAssertEqual(grey.size, PixelSize(width: 48, height: 36))
        XCTAssertEqual(grey.pixels[18 * 48 + 18], 255)
        XCTAssertEqual(grey.pixels[0], 0)
    }
}
