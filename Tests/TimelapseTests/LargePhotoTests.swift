import DarkroomCore
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// Photos much larger than the frame take the JPEG shrink-on-load path (decoded at 1/2, 1/4, 1/8 scale):
/// it must still come out upright, in the right colours, filling the frame as asked.
final class LargePhotoTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    private let width = 320, height = 240

    /// A 1280x960 JPEG: left half red, right half blue; EXIF Orientation set with exiftool.
    private func halves(_ fixture: TimelapseFixture, _ name: String, orientation: Int) throws {
        let url = fixture.photos.appendingPathComponent(name)
        try Image.solid(width: 1280, height: 960, colour: Colour(red: 230, green: 20, blue: 20))
            .drawingRectangles([(x: 640, y: 0, width: 640, height: 960)], colour: Colour(red: 20, green: 20, blue: 230))
            .drawingRectangles([(x: 0, y: 0, width: 1, height: 1)], colour: Colour(red: Double(orientation), green: 0, blue: 0))
            .write(to: url.path, as: .jpeg(quality: 90))
        _ = try Tool.run("exiftool", ["-q", "-overwrite_original", "-Orientation#=\(orientation)", url.path])
    }

    private func pixel(_ frame: Data, _ x: Int, _ y: Int) -> [Int] { (0..<3).map { Int(frame[(y * width + x) * 3 + $0]) } }
    private func isRed(_ p: [Int]) -> Bool { p[0] > 180 && p[2] < 70 }
    private func isBlue(_ p: [Int]) -> Bool { p[2] > 180 && p[0] < 70 }

    func testLargeJPEGsAreUprightAndFillTheFrame() throws {
        let fixture = try TimelapseFixture()
        try halves(fixture, TimelapseFixture.name("level", day: 1), orientation: 1)
        try halves(fixture, TimelapseFixture.name("turned", day: 2), orientation: 6)
        let frames = try fixture.render(["background": "\"#00ff00\""]).frames(pixelFormat: "rgb24", width: width, height: height)
        XCTAssertEqual(frames.count, 18)

        // Orientation 1: 4:3 fills the 4:3 frame; red left, blue right, no green bars.
        let level = frames[4]
        XCTAssertTrue(isRed(pixel(level, 40, 120)), "\(pixel(level, 40, 120))")
        XCTAssertTrue(isBlue(pixel(level, 280, 120)), "\(pixel(level, 280, 120))")
        XCTAssertTrue(isRed(pixel(level, 2, 120)), "no letterbox at the edge: \(pixel(level, 2, 120))")

        // Orientation 6 turns the stored left half to the top: a 180x240 portrait, red above blue,
        // with green bars left and right.
        let turned = frames[13]
        XCTAssertTrue(isRed(pixel(turned, 160, 40)), "\(pixel(turned, 160, 40))")
        XCTAssertTrue(isBlue(pixel(turned, 160, 200)), "\(pixel(turned, 160, 200))")
        let bar = pixel(turned, 20, 120)
        XCTAssertTrue(bar[1] > 200 && bar[0] < 60, "letterbox bar: \(bar)")
    }

    func testShrinkFactorNeverDecodesSmallerThanNeeded() {
        XCTAssertEqual(Image.jpegShrink(forScale: 2.78), 2, "12 MP into 1080p")
        XCTAssertEqual(Image.jpegShrink(forScale: 4), 4)
        XCTAssertEqual(Image.jpegShrink(forScale: 7.9), 4)
        XCTAssertEqual(Image.jpegShrink(forScale: 30), 8)
        XCTAssertEqual(Image.jpegShrink(forScale: 1.99), 1)
        XCTAssertEqual(Image.jpegShrink(forScale: 0.5), 1, "smaller than the frame: decode in full")
    }
}
