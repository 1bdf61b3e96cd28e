import DarkroomExif
import DarkroomTestSupport
import DarkroomVips
import DarkroomXMP
import Foundation
import XCTest

/// JPEGs for sharing (`Image.forSharing` + `writeSharedJPEG` with the EXIF and XMP cleaned):
/// exiftool finds no place in them, the date and camera are kept, they are upright and sRGB.
final class SharedJPEGTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    /// Corpus photos that say where they were taken, in EXIF GPS, XMP, IPTC or a maker note.
    static let photosWithLocation = [
        "exif-samples/jpg/gps/DSCN0029.jpg",  // Nikon: GPS IFD and a maker note
        "metadata-extractor-images/jpg/Nokia Lumia 800.jpg",  // GPS in EXIF and XMP
        "immich-test-assets/metadata/gps-position/thompson-springs.jpg",  // IPTC and XMP city, state, country
        "exiftool-t-images/t/images/IPTC.jpg",  // IPTC city
        "exif-samples/heic/IMG_5195.HEIC",  // iPhone HEIC, Display P3, GPS, Apple maker note
        "exif-samples/heic/mobile/iphone_13_pro_max.HEIC",  // irot 270 and EXIF Orientation 6
    ]

    /// Exports `source` as a sharing JPEG of at most `longEdge` pixels, the way `darkroom export` does.
    static func export(_ source: URL, to output: URL, longEdge: Int = 2048) throws {
        let image = try Image.forSharing(source.path, longEdge: longEdge)
        let exif = try image.exifData.map { try ExifBlob.forSharing($0) }
        let xmp = image.xmpData.map { XMPPacket(lenient: [UInt8]($0)).removingLocation().serialized() }
        try image.writeSharedJPEG(to: output.path, quality: 85, exif: exif, xmp: xmp)
    }

    func testSharedJPEGsCarryNoLocationAndKeepDateAndCamera() throws {
        let folder = try TemporaryFolder("shared-jpeg")
        for path in Self.photosWithLocation {
            let source = try Corpus.file(path)
            let output = folder.path("shared.jpg")
            try Self.export(source, to: output, longEdge: 1024)

            let before = try Self.tags(source, ["-a", "-G1", "-n"])
            let found = try Self.tags(output, ["-a", "-G1", "-n", "-gps:all", "-xmp:all", "-iptc:all", "-makernotes:all"])
            let leaks = found.filter { key, _ in
                key.hasPrefix("GPS:") || key.hasPrefix("IPTC:") || key.contains("MakerNote") || key.hasPrefix("Apple:") || key.hasPrefix("Nikon:")
                    || key.range(of: "GPS|City|State:|Country|Location|Sublocation|Latitude|Longitude", options: .regularExpression) != nil
            }
            XCTAssertEqual(leaks.keys.sorted(), [], "\(path) still says where it was taken")
            let all = try Self.tags(output, ["-a", "-G1", "-n"])
            XCTAssertNil(all["Composite:GPSPosition"], path)
            XCTAssertEqual(all.keys.filter { $0.hasPrefix("IPTC") || $0.hasPrefix("Photoshop:") }, [], path)
            for tag in ["ExifIFD:DateTimeOriginal", "ExifIFD:OffsetTimeOriginal", "IFD0:Make", "IFD0:Model", "ExifIFD:ExposureTime",
                        "ExifIFD:FNumber"] where before[tag] != nil {
                XCTAssertEqual(all[tag], before[tag], "\(path): \(tag)")
            }
            XCTAssertEqual(all["IFD0:Orientation"] ?? "1", "1", path)
            XCTAssertNil(all["IFD1:ThumbnailImage"], path)
        }
    }

    /// The iPhone photo stored sideways (irot 270, EXIF Orientation 6) comes out portrait, long
    /// edge 2048, Orientation 1: turned once, and marked so no viewer turns it again.
    func testSharedJPEGIsUprightAndFitsTheSize() throws {
        let folder = try TemporaryFolder("shared-upright")
        let output = folder.path("upright.jpg")
        try Self.export(try Corpus.file("exif-samples/heic/mobile/iphone_13_pro_max.HEIC"), to: output)
        let image = try Image.open(output.path)
        XCTAssertEqual([image.width, image.height], [1536, 2048])
        XCTAssertEqual(image.orientation, 1)
        XCTAssertEqual(try ExifTags(parsing: try XCTUnwrap(image.exifData)).orientation, 1)
    }

    /// A Display P3 iPhone photo is converted to sRGB, not re-tagged: its colours match libvips'
    /// own `icc_transform` of the same decode (mean absolute difference under 2 of 255, at the
    /// export's size), where the unconverted P3 values differ by more than 3.
    func testDisplayP3IsConvertedToSRGB() throws {
        try Prerequisite.require(tool: "vips")
        let folder = try TemporaryFolder("shared-p3")
        let source = try Corpus.file("metadata-extractor-images/heic/IMG_2927.HEIC")
        XCTAssertEqual(try Fixtures.run("exiftool", ["-s3", "-ICC_Profile:ProfileDescription", source.path]), "Display P3\n")
        let output = folder.path("p3.jpg")
        try Self.export(source, to: output)
        XCTAssertEqual(try Fixtures.run("exiftool", ["-s3", "-ICC_Profile:ProfileDescription", output.path]), "sRGB\n")

        let converted = folder.path("converted.png"), unconverted = folder.path("unconverted.png")
        try Fixtures.run("vips", ["icc_transform", source.path, converted.path, "srgb"])
        try Fixtures.run("vips", ["copy", source.path, unconverted.path])
        let shared = try Image.open(output.path)
        func atExportSize(_ url: URL) throws -> Image {
            try Image.thumbnail(url.path, width: shared.width, height: shared.height)
        }
        let difference = try Self.meanAbsoluteDifference(shared, try atExportSize(converted))
        let retagged = try Self.meanAbsoluteDifference(try atExportSize(unconverted), try atExportSize(converted))
        XCTAssertLessThan(difference, 2, "the shared JPEG against vips icc_transform")
        XCTAssertGreaterThan(retagged, 3, "P3 values left unconverted would differ this much")
    }

    /// Mean of |a - b| over every band of every pixel (8-bit images of one size).
    static func meanAbsoluteDifference(_ a: Image, _ b: Image) throws -> Double {
        XCTAssertEqual([a.width, a.height], [b.width, b.height])
        let left = try a.eightBitRGB().pixelBytes(), right = try b.eightBitRGB().pixelBytes()
        XCTAssertEqual(left.count, right.count)
        var total = 0
        for index in 0..<min(left.count, right.count) { total += abs(Int(left[index]) - Int(right[index])) }
        return Double(total) / Double(max(1, left.count))
    }

    /// exiftool's tags (`-j` with `arguments`) as "Group:Tag" to value.
    static func tags(_ url: URL, _ arguments: [String]) throws -> [String: String] {
        let json = try Fixtures.run("exiftool", ["-j"] + arguments + [url.path])
        let objects = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        return (objects.first ?? [:]).filter { $0.key != "SourceFile" }.reduce(into: [:]) { $0[$1.key] = "\($1.value)" }
    }
}
