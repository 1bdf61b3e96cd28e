import DarkroomCore
import DarkroomImaging
import DarkroomTestSupport
import DarkroomVideo
import DarkroomVips
import Foundation
import XCTest

/// The poster frame a video's thumbnail is made from: which frame, which way up, what colour.
///
/// Set `DARKROOM_KEEP_POSTERS=/some/folder` to keep the posters as JPEGs to look at.
final class PosterFrameTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    let settings = RunSettings(library: Clips.folder.url)

    func poster(_ url: URL, size: Int = 200, crop: Image.Crop = .none) throws -> Image {
        let item = Item(source: url, relativePath: url.lastPathComponent, contentHash: String(repeating: "0", count: 64),
                        fileSize: 1, modificationDate: Date())
        let image = try item.posterFrame(width: size, height: size, crop: crop, settings: settings)
        if let keep = ProcessInfo.processInfo.environment["DARKROOM_KEEP_POSTERS"] {
            try image.write(to: "\(keep)/\(url.deletingPathExtension().lastPathComponent)-\(size).jpg", as: .jpeg(quality: 90))
        }
        return image
    }

    /// Mean red, green and blue of a rectangle.
    func colour(_ image: Image, x: Int, y: Int, width: Int, height: Int) throws -> [Double] {
        let region = try image.cropped(left: x, top: y, width: width, height: height)
        return try (0..<3).map { try region.extractBand($0).average() }
    }

    func isRed(_ rgb: [Double]) -> Bool { rgb[0] > 180 && rgb[1] < 80 && rgb[2] < 80 }

    func testThePosterHasTheSizeAskedAndTheRedCornerWhereItWas() throws {
        let image = try poster(try Clips.appleMOV)
        XCTAssertEqual([image.width, image.height], [200, 150])
        XCTAssertTrue(isRed(try colour(image, x: 5, y: 5, width: 30, height: 20)), "top left is red")
        XCTAssertFalse(isRed(try colour(image, x: 165, y: 5, width: 30, height: 20)), "top right is blue")
        let square = try poster(try Clips.appleMOV, size: 100, crop: .centre)
        XCTAssertEqual([square.width, square.height], [100, 100])
    }

    func testARotatedClipsPosterIsUprightAsPlayersShowIt() throws {
        // rotate=90 as FFmpeg 5.1 writes it: shown a quarter turn counter-clockwise, red to the bottom left.
        let left = try poster(try Clips.rotatedMOV(rotate: 90))
        XCTAssertEqual([left.width, left.height], [150, 200])
        XCTAssertTrue(isRed(try colour(left, x: 5, y: 165, width: 20, height: 30)), "bottom left is red")
        XCTAssertFalse(isRed(try colour(left, x: 5, y: 5, width: 20, height: 30)))
        // rotate=270: a quarter turn clockwise (a portrait iPhone clip), red to the top right.
        let right = try poster(try Clips.rotatedMOV(rotate: 270))
        XCTAssertTrue(isRed(try colour(right, x: 125, y: 5, width: 20, height: 30)), "top right is red")

        // The same as the ffmpeg CLI shows it (it turns by the display matrix too).
        let reference = Clips.folder.path("rotated-90-ffmpeg.png")
        try Clips.ffmpeg(["-ss", "1", "-i", try Clips.rotatedMOV(rotate: 90).path, "-frames:v", "1", "-vf", "scale=150:200", reference.path])
        let shown = try Image.open(reference.path)
        XCTAssertTrue(isRed(try colour(shown, x: 5, y: 165, width: 20, height: 30)))
    }

    func testAnHLGPosterIsToneMappedNotWashedOut() throws {
        let hdr = try poster(try Clips.hlgMOV, size: 320)
        let sdr = try poster(try Clips.sdrBarsMOV, size: 320)
        // The frame shown as if it were BT.709, as a decoder that ignores the HDR tags would.
        let naivePath = Clips.folder.path("hlg-naive.png")
        try Clips.ffmpeg(["-ss", "1", "-i", try Clips.hlgMOV.path, "-frames:v", "1", "-pix_fmt", "rgb24", naivePath.path])
        let naive = try Image.open(naivePath.path)
        let (hdrSaturation, sdrSaturation, naiveSaturation) = (try saturation(hdr), try saturation(sdr), try saturation(naive))
        XCTAssertGreaterThan(hdrSaturation, 0.85 * sdrSaturation, "the bars keep their colour")
        XCTAssertLessThan(naiveSaturation, hdrSaturation - 0.15, "without tone mapping they would be greyer")
        XCTAssertLessThan(try difference(hdr, sdr), 0.9 * (try difference(naive, sdr)), "closer to the SDR original than the untone-mapped frame")
        XCTAssertGreaterThan(try hdr.average(), 0.5 * (try sdr.average()), "not dark either")
        // Each bar (red, green, yellow, blue, magenta, cyan) has the hue it has in the SDR original.
        for bar in 0..<6 {
            let x = 12 + bar * 53
            let a = try colour(hdr, x: x, y: 205, width: 20, height: 20), b = try colour(sdr, x: x, y: 205, width: 20, height: 20)
            XCTAssertEqual(dominant(a), dominant(b), "bar \(bar): \(a) against \(b)")
        }
    }

    func testBlackFramesArePassedOver() throws {
        let image = try poster(try Clips.fadeFromBlack)
        let rgb = try colour(image, x: 50, y: 50, width: 100, height: 50)
        XCTAssertGreaterThan(rgb[0], 200, "orange, not the black frame at one second: \(rgb)")
        XCTAssertGreaterThan(rgb[1], 100)
    }

    func testAShortClipShowsItsFirstFrame() throws {
        let rgb = try colour(try poster(try Clips.shortClip), x: 50, y: 50, width: 100, height: 50)
        XCTAssertGreaterThan(rgb[1], 100, "green, the first frame: \(rgb)")
        XCTAssertLessThan(rgb[2], 60)
    }

    func testAnMPEGTSPosterIsTheFrameAtOneSecondThoughSeekingLandsBetweenKeyFrames() throws {
        let rgb = try colour(try poster(try Clips.cameraMTS), x: 50, y: 50, width: 100, height: 50)
        XCTAssertGreaterThan(rgb[2], 150, "blue, the frame at one second, not the green first one: \(rgb)")
        XCTAssertLessThan(rgb[1], 60)
    }

    func testAPosterThatCannotBeDecodedFailsWithTheReason() throws {
        XCTAssertThrowsError(try poster(try Clips.undecodableAVI)) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot make the video's poster frame: no frame of the video could be decoded"), "\(error)")
        }
    }

    /// Mean HSV saturation over the picture.
    func saturation(_ image: Image) throws -> Double {
        let bytes = try image.eightBitRGB().pixelBytes()
        var total = 0.0
        var count = 0
        bytes.withUnsafeBytes { raw in
            for index in stride(from: 0, to: raw.count - 2, by: 3 * 7) {
                let (r, g, b) = (Double(raw[index]), Double(raw[index + 1]), Double(raw[index + 2]))
                let high = max(r, g, b), low = min(r, g, b)
                total += high > 0 ? (high - low) / high : 0
                count += 1
            }
        }
        return total / Double(max(count, 1))
    }

    /// The mean absolute difference of two same-sized pictures, per sample (0...255).
    func difference(_ a: Image, _ b: Image) throws -> Double {
        let (x, y) = (try a.eightBitRGB().pixelBytes(), try b.eightBitRGB().pixelBytes())
        XCTAssertEqual(x.count, y.count)
        return Double(zip(x, y).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(x.count, 1))
    }

    /// Which channels are lit in a colour (over half the brightest): "r", "rg", "rgb"...
    func dominant(_ rgb: [Double]) -> String {
        let high = rgb.max() ?? 0
        return zip("rgb", rgb).filter { $0.1 > high / 2 }.map { String($0.0) }.joined()
    }
}
