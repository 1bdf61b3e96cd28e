import DarkroomTestSupport
import DarkroomVips
import XCTest

/// The sharpness of a burst's shots is measured on the thumbnail in grey at its own size: taken
/// straight from its pixels, it is the grey copy libvips' resample gave at that size (which the
/// import used before), byte for byte, so catalogued sharpness and burst picks do not move.
final class GreyCopyTests: XCTestCase {
    func testTheOwnSizeGreyCopyIsTheResampledOneByteForByte() throws {
        try Vips.start()
        // JPEG, PNG, WebP, HEIC; EXIF orientation 6; Adobe RGB and grey ICC profiles; a graphic.
        for name in CorpusCopiesTests.photos {
            let thumbnail = try Image.thumbnail(try Corpus.file(name).path, width: 200, height: 200, exportProfile: "srgb").materialized()
            let own = try thumbnail.greyPixels()
            XCTAssertEqual(own.count, thumbnail.width * thumbnail.height, name)
            XCTAssertEqual(own, try thumbnail.greyPixels(width: thumbnail.width, height: thumbnail.height), name)
        }
    }

    func testATransparentPhotoIsFlattenedOntoWhite() throws {
        try Vips.start()
        let clear = try Image.solid(width: 4, height: 3, colour: Colour(red: 0, green: 0, blue: 0, alpha: 0))
        XCTAssertEqual(try clear.greyPixels(), [UInt8](repeating: 255, count: 12))
    }
}
