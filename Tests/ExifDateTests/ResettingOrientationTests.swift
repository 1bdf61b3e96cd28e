import DarkroomExif
import DarkroomTestSupport
import Foundation
import XCTest

/// `ExifBlob.resettingOrientation` changes the Orientation value and nothing else.
final class ResettingOrientationTests: XCTestCase {
    /// Real camera blobs with maker notes: Canon (II, orientation 6) and a Motorola-order file (MM, 6).
    func testRealBlobsInBothByteOrdersChangeOnlyTheOrientationValue() throws {
        for (path, order) in [("exif-samples/jpg/hdr/canon_hdr_NO.jpg", "II"),
                              ("exif-orientation-examples/Landscape_6.jpg", "MM")] {
            let blob = try jpegExifBlob(try Corpus.file(path))
            XCTAssertEqual(String(decoding: blob[blob.startIndex + 6..<blob.startIndex + 8], as: UTF8.self), order)
            let before = try ExifTags(parsing: blob)
            XCTAssertEqual(before.orientation, 6, path)

            let reset = ExifBlob.resettingOrientation(blob)
            XCTAssertEqual(reset.count, blob.count, path)
            let changed = zip(blob, reset).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            XCTAssertEqual(changed.count, 1, "only the low byte of the SHORT changes 6 -> 1 (\(path))")

            var after = try ExifTags(parsing: reset)
            XCTAssertEqual(after.orientation, 1, path)
            after.orientation = before.orientation
            XCTAssertEqual(after, before, "every other tag survives (\(path))")
        }
    }

    func testSyntheticBlobsInBothByteOrdersAndWithoutPrefix() throws {
        for bigEndian in [false, true] {
            for prefix in [true, false] {
                let builder = TIFFBuilder(bigEndian: bigEndian, ifd0: [(0x010F, .ascii("Make")), (0x0112, .short(8))],
                                          exif: [(0x9003, .ascii("2024:01:31 12:34:56"))])
                let reset = ExifBlob.resettingOrientation(builder.build(exifPrefix: prefix))
                let tags = try ExifTags(parsing: reset)
                XCTAssertEqual(tags.orientation, 1)
                XCTAssertEqual(tags.make, "Make")
                XCTAssertEqual(tags.dateTimeOriginal, "2024:01:31 12:34:56")
            }
        }
    }

    func testBlobWithoutOrientationOrNotEXIFIsReturnedUnchanged() {
        let noOrientation = TIFFBuilder(bigEndian: false, ifd0: [(0x010F, .ascii("Make"))]).build()
        XCTAssertEqual(ExifBlob.resettingOrientation(noOrientation), noOrientation)
        let junk = Data("not exif at all".utf8)
        XCTAssertEqual(ExifBlob.resettingOrientation(junk), junk)
        XCTAssertEqual(ExifBlob.resettingOrientation(Data()), Data())
    }

    func testIFDOffsetPointingOutsideTheBlobIsReturnedUnchanged() {
        var bytes = [UInt8](TIFFBuilder(bigEndian: true, ifd0: [(0x0112, .short(6))]).build())
        bytes[10...13] = [0xFF, 0xFF, 0xFF, 0xF0]  // IFD0 offset far past the end
        XCTAssertEqual(ExifBlob.resettingOrientation(Data(bytes)), Data(bytes))
    }

    func testDataSlicesWithNonZeroStartIndexAreHandled() throws {
        let blob = Data([9, 9, 9]) + TIFFBuilder(bigEndian: false, ifd0: [(0x0112, .short(3))]).build()
        let slice = blob[3...]
        XCTAssertEqual(try ExifTags(parsing: ExifBlob.resettingOrientation(slice)).orientation, 1)
    }
}
