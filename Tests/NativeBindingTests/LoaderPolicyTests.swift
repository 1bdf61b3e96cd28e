import DarkroomExif
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// `LoaderPolicy.photoLibrary`: which files libvips may decode, TIFF among them, and why the rest are refused.
final class LoaderPolicyTests: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        try NativeLibraries.start()
        folder = try TemporaryFolder("loaders")
    }

    func testEveryLoaderOfThisLibvipsIsNamedAndSetAsThePolicySays() throws {
        let policy = LoaderPolicy.photoLibrary
        let classes = Vips.loaderClasses()
        XCTAssertGreaterThan(classes.count, 30)
        for loader in classes {
            XCTAssertNotNil(policy.loader(nickname: loader.nickname), "\(loader.className) (\(loader.nickname)) is in neither list")
            XCTAssertEqual(loader.isBlocked, !policy.allows(nickname: loader.nickname), loader.nickname)
        }
        XCTAssertEqual(policy.allowed.map(\.format), ["JPEG", "HEIF/HEIC/AVIF", "PNG", "WebP", "TIFF"])
        let untrustedAllowed = classes.filter { $0.isUntrusted && !$0.isBlocked }.map(\.nickname)
        XCTAssertEqual(untrustedAllowed, [], "no loader libvips marks untrusted may run")
        XCTAssertTrue(classes.contains { $0.nickname == "jxlload" && $0.isBlocked && $0.isUntrusted })
        XCTAssertTrue(classes.contains { $0.nickname == "heifload" && !$0.isBlocked }, "the HEIF module is loaded")
        XCTAssertEqual(policy.modules, ["heif", "jxl"])
        for absent in ["magickload", "pdfload", "openslideload"] {
            XCTAssertFalse(classes.contains { $0.nickname == absent }, "\(absent)'s module is not loaded at all")
        }
    }

    func testFilesOfBlockedFormatsNamedJPGAreRefusedWithTheReason() throws {
        let svg = folder.path("drawing.jpg")
        try Data("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='10' height='10'/></svg>".utf8).write(to: svg)
        assertRefused(svg, "svgload: operation is blocked (Darkroom does not read SVG: a drawing, not a photo")

        // A damaged PDF: poppler would say "PDF document is damaged" if it had been handed the file. Its
        // module is not loaded, so no loader in this process claims it.
        let pdf = folder.path("scan.jpg")
        try Data("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n".utf8).write(to: pdf)
        assertRefused(pdf, "scan.jpg\" is not a known file format")

        let png = folder.path("photo.png")
        try Image.solid(width: 16, height: 8, colour: .white).write(to: png.path, as: .png)
        let jxl = folder.path("photo.jxl")
        try Fixtures.run("vips", ["copy", png.path, jxl.path])
        let renamed = folder.path("photo-jxl.jpg")
        try FileManager.default.copyItem(at: jxl, to: renamed)
        for file in [jxl, renamed] {
            assertRefused(file, "jxlload: operation is blocked (Darkroom does not read JPEG XL: libvips 8.14 marks its JPEG XL loader (libjxl 0.7) untrusted")
        }
        XCTAssertThrowsError(try Image.thumbnail(renamed.path, width: 8, height: 8)) { error in
            XCTAssertTrue("\(error)".contains("jxlload: operation is blocked"), "\(error)")
        }
    }

    private func assertRefused(_ file: URL, _ reason: String, line: UInt = #line) {
        XCTAssertThrowsError(try Image.open(file.path), line: line) { error in
            XCTAssertTrue("\(error)".contains(reason), "\(error)", line: line)
            XCTAssertFalse("\(error)".contains("damaged"), "the blocked loader ran: \(error)", line: line)
        }
    }

    /// A 600x400 RGB TIFF, blue with a red block in its top-left corner, written by ImageMagick with
    /// `options` (its depth, compression, byte order), then given EXIF with exiftool.
    func tiff(_ name: String, _ options: [String], exif: [String] = ["-DateTimeOriginal=1987:06:05 04:03:02"]) throws -> URL {
        let url = folder.path(name)
        try Fixtures.run("convert", ["-size", "600x400", "xc:#3060c0", "-fill", "red", "-draw", "rectangle 0,0 149,99", "-alpha", "off"] + options + [url.path])
        if !exif.isEmpty { try Fixtures.run("exiftool", ["-q", "-overwrite_original"] + exif + [url.path]) }
        return url
    }

    func testTIFFsOpenWithTheirEXIFInEitherByteOrder() throws {
        let files = [
            try tiff("lzw.tif", ["-depth", "8", "-compress", "lzw"]),
            try tiff("deflate-16.tif", ["-depth", "16", "-compress", "zip"]),
            try tiff("motorola.tiff", ["-depth", "8", "-define", "tiff:endian=msb", "-compress", "lzw"],
                     exif: ["-DateTimeOriginal=1987:06:05 04:03:02", "-Make=Epson", "-GPSLatitude=48.85", "-GPSLatitudeRef=N",
                            "-GPSLongitude=2.35", "-GPSLongitudeRef=E"]),
            try tiff("tiled.tif", ["-depth", "8", "-define", "tiff:tile-geometry=128x128", "-compress", "lzw"]),
        ]
        for file in files {
            let image = try Image.open(file.path)
            XCTAssertEqual([image.width, image.height, image.bands], [600, 400, 3], file.lastPathComponent)
            XCTAssertEqual(image.loader, "tiffload")
            let exif = try ExifTags(parsing: try XCTUnwrap(image.exifData, file.lastPathComponent))
            XCTAssertEqual(exif.dateTimeOriginal, "1987:06:05 04:03:02", file.lastPathComponent)
            let thumbnail = try Image.thumbnail(file.path, width: 100, height: 100)
            XCTAssertEqual(try ExifTags(parsing: try XCTUnwrap(thumbnail.exifData)).dateTimeOriginal, "1987:06:05 04:03:02")
        }
        let motorola = try ExifTags(parsing: try XCTUnwrap(try Image.open(files[2].path).exifData))
        XCTAssertEqual(motorola.make, "Epson", "IFD0 in big-endian order")
        XCTAssertEqual(motorola.gpsPosition?.latitude ?? 0, 48.85, accuracy: 0.0001, "the GPS directory")
        XCTAssertEqual(motorola.gpsPosition?.longitude ?? 0, 2.35, accuracy: 0.0001)
        XCTAssertTrue(try Image.open(files[0].path).isEightBit)
        XCTAssertFalse(try Image.open(files[1].path).isEightBit, "16 bits a sample")
    }

    func testATIFFWithoutEXIFHasNone() throws {
        let plain = try tiff("plain.tif", ["-depth", "8", "-compress", "lzw"], exif: [])
        XCTAssertNil(try Image.open(plain.path).exifData)
    }
}
