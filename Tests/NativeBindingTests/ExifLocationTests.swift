import DarkroomExif
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// `ExifBlob.removingLocation` and `forSharing` on real camera and phone files with GPS, checked
/// by exiftool: no GPS and no maker note left, the date, camera, lens and exposure kept.
final class ExifLocationTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    /// Corpus files with a GPS position: Nikon, Apple, Fujifilm and Samsung JPEGs, an iPhone HEIC.
    static let filesWithGPS = [
        "exif-samples/jpg/gps/DSCN0029.jpg", "metadata-extractor-images/jpg/Apple iPhone 5.jpg",
        "exiftool-t-images/t/images/GPS.jpg", "exif-samples/jpg/tests/67-0_length_string.jpg",
        "exif-samples/heic/IMG_5195.HEIC",
    ]
    /// Tags that must survive, where the original has them.
    static let keptTags = [
        "ExifIFD:DateTimeOriginal", "ExifIFD:OffsetTimeOriginal", "ExifIFD:SubSecTimeOriginal", "IFD0:Make", "IFD0:Model",
        "ExifIFD:LensModel", "ExifIFD:LensMake", "ExifIFD:ExposureTime", "ExifIFD:FNumber", "ExifIFD:ISO",
        "ExifIFD:FocalLength", "ExifIFD:ExposureProgram", "ExifIFD:Flash",
    ]

    func testRemovingLocationDropsGPSAndMakerNoteAndKeepsDateCameraAndExposure() throws {
        let folder = try TemporaryFolder("exif-location")
        for path in Self.filesWithGPS {
            let original = try Corpus.file(path)
            let blob = try XCTUnwrap(try Image.open(original.path).exifData, path)
            XCTAssertNotNil(try ExifTags(parsing: blob).gpsPosition, "\(path) has a position to remove")
            let cleaned = try ExifBlob.removingLocation(blob)

            let tags = try ExifTags(parsing: cleaned)
            XCTAssertNil(tags.gpsPosition, path)
            XCTAssertNil(tags.gpsDateStamp, path)
            let before = try Self.exiftool(original)
            let after = try Self.exiftool(try Self.exifFile(cleaned, in: folder, name: "\(path.hashValue)"))
            XCTAssertEqual(after.keys.filter { $0.hasPrefix("GPS:") || $0.contains("MakerNote") }, [], path)
            let makerNotes = try Fixtures.run("exiftool", ["-a", "-G1", "-makernotes:all", "-gps:all", try Self.exifFile(cleaned, in: folder, name: "m").path])
            XCTAssertEqual(makerNotes, "", "\(path): exiftool still finds maker notes or GPS")
            XCTAssertTrue(before.keys.contains { $0.hasPrefix("GPS:") }, path)
            for tag in Self.keptTags where before[tag] != nil {
                XCTAssertEqual(after[tag], before[tag], "\(path): \(tag)")
            }
            XCTAssertNotNil(after["IFD0:Model"], path)
        }
    }

    /// For sharing: no thumbnail, Orientation 1, no location; with `keepLocation` the GPS stays.
    func testForSharingDropsTheThumbnailAndSetsOrientation() throws {
        let folder = try TemporaryFolder("exif-sharing")
        let source = folder.path("rotated.jpg")
        try FileManager.default.copyItem(at: try Corpus.file("exif-samples/jpg/gps/DSCN0029.jpg"), to: source)
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-Orientation#=6", source.path])
        let blob = try XCTUnwrap(try Image.open(source.path).exifData)
        XCTAssertNotEqual(try Fixtures.run("exiftool", ["-ThumbnailImage", source.path]), "", "the original has a thumbnail")

        let shared = try ExifBlob.forSharing(blob)
        let file = try Self.exifFile(shared, in: folder, name: "shared")
        XCTAssertEqual(try ExifTags(parsing: shared).orientation, 1)
        XCTAssertEqual(try Fixtures.run("exiftool", ["-ThumbnailImage", "-gps:all", "-makernotes:all", file.path]), "")
        XCTAssertEqual(try ExifTags(parsing: shared).dateTimeOriginal, "2008:10:22 16:46:53")

        let kept = try ExifBlob.forSharing(blob, keepLocation: true)
        XCTAssertEqual(try ExifTags(parsing: kept).gpsPosition, try ExifTags(parsing: blob).gpsPosition)
        XCTAssertEqual(try ExifTags(parsing: kept).orientation, 1)
    }

    func testUnreadableBlobsThrow() {
        XCTAssertThrowsError(try ExifBlob.removingLocation(Data("not exif at all".utf8))) { error in
            XCTAssertEqual(error as? ExifError, .noTIFFHeader(byteCount: 15))
        }
    }

    /// `blob` as an EXIF file exiftool reads (bare TIFF).
    static func exifFile(_ blob: Data, in folder: TemporaryFolder, name: String) throws -> URL {
        let url = folder.path("\(name).exif")
        let tiff = blob.starts(with: Data("Exif\0\0".utf8)) ? blob.dropFirst(6) : blob
        try Data(tiff).write(to: url)
        return url
    }

    /// exiftool's tags of a file as "Group:Tag" to a printed value (`-n`, every group 1).
    static func exiftool(_ url: URL) throws -> [String: String] {
        let json = try Fixtures.run("exiftool", ["-j", "-a", "-G1", "-n", "-exif:all", url.path])
        let objects = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        return (objects.first ?? [:]).reduce(into: [:]) { tags, pair in tags[pair.key] = "\(pair.value)" }
    }
}
