import DarkroomSimilarity
import Foundation
import XCTest

/// The fingerprint's inputs, stored form and featureless frames; sharpness.
final class FingerprintTests: XCTestCase {
    func grey(_ side: Int, _ value: (Int, Int) -> Int) throws -> GreyImage {
        try GreyImage(width: side, height: side, pixels: (0..<side * side).map { UInt8(clamping: value($0 % side, $0 / side)) })
    }

    func testFlatAndSmoothFramesHaveNoFingerprint() throws {
        XCTAssertNil(try SimilarityFingerprint.make(from: try grey(64) { _, _ in 200 }), "a blank frame")
        XCTAssertNil(try SimilarityFingerprint.make(from: try grey(64) { x, y in 120 + (x + y) % 2 }), "one grey level of noise")
        // A smooth radial vignette: most low coefficients sit on the median and re-encoding flips them.
        XCTAssertNil(try SimilarityFingerprint.make(from: try grey(64) { x, y in
            Int(200 - 0.04 * Double((x - 32) * (x - 32) + (y - 32) * (y - 32)))
        }))
        XCTAssertNotNil(try SimilarityFingerprint.make(from: try grey(64) { x, y in 3 * x + y * y / 20 + (x / 10 % 2) * 40 }), "stripes on a gradient")
    }

    func testWrongSizesAreErrorsNamingTheSizes() throws {
        XCTAssertThrowsError(try SimilarityFingerprint.make(from: try grey(32) { x, _ in x })) { error in
            XCTAssertEqual("\(error)", "a fingerprint is computed from a 64x64 grey copy, got 32x32")
        }
        XCTAssertThrowsError(try GreyImage(width: 4, height: 4, pixels: [1, 2, 3])) { error in
            XCTAssertEqual("\(error)", "a 4x4 grey image needs 16 pixels, got 3")
        }
    }

    func testStoredBytesRoundTripAndRejectOtherVersions() throws {
        let fingerprint = try XCTUnwrap(try SimilarityFingerprint.make(from: try grey(64) { x, y in (x * x + 3 * y) % 256 }))
        let bytes = fingerprint.storedBytes
        XCTAssertEqual(bytes.count, SimilarityFingerprint.storedLength)
        XCTAssertEqual(try SimilarityFingerprint(storedBytes: bytes), fingerprint)
        XCTAssertThrowsError(try SimilarityFingerprint(storedBytes: Array(bytes.dropLast())))
        XCTAssertThrowsError(try SimilarityFingerprint(storedBytes: [9] + bytes.dropFirst())) { error in
            XCTAssertEqual("\(error)", "malformed stored fingerprint: unknown version 9")
        }
    }

    func testHashHexRoundTrip() throws {
        let hash = PerceptualHash(bits: 0x00F0_0000_0000_0A01)
        XCTAssertEqual("\(hash)", "00f0000000000a01")
        XCTAssertEqual(PerceptualHash(hex: "00f0000000000a01"), hash)
        XCTAssertNil(PerceptualHash(hex: "xyz"))
        XCTAssertEqual(try JSONDecoder().decode([PerceptualHash].self, from: Data(#"["00f0000000000a01"]"#.utf8)), [hash])
    }

    func testSharperImagesHaveAHigherLaplacianVariance() throws {
        let sharp = try grey(100) { x, y in (x / 5 + y / 5) % 2 == 0 ? 40 : 210 }
        // The same edges blurred by a 5 x 5 box.
        let blurred = try GreyImage(width: 100, height: 100, pixels: (0..<10_000).map { index in
            let (x, y) = (index % 100, index / 100)
            var sum = 0, count = 0
            for dy in -2...2 { for dx in -2...2 where (0..<100).contains(x + dx) && (0..<100).contains(y + dy) {
                sum += Int(sharp.pixels[(y + dy) * 100 + x + dx]); count += 1
            } }
            return UInt8(sum / count)
        })
        XCTAssertGreaterThan(Sharpness.laplacianVariance(of: sharp), 4 * Sharpness.laplacianVariance(of: blurred))
        XCTAssertEqual(Sharpness.laplacianVariance(of: try grey(10) { _, _ in 90 }), 0)
        XCTAssertEqual(Sharpness.laplacianVariance(of: try grey(2) { x, _ in x * 200 }), 0, "too small for the kernel")
    }
}
