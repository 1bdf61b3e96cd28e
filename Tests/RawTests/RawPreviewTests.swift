import DarkroomRaw
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// Embedded previews: extracted as JPEG bytes, turned upright by the RAW's orientation, and clear
/// errors when there is none or it is damaged.
final class RawPreviewTests: XCTestCase {
    override func setUpWithError() throws {
        try Vips.start()
        try LibRaw.start()
    }

    /// A DNG with a JPEG preview in a SubIFD (as Adobe's converter and phones write it), turned 90°
    /// clockwise by its Orientation 6.
    func testPreviewOfADNGIsItsJPEGTurnedUpright() throws {
        let folder = try TemporaryFolder("raw-preview")
        let path = folder.path("with-preview.dng")
        var dng = Quadrants.dng(orientation: 6)
        let jpeg = try Quadrants.jpeg(width: 48, height: 32)
        dng.previewJPEG = jpeg
        dng.previewSize = (48, 32)
        try dng.data().write(to: path)

        let raw = try RawFile.open(path.path)
        XCTAssertTrue(raw.info.hasPreview)
        let preview = try raw.preview()
        XCTAssertEqual(preview.encoding, .jpeg)
        XCTAssertEqual([preview.width, preview.height, preview.orientation], [48, 32, 6])
        // LibRaw hands the JPEG back with a minimal EXIF segment added; the pictures are the same.
        XCTAssertEqual(preview.data.prefix(2), Data([0xFF, 0xD8]))
        let image = try preview.image()
        XCTAssertEqual(image.orientation, 6)
        let upright = try image.autorotated()
        XCTAssertEqual([upright.width, upright.height], [32, 48])
        // Turned 90° clockwise: the bottom-left (blue) quadrant is now top-left.
        try Quadrants.assertUpright(upright, corners: [.blue, .red, .grey, .green])
        // The development of the same file agrees with its preview.
        try Quadrants.assertUpright(try raw.develop().image(), corners: [.blue, .red, .grey, .green])

        let shrunk = try preview.image(shrink: 2)
        XCTAssertEqual([shrunk.width, shrunk.height], [24, 16])
    }

    func testFilesWithoutAPreviewSaySo() throws {
        let chart = try Corpus.file("raw/colorchart.dng").path
        XCTAssertFalse(try RawFile.open(chart).info.hasPreview)
        XCTAssertThrowsError(try RawFile.open(chart).preview()) { error in
            XCTAssertEqual("\(error)", "\(chart): the RAW file has no embedded preview")
        }
    }

    /// The exiftool test NEF names a preview that was cut out; a "JPEG" preview that is not JPEG data is
    /// refused too (LibRaw calls it an unsupported format).
    func testDamagedPreviewsFailWithAReason() throws {
        let nef = try Corpus.file("raw/exiftool-Nikon.nef").path
        XCTAssertThrowsError(try RawFile.open(nef).preview()) { error in
            guard case .previewCorrupt = (error as? RawError)?.reason else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".hasPrefix("\(nef): the embedded preview is damaged"), "\(error)")
        }
        let folder = try TemporaryFolder("raw-preview-bad")
        let path = folder.path("not-a-jpeg.dng")
        var dng = Quadrants.dng(orientation: 1)
        dng.previewJPEG = Data(repeating: 0x55, count: 4000)
        dng.previewSize = (48, 32)
        try dng.data().write(to: path)
        XCTAssertThrowsError(try RawFile.open(path.path).preview()) { error in
            guard case .previewUnsupported = (error as? RawError)?.reason else { return XCTFail("\(error)") }
        }
    }

    /// The RAF's 160x120 preview survives exiftool's cutting: a real camera's embedded JPEG.
    func testFujifilmPreviewOfTheCorpusIsReadable() throws {
        let raw = try RawFile.open(try Corpus.file("raw/exiftool-FujiFilm.raf").path)
        let preview = try raw.preview()
        XCTAssertEqual([preview.width, preview.height], [160, 120])
        let image = try preview.image().autorotated()
        XCTAssertEqual([image.width, image.height], [160, 120])
        XCTAssertGreaterThan(try image.average(), 5)
    }
}
