import DarkroomHEIF
import DarkroomISOBMFF
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// The one ISO-BMFF reader reads HEIF items as libheif and exiftool do, and the patcher replaces
/// or adds the Exif and XMP items without touching the images: libheif decodes the same pixels,
/// the thumbnail item stays, exiftool reads the new metadata.
final class HEIFPatchTests: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        try NativeLibraries.start()
        folder = try TemporaryFolder("heif-patch")
    }

    /// A HEIC as heic-encode writes it (an Exif item, a thumbnail item), 64x48.
    func encoded(xmp: Data? = nil, exif: Bool = true) throws -> URL {
        let url = folder.path("encoded-\(UUID().uuidString.prefix(6)).heic")
        var pixels: [UInt8] = []
        for index in 0..<64 * 48 { pixels += [UInt8(index % 64 * 4), UInt8(index / 64 * 5), 90] }
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x0F, 0, 2, 0, 0, 0, 4, 0x41, 0x63, 0x6D, 0, 0, 0, 0, 0]  // Make "Acm"
        try HEIFEncoder.encode(RGBPixels(bytes: Data(pixels), width: 64, height: 48, hasAlpha: false), iccProfile: nil,
                               exif: exif ? Data(Array("Exif\0\0".utf8) + tiff) : nil,
                               settings: HEIFEncodeSettings(quality: 50, preset: "ultrafast"), to: url.path, xmp: xmp,
                               thumbnail: RGBPixels(bytes: Data(pixels.prefix(32 * 24 * 3)), width: 32, height: 24, hasAlpha: false))
        return url
    }

    static let packet = Data("""
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="4"/></rdf:RDF></x:xmpmeta>
        """.utf8)

    func exifItem(make: String) -> [UInt8] {
        let value = Array(make.utf8) + [0]
        return [0, 0, 0, 6] + Array("Exif\0\0".utf8) + [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x0F, 0, 2, 0, 0, 0, UInt8(value.count)]
            + [0, 0, 0, 26] + [0, 0, 0, 0] + value
    }

    func exiftool(_ url: URL, _ tags: [String]) throws -> String {
        try Fixtures.run("exiftool", ["-s", "-s", "-s", "-warning"] + tags + [url.path])
    }

    func testItemsAreReadAsExiftoolReadsThem() throws {
        let samsung = try Corpus.file("immich-test-assets/formats/motionphoto/samsung-one-ui-6.heic")
        let file = try ByteFile(path: samsung.path)
        let boxes = try ISOBox.topLevel(of: file)
        XCTAssertEqual(boxes.map(\.type.description), ["ftyp", "mdat", "meta", "free", "mpvd", "sefd"])
        let meta = try XCTUnwrap(try HEIFMeta.read(from: file, boxes: boxes))
        XCTAssertEqual(meta.primaryItem, 49)
        XCTAssertEqual(meta.items.count, 52)
        XCTAssertEqual(meta.items.first { $0.id == 49 }?.type, "grid")
        XCTAssertEqual(meta.location(of: 49)?.constructionMethod, 1, "the grid's description is in idat")
        XCTAssertEqual(meta.references.first { $0.type == "dimg" }?.to.count, 48)
        let exif = try meta.data(of: try XCTUnwrap(meta.exifItem).id, in: file, limit: 1 << 20)
        let reference = folder.path("exif.bin")
        try Fixtures.run("sh", ["-c", "exiftool -b -Exif \"$1\" > \"$2\"", "sh", samsung.path, reference.path])
        XCTAssertEqual(Data(exif.drop(while: { $0 != 0x4D && $0 != 0x49 })), try Data(contentsOf: reference), "the TIFF exiftool reads")
    }

    func testThePatchReplacesTheMetadataAndKeepsTheImages() throws {
        let original = try encoded()
        let bytes = [UInt8](try Data(contentsOf: original))
        let patched = try HEIFMetadataPatch.apply(to: bytes, exif: exifItem(make: "Darkroom Test"), xmp: [UInt8](Self.packet))
        let url = folder.path("patched.heic")
        try Data(patched).write(to: url)

        XCTAssertEqual(try exiftool(url, ["-Make", "-XMP:Rating"]), "Darkroom Test\n4\n")
        XCTAssertEqual(try Image.open(url.path).pixelBytes(), try Image.open(original.path).pixelBytes(), "libheif decodes the same pixels")
        XCTAssertEqual(try HEIFThumbnailInfo.read(url.path), try HEIFThumbnailInfo.read(original.path), "the thumbnail item is kept")
        XCTAssertEqual(try HEIFInfo.read(url.path).width, 64)
        XCTAssertTrue(try Fixtures.run("exiftool", ["-validate", "-warning", "-a", url.path]).contains("Validate                        : OK"))
        XCTAssertEqual(try HEIFMetadataPatch.apply(to: patched, exif: exifItem(make: "Darkroom Test"), xmp: [UInt8](Self.packet)), patched,
                       "the same patch again gives the same bytes")

        // Patched again with other values: the earlier patch's mdat is replaced, not kept beside.
        let again = try HEIFMetadataPatch.apply(to: patched, exif: exifItem(make: "Other"), xmp: nil)
        let againURL = folder.path("again.heic")
        try Data(again).write(to: againURL)
        XCTAssertEqual(try exiftool(againURL, ["-Make", "-XMP:Rating"]), "Other\n4\n")
        XCTAssertEqual(try Image.open(againURL.path).pixelBytes(), try Image.open(original.path).pixelBytes())
    }

    func testItemsTheFileLacksAreAddedAndReferToThePrimaryImage() throws {
        let bare = [UInt8](try Data(contentsOf: try encoded(exif: false)))
        XCTAssertNil(try HEIFMeta.read(from: bare, boxes: try ISOBox.topLevel(of: bare))?.exifItem)
        let patched = try HEIFMetadataPatch.apply(to: bare, exif: exifItem(make: "Added"), xmp: [UInt8](Self.packet))
        let meta = try XCTUnwrap(try HEIFMeta.read(from: patched, boxes: try ISOBox.topLevel(of: patched)))
        let added = try [XCTUnwrap(meta.exifItem), XCTUnwrap(meta.xmpItem)]
        let primary = try XCTUnwrap(meta.primaryItem)
        for item in added {
            XCTAssertTrue(meta.references.contains { $0.type == "cdsc" && $0.from == item.id && $0.to == [primary] })
        }
        let url = folder.path("added.heic")
        try Data(patched).write(to: url)
        XCTAssertEqual(try exiftool(url, ["-Make", "-XMP:Rating"]), "Added\n4\n")
        XCTAssertTrue(try HEIFInfo.read(url.path).hasExif, "libheif finds the new Exif item")
        XCTAssertEqual(try Image.open(url.path).pixelBytes(), try Image.open(try encoded(exif: false).path).pixelBytes())
    }

    /// An iPhone HEIC (a grid of 48 tiles, its meta box after the image data) is patched too.
    func testAPhonesGridHEICIsPatchedAndDecodesTheSame() throws {
        let phone = try Corpus.file("exif-samples/heic/IMG_5195.HEIC")
        let patched = try HEIFMetadataPatch.apply(to: [UInt8](try Data(contentsOf: phone)), exif: nil, xmp: [UInt8](Self.packet))
        let url = folder.path("phone.heic")
        try Data(patched).write(to: url)
        XCTAssertEqual(try exiftool(url, ["-XMP:Rating", "-MediaGroupUUID"]), "4\n570F1469-09C7-4E50-9875-05F21D5BD166\n")
        XCTAssertEqual(try Image.open(url.path).pixelBytes(), try Image.open(phone.path).pixelBytes())
    }

    func testFilesWithAbsoluteOffsetsOutsideItemsAreRefused() throws {
        let samsung = [UInt8](try Data(contentsOf: try Corpus.file("immich-test-assets/formats/motionphoto/samsung-one-ui-6.heic")))
        XCTAssertThrowsError(try HEIFMetadataPatch.apply(to: samsung, exif: nil, xmp: [UInt8](Self.packet))) { error in
            XCTAssertEqual("\(error)", "a top-level 'sefd' box: only still-image HEIF files are rewritten")
        }
        XCTAssertThrowsError(try HEIFMetadataPatch.apply(to: Array("not a heif".utf8), exif: nil, xmp: nil)) { error in
            XCTAssertEqual("\(error)", "not a HEIF file whose boxes run to its end")
        }
    }

    /// Random bytes over the meta box: reading and patching throw or succeed, never crash, and
    /// what a patch makes of a damaged file reads back.
    func testDamagedMetaBoxesNeverCrash() throws {
        let bytes = [UInt8](try Data(contentsOf: try encoded(xmp: Self.packet)))
        let boxes = try ISOBox.topLevel(of: bytes)
        let meta = try XCTUnwrap(boxes.first { $0.type == "meta" })
        var generator = SeededGenerator(seed: 26)
        var patched = 0
        for _ in 0..<2000 {
            var damaged = bytes
            for _ in 0..<3 { damaged[Int.random(in: Int(meta.offset)..<Int(meta.end), using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            _ = try? HEIFMeta.xmpPacket(of: damaged, boxes: try ISOBox.topLevel(of: damaged))
            guard let result = try? HEIFMetadataPatch.apply(to: damaged, exif: exifItem(make: "X"), xmp: [UInt8](Self.packet)) else { continue }
            patched += 1
            let reread = try XCTUnwrap(try HEIFMeta.read(from: result, boxes: try ISOBox.topLevel(of: result)))
            XCTAssertEqual(try reread.data(of: try XCTUnwrap(reread.xmpItem).id, in: result, limit: 1 << 20), [UInt8](Self.packet))
        }
        XCTAssertGreaterThan(patched, 0, "some damage leaves the file patchable")
    }
}
