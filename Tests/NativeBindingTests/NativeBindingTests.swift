import DarkroomExif
import DarkroomHEIF
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// The Swift wrappers over libvips and libheif, on their own.
final class NativeBindingTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    func testOnlyPhotoLoadersAreEnabled() throws {
        let folder = try TemporaryFolder("loaders")
        let svg = folder.path("drawing.jpg")
        try Data("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='10' height='10'/></svg>".utf8).write(to: svg)
        XCTAssertThrowsError(try Image.open(svg.path)) { error in
            XCTAssertTrue("\(error)".contains("svgload: operation is blocked"), "\(error)")
        }
        let png = folder.path("ok.png")
        try Image.solid(width: 8, height: 4, colour: .white).write(to: png.path, as: .png)
        XCTAssertEqual(try Image.open(png.path).width, 8)
    }

    func testHEIFRoundTripKeepsPixelsProfileAndEXIF() throws {
        let folder = try TemporaryFolder("heif")
        let source = folder.path("source.jpg")
        try Fixtures.halves(source, width: 64, height: 48, exif: ["-Make=Canon", "-Orientation#=6"])
        let image = try Image.open(source.path)
        let profile = try XCTUnwrap(try Image.solid(width: 2, height: 2, colour: .white).converted(toProfile: "srgb").iccProfile)
        let exif = try XCTUnwrap(image.exifData).map { $0 }
        let output = folder.path("out.heic")
        let rgb = try image.eightBitRGB()
        try HEIFEncoder.encode(RGBPixels(bytes: try rgb.pixelBytes(), width: 64, height: 48, hasAlpha: false), iccProfile: profile,
                               exif: ExifBlob.resettingOrientation(Data(exif)),
                               settings: HEIFEncodeSettings(quality: 90, preset: "ultrafast"), to: output.path)
        let info = try HEIFInfo.read(output.path)
        XCTAssertEqual([info.width, info.height, info.lumaBitDepth], [64, 48, 8])
        XCTAssertTrue(info.hasICCProfile)
        let decoded = try Image.open(output.path)
        XCTAssertEqual(decoded.iccProfile, profile)
        XCTAssertEqual(decoded.orientation, 1, "the carried EXIF says Orientation 1")
        let left = try decoded.pixel(x: 8, y: 24), right = try decoded.pixel(x: 56, y: 24)
        XCTAssertGreaterThan(left[0], 200); XCTAssertLessThan(left[2], 60)
        XCTAssertGreaterThan(right[2], 200); XCTAssertLessThan(right[0], 60)
    }

    func testEncoderRejectsAPixelBufferOfTheWrongSize() {
        XCTAssertThrowsError(try HEIFEncoder.encode(RGBPixels(bytes: Data(count: 10), width: 64, height: 48, hasAlpha: false),
                                                    iccProfile: nil, exif: nil,
                                                    settings: HEIFEncodeSettings(quality: 50, preset: "ultrafast"), to: "/tmp/never.heic"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/never.heic"))
    }

    func testColoursParse() {
        XCTAssertEqual(Colour(parsing: "#f00"), Colour(red: 255, green: 0, blue: 0))
        XCTAssertEqual(Colour(parsing: "#10203040"), Colour(red: 16, green: 32, blue: 48, alpha: 64))
        XCTAssertEqual(Colour(parsing: "white"), .white)
        XCTAssertNil(Colour(parsing: "#12345"))
        XCTAssertNil(Colour(parsing: "chartreuse-ish"))
    }

    func testTextRendersOpaqueGlyphsOnATransparentBackground() throws {
        let text = try Image.text("2024-04-01", font: "DejaVu Sans Bold 20", colour: .white)
        XCTAssertEqual(text.bands, 4)
        XCTAssertGreaterThan(text.width, 60)
        let alpha = try text.extractBand(3).average()
        XCTAssertGreaterThan(alpha, 10, "glyph pixels are opaque")
        XCTAssertLessThan(alpha, 200, "the space between glyphs is transparent")
    }
}
