import DarkroomExif
import DarkroomTestSupport
import Foundation
import XCTest

/// Reading EXIF blobs into `ExifTags`, in both byte orders and wrappings, and surviving bad input.
final class ExifTagsTests: XCTestCase {
    private func sample(bigEndian: Bool) -> TIFFBuilder {
        TIFFBuilder(
            bigEndian: bigEndian,
            ifd0: [(0x010F, .ascii("Canon")), (0x0110, .ascii("Canon EOS 5D  ")), (0x0112, .short(6)),
                   (0x0132, .ascii("2024:02:01 08:00:00"))],
            exif: [(0x9003, .ascii("2024:01:31 12:34:56")), (0x9291, .ascii("120")), (0x9011, .ascii("+05:30")),
                   (0x9004, .ascii("2024:01:31 12:34:57")), (0x9292, .ascii("5")), (0x9012, .ascii("-08:00"))],
            gps: [(0x001D, .ascii("2024:01:31")), (0x0007, .rationals([(7, 1), (4, 1), (5650, 100)]))])
    }

    func testReadsEveryTagInBothByteOrders() throws {
        for bigEndian in [false, true] {
            let tags = try ExifTags(parsing: sample(bigEndian: bigEndian).build())
            let order = bigEndian ? "MM" : "II"
            XCTAssertEqual(tags.make, "Canon", order)
            XCTAssertEqual(tags.model, "Canon EOS 5D", "trailing spaces are trimmed (\(order))")
            XCTAssertEqual(tags.orientation, 6, order)
            XCTAssertEqual(tags.dateTime, "2024:02:01 08:00:00", order)
            XCTAssertEqual(tags.dateTimeOriginal, "2024:01:31 12:34:56", order)
            XCTAssertEqual(tags.subSecTimeOriginal, "120", order)
            XCTAssertEqual(tags.offsetTimeOriginal, "+05:30", order)
            XCTAssertEqual(tags.dateTimeDigitized, "2024:01:31 12:34:57", order)
            XCTAssertEqual(tags.subSecTimeDigitized, "5", order)
            XCTAssertEqual(tags.offsetTimeDigitized, "-08:00", order)
            XCTAssertEqual(tags.gpsDateStamp, "2024:01:31", order)
            XCTAssertEqual(tags.gpsTimeStamp, ExifTags.GPSTime(hour: 7, minute: 4, second: 56.5), order)
            XCTAssertEqual(tags.camera, "Canon EOS 5D", order)
        }
    }

    func testAcceptsBareTIFFAndHEICOffsetPrefix() throws {
        let bare = sample(bigEndian: false).build(exifPrefix: false)
        XCTAssertEqual(try ExifTags(parsing: bare).make, "Canon")
        let heicStyle = Data([0, 0, 0, 6]) + sample(bigEndian: true).build()
        XCTAssertEqual(try ExifTags(parsing: heicStyle).dateTimeOriginal, "2024:01:31 12:34:56")
    }

    func testASCIIValuesStopAtTheFirstNUL() throws {
        let blob = TIFFBuilder(bigEndian: false, exif: [(0x9003, .ascii("2024:01:31 12:34:56\0garbage"))]).build()
        XCTAssertEqual(try ExifTags(parsing: blob).dateTimeOriginal, "2024:01:31 12:34:56")
    }

    func testBlankStringsAndZeroDenominatorsReadAsAbsent() throws {
        let blob = TIFFBuilder(bigEndian: true, ifd0: [(0x010F, .ascii("   "))],
                               gps: [(0x001D, .ascii("2024:01:31")), (0x0007, .rationals([(7, 1), (4, 0), (0, 1)]))]).build()
        let tags = try ExifTags(parsing: blob)
        XCTAssertNil(tags.make)
        XCTAssertNil(tags.gpsTimeStamp)
    }

    func testNonEXIFInputThrowsAClearError() {
        XCTAssertThrowsError(try ExifTags(parsing: Data("hello, world".utf8))) { error in
            XCTAssertEqual(error as? ExifError, .noTIFFHeader(byteCount: 12))
            XCTAssertTrue("\(error)".contains("no TIFF header"), "\(error)")
        }
        XCTAssertThrowsError(try ExifTags(parsing: Data()))
    }

    func testTruncatedAndCorruptedBlobsNeverCrash() throws {
        let blob = [UInt8](sample(bigEndian: false).build())
        for length in 0...blob.count {
            _ = try? ExifTags(parsing: Data(blob.prefix(length)))
            _ = ExifBlob.resettingOrientation(Data(blob.prefix(length)))
        }
        // Seeded, so a failure can be replayed; every outcome is either tags or an ExifError, and
        // resetting the orientation never changes a blob's length.
        var generator = SeededGenerator(seed: 0x5EED_E81F)
        var parsed = 0, refused = 0
        for _ in 0..<500 {
            var mutated = blob
            for _ in 0..<4 { mutated[Int.random(in: 6..<mutated.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            do {
                _ = try ExifTags(parsing: Data(mutated))
                parsed += 1
            } catch {
                XCTAssertTrue(error is ExifError, "a corrupt blob fails with an ExifError, not \(type(of: error)): \(error)")
                refused += 1
            }
            XCTAssertEqual(ExifBlob.resettingOrientation(Data(mutated)).count, mutated.count)
        }
        XCTAssertEqual(parsed + refused, 500)
        XCTAssertGreaterThan(parsed, 0, "most mutations leave a readable blob")
    }

    func testCameraNameDoesNotRepeatTheMaker() {
        XCTAssertEqual(ExifTags(make: "Canon", model: "Canon EOS REBEL T2i").camera, "Canon EOS REBEL T2i")
        XCTAssertEqual(ExifTags(make: "NIKON CORPORATION", model: "NIKON D750").camera, "NIKON D750")
        XCTAssertEqual(ExifTags(make: "Apple", model: "iPhone 13 Pro Max").camera, "Apple iPhone 13 Pro Max")
        XCTAssertEqual(ExifTags(make: "SONY", model: nil).camera, "SONY")
        XCTAssertNil(ExifTags().camera)
    }

    /// Every EXIF block in the corpus, including libexif's own fuzz files, is read without crashing.
    func testEveryCorpusJPEGParsesOrFailsCleanly() throws {
        let root = try Corpus.requireRoot()
        var parsed = 0
        for entry in try Corpus.manifest() where ["JPEG"].contains(entry.fileType) || entry.path.lowercased().hasSuffix(".jpg") {
            guard let blob = try? jpegExifBlob(root.appendingPathComponent(entry.path)) else { continue }
            if (try? ExifTags(parsing: blob)) != nil { parsed += 1 }
            _ = ExifBlob.resettingOrientation(blob)
        }
        XCTAssertGreaterThan(parsed, 100)
    }
}
