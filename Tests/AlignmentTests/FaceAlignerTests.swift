import AlignmentTestSupport
@testable import DarkroomAlignment
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// Face alignment of hand-held portraits: the eyes must land at the same place of the frame every time.
final class FaceAlignerTests: XCTestCase {
    override func setUpWithError() throws {
        try Vips.start()
        AlignmentRuntime.start(threads: 1)
    }

    func testEyesStayWithinTwoPercentOfTheFrameWidth() throws {
        try checkEyesStayPut("immich-test-assets/metadata/faces/portrait.jpg", seed: 3)
    }

    func testAPortraitWithOrientationSixIsTurnedUprightFirst() throws {
        let file = try Corpus.file("immich-test-assets/metadata/faces/portrait-orientation-6.jpg")
        let stored = try Image.open(file.path)
        XCTAssertEqual(stored.orientation, 6)
        // Sideways, the faces are not found at all: the caller must turn the photo upright first.
        XCTAssertThrowsError(try FaceAligner().align(stored.greyWorkingImage(longEdge: 700))) { error in
            guard case .noFace = error as? AlignmentError else { return XCTFail("\(error)") }
        }
        try checkEyesStayPut("immich-test-assets/metadata/faces/portrait-orientation-6.jpg", seed: 4)
    }

    func testAPhotoWithoutAFaceFailsWithTheReason() throws {
        let landscape = try HandheldSet.base(SceneAlignerTests.landscape, longEdge: 800)
        XCTAssertThrowsError(try FaceAligner().align(landscape.greyWorkingImage())) { error in
            XCTAssertEqual("\(error)", "no face found (looked for faces at least 48 pixels wide in the working image)")
        }
    }

    func testAMissingCascadeIsNamed() {
        XCTAssertThrowsError(try NativeCascade(path: "/nonexistent/haarcascade_frontalface_alt2.xml")) { error in
            XCTAssertEqual("\(error)", "the face-detection cascade /nonexistent/haarcascade_frontalface_alt2.xml cannot be used "
                           + "(no such file): install Debian's opencv-data")
        }
    }

    /// Makes 10 hand-held copies of a portrait and aligns them. The eye centres found once on the upright
    /// original are taken through each copy's true transform and the found one: they must stay within 2 %
    /// of the frame's width of where they land in the first copy (no wobble from copy to copy), and within
    /// 5 % of the frame's targets (where the detectors put the eyes of a small, turned face is only so exact).
    private func checkEyesStayPut(_ corpusPath: String, seed: UInt64) throws {
        let base = try HandheldSet.base(corpusPath, longEdge: 1000)  // upright: thumbnail applies EXIF orientation
        XCTAssertEqual(base.pixelSize, PixelSize(width: 840, height: 700), "upright, as the photo shows two people side by side")
        var options = FaceAligner.Options()
        options.frameAspectRatio = 4.0 / 5.0
        options.minimumFace = 0.12  // the faces are about a fifth of the picture wide: looking for smaller ones only costs time
        let original = try FaceAligner(options: options).align(base.greyWorkingImage())
        XCTAssertNotEqual(original.eyes, .faceProportions, "an eye is found on the original")
        let toBasePixels = SimilarityTransform.normalising(base.pixelSize).inverse
        let eyes = [toBasePixels.apply(original.leftEye), toBasePixels.apply(original.rightEye)]

        let set = try HandheldSet(base: base, count: 10, growingSubject: false, seed: seed)
        let aligner = try FaceAligner(options: options)
        let targets = [aligner.eyeTargets.left, aligner.eyeTargets.right]
        let frameWidth = options.frameAspectRatio  // the frame's width in normalised units (its long edge is 1)
        var first: [Point2D]?
        var refined = 0, worstWobble = 0.0, worstPlacement = 0.0
        for photo in set.photos {
            let alignment = try aligner.align(photo.image.greyWorkingImage())
            if alignment.refined { refined += 1 }
            let toNormalised = SimilarityTransform.normalising(photo.image.pixelSize)
            let landed = eyes.map { alignment.transform.apply(toNormalised.apply(photo.truth.apply($0))) }
            let anchor = first ?? landed
            first = anchor
            worstWobble = max(worstWobble, zip(landed, anchor).map { $0.distance(to: $1) / frameWidth }.max()!)
            worstPlacement = max(worstPlacement, zip(landed, targets).map { $0.distance(to: $1) / frameWidth }.max()!)
        }
        XCTAssertLessThanOrEqual(worstWobble, 0.02, "the eyes move \(worstWobble * 100) % of the frame width between copies")
        XCTAssertLessThanOrEqual(worstPlacement, 0.05, "the eyes land \(worstPlacement * 100) % of the frame width from their places")
        XCTAssertEqual(refined, set.photos.count - 1, "every face after the first is refined onto the first")
    }
}
