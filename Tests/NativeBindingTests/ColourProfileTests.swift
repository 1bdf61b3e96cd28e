import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// Which embedded profiles are taken as sRGB already (no conversion, which costs as much as a real
/// one) and which are converted, and that leaving sRGB alone changes no pixel a user would see.
final class ColourProfileTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    /// Corpus photos by the profile they carry, and whether that profile is sRGB.
    static let tagged: [(path: String, profile: String, isSRGB: Bool)] = [
        ("exif-samples/jpg/Canon_40D.jpg", "sRGB IEC61966-2.1", true),
        ("immich-test-assets/albums/nature/orychophragmus_violaceus.jpg", "c2 (compact sRGB)", true),
        ("libheif/tests/data/rainbow-451x461.heic", "GIMP built-in sRGB", true),
        ("exif-samples/heic/IMG_5195.HEIC", "Display P3", false),
        ("elodie/elodie/tests/files/Plain With Spaces And Uppercase 123.jpg", "Adobe RGB (1998)", false),
        ("sharp-fixtures/test/fixtures/prophoto.png", "ProPhoto RGB", false),
        ("exif-samples/jpg/orientation/landscape_2.jpg", "Generic RGB Profile", false),
        ("sharp-fixtures/test/fixtures/concert.jpg", "Gray Gamma 2.2", false),
        ("metadata-extractor-images/jpg/Multiple ICC segments.jpg", "U.S. Web Coated (SWOP) v2", false),
    ]

    func testSRGBIsRecognisedUnderItsManyNamesAndNothingElseIs() throws {
        for photo in Self.tagged {
            let profile = try XCTUnwrap(try Image.open(Corpus.file(photo.path).path).iccProfile, photo.path)
            XCTAssertEqual(ColourProfile(profile).isSRGB, photo.isSRGB, "\(photo.path): \(photo.profile)")
        }
        let converted = try Image.open(Corpus.file("exif-samples/heic/IMG_5195.HEIC").path).converted(toProfile: "srgb")
        XCTAssertTrue(ColourProfile(try XCTUnwrap(converted.iccProfile)).isSRGB, "libvips' own sRGB profile")
        XCTAssertFalse(ColourProfile(Data(repeating: 0, count: 200)).isSRGB, "bytes that are no profile")
        XCTAssertFalse(ColourProfile(Data()).isSRGB)
    }

    /// A photo made for sharing has the pixels libvips' own conversion to sRGB gives, whether its
    /// profile was converted (P3, Adobe RGB, ProPhoto, grey, CMYK) or left alone (sRGB).
    func testSharingGivesTheSamePixelsAsConvertingEverything() throws {
        for photo in Self.tagged {
            let path = try Corpus.file(photo.path).path
            let shared = try Image.forSharing(path, longEdge: 256)
            let reference = try Image.thumbnail(path, width: 256, height: 256, exportProfile: "srgb").flattened().eightBitRGB()
            XCTAssertEqual([shared.width, shared.height, shared.bands], [reference.width, reference.height, 3], photo.path)
            let left = try shared.pixelBytes(), right = try reference.pixelBytes()
            let difference = zip(left, right).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            XCTAssertLessThan(Double(difference) / Double(max(1, left.count)), 1.0, "\(photo.path) (\(photo.profile))")
            let profile = try XCTUnwrap(shared.iccProfile, photo.path)
            XCTAssertTrue(ColourProfile(profile).isSRGB, "\(photo.path) is tagged sRGB after")
        }
    }
}
