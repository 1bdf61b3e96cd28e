import DarkroomRaw
import DarkroomTestSupport
import DarkroomVips
import Foundation
import Synchronization
import XCTest

/// Developing RAW files with LibRaw: sizes, orientation, colours, colour spaces, and the failures of
/// files whose image data is missing.
final class RawDecodeTests: XCTestCase {
    override func setUpWithError() throws {
        try Vips.start()
        try LibRaw.start()
    }

    func testStartRecordsTheLibrary() throws {
        let library = try XCTUnwrap(LibRaw.started)
        XCTAssertTrue(library.version.hasPrefix("0.2"), library.version)
        XCTAssertGreaterThanOrEqual(library.versionNumber, 0x00_14_00)
        XCTAssertGreaterThan(library.cameraCount, 1000)
        try LibRaw.start()  // idempotent
        XCTAssertEqual(LibRaw.started, library)
    }

    /// The exiftool test RAWs keep their metadata but not their sensor data: each fails with a reason,
    /// neither crashing nor hanging nor developing to noise.
    func testFilesWithoutImageDataFailWithAReason() throws {
        let expected: [(String, String)] = [
            ("exiftool-Sigma.x3f", "not a RAW format LibRaw"),          // Debian's LibRaw 0.20 has no X3F decoder
            ("exiftool-SigmaDP2.x3f", "not a RAW format LibRaw"),
            // LibRaw cannot even identify the cut file: its structure says why.
            ("exiftool-CanonRaw.cr2", "RAW image data is missing or cut short: the file holds 16 bytes of image data, too few for any camera's sensor"),
            // Caught by the file's structure before LibRaw decodes (which for some gives success and noise).
            ("exiftool-DNG.dng", "RAW image data is missing or cut short: the file holds 22 bytes of image data for a 3516x2328 sensor"),
            ("exiftool-Nikon.nef", "RAW image data is missing or cut short: the file holds 18 bytes of image data for a 3040x2014 sensor"),
            ("exiftool-FujiFilm.raf", "RAW image data is missing or cut short: the file holds 22 bytes"),
            ("exiftool-CanonRaw.cr3", "RAW image data is missing or cut short: the file holds 41065 bytes"),
            ("exiftool-Panasonic.rw2", "RAW image data is missing or cut short: the file ends at byte 12344, its sensor data should run to byte 20524114"),
            // Caught by LibRaw's own error codes and callbacks.
            ("exiftool-CanonRaw.crw", "RAW image data is missing or cut short: the file ends before its sensor data does"),
            ("exiftool-KyoceraRaw.raw", "RAW image data is missing or cut short: the file ends before its sensor data does"),
            ("exiftool-Minolta.mrw", "RAW image data is missing or cut short: the file ends before its sensor data does"),
            ("exiftool-PhaseOne.iiq", "RAW image data is missing or cut short: the file ends before its sensor data does"),
        ]
        for (name, words) in expected {
            let path = try Corpus.file("raw/\(name)").path
            XCTAssertThrowsError(try RawFile.open(path).develop(halfSize: true), name) { error in
                XCTAssertTrue(error is RawError, "\(name): \(error)")
                XCTAssertTrue("\(error)".hasPrefix("\(path): \(words)"), "\(name): \(error)")
            }
        }
    }

    /// A real DNG cut at 90%: the strip runs past the end. (LibRaw itself says "unexpected end of
    /// file" for this one, but its lossless-JPEG and Panasonic decoders do not, so the structure is checked first.)
    func testFileCutShortSaysWhereItEnds() throws {
        let folder = try TemporaryFolder("raw-cut")
        let cut = folder.path("cut.dng")
        try Fixtures.truncated(try Corpus.file("raw/colorchart.dng"), to: cut, bytes: 3_500_000)
        XCTAssertEqual(try RawFile.open(cut.path).info.rawWidth, 1888, "the header is intact")
        XCTAssertThrowsError(try RawFile.open(cut.path).develop()) { error in
            XCTAssertEqual("\(error)", "\(cut.path): RAW image data is missing or cut short: the file ends at byte 3500000, "
                           + "its sensor data should run to byte 3906864")
        }
        // The sensor check alone, without the structure's help: sensor data that is all zeros.
        let empty = folder.path("zeros.dng")
        try SyntheticDNG(width: 64, height: 48, colour: { _, _ in (0, 0, 0) }).data().write(to: empty)
        XCTAssertThrowsError(try RawFile.open(empty.path).develop()) { error in
            XCTAssertTrue("\(error)".contains("the sensor data is empty (0 of 32768 sampled values are not zero)"), "\(error)")
        }
    }

    func testMissingFileAndFolderAreUnreadable() throws {
        let folder = try TemporaryFolder("raw-open")
        XCTAssertThrowsError(try RawFile.open(folder.path("none.cr2").path)) { error in
            XCTAssertTrue("\(error)".hasSuffix("none.cr2: cannot read the file: No such file or directory"), "\(error)")
        }
        XCTAssertThrowsError(try RawFile.open(folder.url.path)) { error in
            XCTAssertTrue("\(error)".hasSuffix("cannot read the file: it is a folder"), "\(error)")
        }
        XCTAssertThrowsError(try RawFile.open(try Corpus.file("raw/colorchart.dng").path, maximumPixels: 1_000_000)) { error in
            XCTAssertTrue("\(error)".contains("the sensor is 1888x1182 (2 MP), over the limit of 1 MP"), "\(error)")
        }
    }

    func testColourChartDevelopsToItsSizeAndColours() throws {
        let raw = try RawFile.open(try Corpus.file("raw/colorchart.dng").path)
        XCTAssertEqual([raw.info.make, raw.info.model, "\(raw.info.orientation)"], ["Canon", "EOS Kiss X4", "1"])
        XCTAssertEqual([raw.info.rawWidth, raw.info.rawHeight, raw.info.outputWidth, raw.info.outputHeight], [1888, 1182, 1734, 1156])
        let developed = try raw.develop()
        XCTAssertEqual([developed.width, developed.height, developed.bands, developed.bitsPerSample], [1734, 1156, 3, 8])
        XCTAssertEqual(developed.byteCount, 1734 * 1156 * 3)
        let image = try developed.image()
        try ColourChart.assertLooksLikeTheChart(image, orientation: 1)
        XCTAssertTrue(String(decoding: try XCTUnwrap(image.iccProfile), as: UTF8.self).contains("sRGB"))

        let half = try raw.develop(halfSize: true, bitsPerSample: 16)
        XCTAssertEqual([half.width, half.height, half.bitsPerSample], [867, 578, 16])
        let halfImage = try half.image()
        XCTAssertFalse(halfImage.isEightBit)
        let red8 = try ColourChart.mean(image, at: ColourChart.red, orientation: 1)
        let red16 = try ColourChart.mean(halfImage, at: ColourChart.red, orientation: 1)
        for band in 0..<3 { XCTAssertEqual(red16[band] / 257, red8[band], accuracy: 12, "16-bit is the 8-bit scale times 257") }
    }

    /// Display P3 output carries the P3 profile; converted back to sRGB it matches the sRGB development.
    func testDisplayP3DevelopmentMatchesSRGBAfterConversion() throws {
        let raw = try RawFile.open(try Corpus.file("raw/colorchart.dng").path)
        let srgb = try raw.develop(halfSize: true, colourSpace: .sRGB).image()
        let p3 = try raw.develop(halfSize: true, colourSpace: .displayP3).image()
        XCTAssertTrue(String(decoding: try XCTUnwrap(p3.iccProfile), as: UTF8.self).contains("P3"))
        let back = try p3.converted(toProfile: "srgb")
        for patch in [ColourChart.red, ColourChart.green, ColourChart.blue, ColourChart.yellow, ColourChart.white] {
            let a = try ColourChart.mean(srgb, at: patch, orientation: 1), b = try ColourChart.mean(back, at: patch, orientation: 1)
            for band in 0..<3 { XCTAssertEqual(a[band], b[band], accuracy: 6, "patch \(patch) band \(band)") }
        }
        // The same red is less saturated in P3's numbers than in sRGB's.
        let redSRGB = try ColourChart.mean(srgb, at: ColourChart.red, orientation: 1)
        let redP3 = try ColourChart.mean(p3, at: ColourChart.red, orientation: 1)
        XCTAssertLessThan(redP3[0], redSRGB[0])
        XCTAssertGreaterThan(redP3[1], redSRGB[1] + 5)
    }

    /// Copies of the chart with an EXIF orientation develop upright: the patches move where the tag says.
    func testOrientationTagsComeOutUpright() throws {
        try Prerequisite.require(tool: "exiftool")
        let folder = try TemporaryFolder("raw-orientation")
        let orientations = [3, 6, 8]
        var arguments: [String] = []
        for orientation in orientations {
            let copy = folder.path("chart-\(orientation).dng")
            try FileManager.default.copyItem(at: try Corpus.file("raw/colorchart.dng"), to: copy)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
            arguments += (arguments.isEmpty ? [] : ["-execute"]) + ["-q", "-overwrite_original", "-Orientation#=\(orientation)", copy.path]
        }
        try Fixtures.run("exiftool", arguments)  // one exiftool process for the three copies
        for orientation in orientations {
            let copy = folder.path("chart-\(orientation).dng")
            let raw = try RawFile.open(copy.path)
            XCTAssertEqual(raw.info.orientation, orientation)
            let image = try raw.develop(halfSize: true).image()
            let turned = orientation == 3 ? (867, 578) : (578, 867)
            XCTAssertEqual([image.width, image.height], [turned.0, turned.1], "orientation \(orientation)")
            try ColourChart.assertLooksLikeTheChart(image, orientation: orientation)
        }
    }

    /// A DNG generated here (a quadrant picture, the camera's space set to linear sRGB) develops upright.
    func testGeneratedDNGWithOrientationComesOutUpright() throws {
        let folder = try TemporaryFolder("raw-synthetic")
        for orientation in [1, 8] {
            let path = folder.path("quadrants-\(orientation).dng")
            try Quadrants.dng(orientation: orientation).data().write(to: path)
            let image = try RawFile.open(path.path).develop().image()
            if orientation == 1 {
                XCTAssertEqual([image.width, image.height], [96, 64])
                try Quadrants.assertUpright(image, corners: [.red, .green, .blue, .grey])
            } else {
                // Orientation 8: the picture is turned 90° anticlockwise to be shown.
                XCTAssertEqual([image.width, image.height], [64, 96])
                try Quadrants.assertUpright(image, corners: [.green, .grey, .red, .blue])
            }
        }
    }

    /// libraw_r is reentrant: one RawFile a thread, several at once, the same pixels as one at a time.
    func testRawFilesDevelopOnSeveralThreadsAtOnce() throws {
        let path = try Corpus.file("raw/colorchart.dng").path
        let expected = try RawFile.open(path).develop(halfSize: true).withPixels { Data($0) }
        let results = Mutex<[Data?]>(Array(repeating: nil, count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            let pixels = try? RawFile.open(path).develop(halfSize: true).withPixels { Data($0) }
            results.withLock { $0[index] = pixels }
        }
        for (index, pixels) in results.withLock({ $0 }).enumerated() {
            XCTAssertEqual(pixels, expected, "thread \(index)")
        }
    }

    /// LibRaw recycles its decoder after a fatal error; the next call opens the file again.
    func testDevelopingAfterAFailedPreviewWorks() throws {
        let folder = try TemporaryFolder("raw-recover")
        let path = folder.path("lost-preview.dng")
        var dng = Quadrants.dng(orientation: 1)
        dng.previewJPEG = Data([0xFF, 0xD8, 0xFF, 0xD9])
        dng.previewSize = (48, 32)
        dng.previewOffsetPastTheEnd = true
        try dng.data().write(to: path)
        let raw = try RawFile.open(path.path)
        XCTAssertThrowsError(try raw.preview()) { error in
            guard case .previewCorrupt = (error as? RawError)?.reason else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try raw.develop().width, 96)
    }
}
