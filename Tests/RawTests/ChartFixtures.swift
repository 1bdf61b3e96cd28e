import DarkroomVips
import Foundation
import XCTest

/// Where the colour checker's patches are in colorchart.dng, and what developed pixels must look like there.
enum ColourChart {
    /// Patch centres as fractions of the upright, unrotated picture's width and height.
    static let red = (x: 0.5346, y: 0.7085)
    static let green = (x: 0.4712, y: 0.7128)
    static let blue = (x: 0.4083, y: 0.7128)
    static let yellow = (x: 0.5957, y: 0.7085)
    static let white = (x: 0.4037, y: 0.8028)
    static let black = (x: 0.7220, y: 0.8028)

    /// The mean RGB around a patch of an image developed from a copy tagged with `orientation`: the
    /// patch is looked for where that orientation moves it.
    static func mean(_ image: Image, at patch: (x: Double, y: Double), orientation: Int) throws -> [Double] {
        let turned = [5, 6, 7, 8].contains(orientation)
        let width = turned ? image.height : image.width, height = turned ? image.width : image.height
        let x = Int(patch.x * Double(width)), y = Int(patch.y * Double(height))
        let (px, py): (Int, Int)
        switch orientation {
        case 3: (px, py) = (width - 1 - x, height - 1 - y)
        case 6: (px, py) = (height - 1 - y, x)
        case 8: (px, py) = (y, width - 1 - x)
        default: (px, py) = (x, y)
        }
        let radius = max(2, width / 200)
        let region = try image.cropped(left: px - radius, top: py - radius, width: 2 * radius + 1, height: 2 * radius + 1)
        return try (0..<3).map { try region.extractBand($0).average() }
    }

    /// Red, green, blue and yellow patches dominated by their colours, white far brighter than black.
    static func assertLooksLikeTheChart(_ image: Image, orientation: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try mean(image, at: red, orientation: orientation), g = try mean(image, at: green, orientation: orientation)
        let b = try mean(image, at: blue, orientation: orientation), y = try mean(image, at: yellow, orientation: orientation)
        let w = try mean(image, at: white, orientation: orientation), k = try mean(image, at: black, orientation: orientation)
        let context = "orientation \(orientation): red \(r) green \(g) blue \(b) yellow \(y) white \(w) black \(k)"
        XCTAssertTrue(r[0] > 3 * r[1] && r[0] > 3 * r[2], context, file: file, line: line)
        XCTAssertTrue(g[1] > g[0] + 5 && g[1] > 1.8 * g[2], context, file: file, line: line)
        XCTAssertTrue(b[2] > 1.6 * b[0] && b[2] > 1.6 * b[1], context, file: file, line: line)
        XCTAssertTrue(y[0] > 5 * y[2] && y[1] > 4 * y[2], context, file: file, line: line)
        XCTAssertTrue((0..<3).allSatisfy { w[$0] > k[$0] + 60 }, context, file: file, line: line)
    }
}

/// A 96x64 picture of four quadrants (red, green / blue, grey) written as a DNG by `SyntheticDNG`.
enum Quadrants {
    enum Colour { case red, green, blue, grey }

    static func colour(_ x: Int, _ y: Int, width: Int, height: Int) -> (red: Double, green: Double, blue: Double) {
        switch (x < width / 2, y < height / 2) {
        case (true, true): return (0.6, 0.05, 0.05)
        case (false, true): return (0.05, 0.6, 0.05)
        case (true, false): return (0.05, 0.05, 0.6)
        case (false, false): return (0.5, 0.5, 0.5)
        }
    }

    static func dng(orientation: Int) -> SyntheticDNG {
        var dng = SyntheticDNG(width: 96, height: 64, colour: { colour($0, $1, width: 96, height: 64) })
        dng.orientation = orientation
        return dng
    }

    /// A JPEG of the same picture at `width` x `height` (gamma-encoded, as a camera's preview).
    static func jpeg(width: Int, height: Int) throws -> Data {
        var bytes = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                let c = colour(x, y, width: width, height: height)
                bytes += [c.red, c.green, c.blue].map { UInt8((pow($0, 1 / 2.2) * 255).rounded()) }
            }
        }
        let image = try bytes.withUnsafeBytes { try Image.pixels(copying: $0, width: width, height: height, bands: 3, bitsPerSample: 8, profile: nil) }
        return try image.jpegData(quality: 95)
    }

    /// Asserts the colours at the centres of the four quadrants: top-left, top-right, bottom-left, bottom-right.
    static func assertUpright(_ image: Image, corners: [Colour], file: StaticString = #filePath, line: UInt = #line) throws {
        let points = [(1, 1), (3, 1), (1, 3), (3, 3)].map { (image.width * $0.0 / 4, image.height * $0.1 / 4) }
        for (point, expected) in zip(points, corners) {
            let p = try image.pixel(x: point.0, y: point.1)
            let found: Colour
            if p[0] > p[1] + 60 && p[0] > p[2] + 60 { found = .red }
            else if p[1] > p[0] + 60 && p[1] > p[2] + 60 { found = .green }
            else if p[2] > p[0] + 60 && p[2] > p[1] + 60 { found = .blue }
            else if max(p[0], p[1], p[2]) - min(p[0], p[1], p[2]) < 30 && p[0] > 80 { found = .grey }
            else { return XCTFail("pixel \(p) at \(point) is no quadrant colour", file: file, line: line) }
            XCTAssertEqual(found, expected, "at \(point) of \(image.width)x\(image.height)", file: file, line: line)
        }
    }
}
