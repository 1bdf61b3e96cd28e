import DarkroomCore
import DarkroomHEIF
import DarkroomStages
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest
import DarkroomReport

/// The thumbnail item `heic-encode` stores inside each HEIC: upright and in the same colours as the
/// image (peers have shipped sideways and washed-out ones), sized by its option, and what thumbnail
/// regeneration reads instead of decoding the full image; a broken one in a phone's file is
/// worked around, not a failure.
final class EmbeddedThumbnailTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    /// heif-thumbnailer (libheif's own tool, not libvips) renders the stored thumbnail item, or with
    /// `-p` the primary image scaled down: the same size and, pixel for pixel, about the same picture.
    func testTheItemIsUprightAndLooksLikeTheImageToASecondDecoder() throws {
        try Prerequisite.require(tool: "heif-thumbnailer")
        let harness = try Harness("embedded-orientation")
        try Fixtures.halves(harness.inputs.appendingPathComponent("orientation-6.jpg"), width: 1200, height: 900,
                            exif: ["-Orientation#=6", "-DateTimeOriginal=2024:05:06 10:00:00"])
        let report = try harness.run(steps: "  - exif-date\n  - resize: { long-edge: 1024 }\n  - heic-encode: { preset: ultrafast }\n")
        XCTAssertEqual(report.failures, [])
        let heic = try harness.output(for: "orientation-6.jpg", under: "Photos")

        let items = try HEIFThumbnailInfo.read(heic.path)
        XCTAssertEqual(items.map { [$0.width, $0.height] }, [[240, 320]], "one 320 px item, portrait like the image")
        XCTAssertEqual(items.first?.lumaBitDepth, 8)

        let (item, primary) = try renderedByHeifThumbnailer(heic, harness: harness)
        XCTAssertEqual([item.width, item.height], [240, 320])
        XCTAssertEqual([primary.width, primary.height], [item.width, item.height])
        XCTAssertLessThan(try meanDifference(item, primary), 4, "the item is the image, not turned or tinted")
        // Red was the left half of the stored pixels; orientation 6 puts it on top.
        let top = try item.cropped(left: 0, top: 0, width: 240, height: 160)
        let bottom = try item.cropped(left: 0, top: 160, width: 240, height: 160)
        XCTAssertGreaterThan(try top.extractBand(0).average() - top.extractBand(2).average(), 150, "red on top")
        XCTAssertGreaterThan(try bottom.extractBand(2).average() - bottom.extractBand(0).average(), 150, "blue below")
    }

    /// An iPhone's Display P3 photo: the item carries the same ICC profile as the image (readers
    /// that show the item convert its colours with the item's own profile), and its pixels match
    /// the image's, so nothing is washed out or shifted.
    func testADisplayP3PhotosItemCarriesTheSameProfileAndColours() throws {
        try Prerequisite.require(tool: "heif-thumbnailer")
        let corpus = try Corpus.requireRoot()
        let harness = try Harness("embedded-p3")
        try FileManager.default.copyItem(at: corpus.appendingPathComponent("metadata-extractor-images/heic/IMG_2927.HEIC"),
                                         to: harness.inputs.appendingPathComponent("p3.heic"))
        let report = try harness.run(steps: "  - exif-date\n  - resize: { long-edge: 1024 }\n  - heic-encode: { preset: ultrafast }\n")
        XCTAssertEqual(report.failures, [])
        let heic = try harness.output(for: "p3.heic", under: "Photos")

        let profile = try XCTUnwrap(try Image.open(harness.inputs.appendingPathComponent("p3.heic").path).iccProfile, "Display P3")
        let items = try HEIFThumbnailInfo.read(heic.path)
        XCTAssertEqual(items.map { [$0.width, $0.height] }, [[240, 320]])
        XCTAssertEqual(items.first?.iccProfile, profile, "the item's own colour profile is the image's")

        let (item, primary) = try renderedByHeifThumbnailer(heic, harness: harness)
        XCTAssertLessThan(try meanDifference(item, primary), 4)
        for band in 0..<3 {
            XCTAssertEqual(try item.extractBand(band).average(), try primary.extractBand(band).average(), accuracy: 2,
                           "band \(band): same colour and range as the image")
        }
    }

    func testTheSizeOptionAndOff() throws {
        let harness = try Harness("embedded-size")
        try Fixtures.photo(harness.inputs.appendingPathComponent("wide.jpg"), width: 1600, height: 1000,
                           exif: ["-DateTimeOriginal=2022:03:04 05:06:07"])
        try Fixtures.photo(harness.inputs.appendingPathComponent("tiny.jpg"), width: 120, height: 90, seed: 3,
                           exif: ["-DateTimeOriginal=2022:03:05 05:06:07"])
        func items(_ thumbnail: String, _ name: String) throws -> [[Int]] {
            let report = try harness.run(steps: """
                  - exif-date
                  - resize: { long-edge: 800 }
                  - heic-encode: { preset: ultrafast, thumbnail: \(thumbnail), output: "\(thumbnail)/{name}.heic" }
                """)
            XCTAssertEqual(report.failures, [])
            let url = harness.library.appendingPathComponent("\(thumbnail)/\((name as NSString).deletingPathExtension).heic")
            let primary = try HEIFInfo.read(url.path)
            XCTAssertEqual([primary.width, primary.height], name == "wide.jpg" ? [800, 500] : [120, 90], "the image itself")
            return try HEIFThumbnailInfo.read(url.path).map { [$0.width, $0.height] }
        }
        XCTAssertEqual(try items("160", "wide.jpg"), [[160, 100]])
        XCTAssertEqual(try items("off", "wide.jpg"), [], "off: no thumbnail item")
        XCTAssertEqual(try items("320", "tiny.jpg"), [], "no item larger than the image")

        XCTAssertThrowsError(try harness.run(steps: "  - exif-date\n  - resize\n  - heic-encode: { thumbnail: 8 }\n")) { error in
            XCTAssertTrue("\(error)".contains("steps[2].heic-encode.thumbnail: expected a long edge in pixels from 32 to 1024, or off, got '8'"),
                          "\(error)")
        }
    }

    /// Regeneration reads the item: a HEIC whose stored thumbnail is deliberately green (its image
    /// is the photo) gives a green 200 px thumbnail, and a 400 px one (larger than the item) from the
    /// image itself.
    func testRegenerationReadsTheItemWhenItIsLargeEnough() throws {
        let harness = try Harness("embedded-used")
        let photo = try Image.open(try makePhoto(in: harness, "photo.jpg").path).thumbnail(width: 1024, height: 1024).eightBitRGB()
            .materialized()
        let green = try Image.solid(width: 320, height: 240, colour: Colour(red: 0, green: 200, blue: 0)).eightBitRGB()
        let heic = harness.inputs.appendingPathComponent("marked.heic")
        try FileManager.default.removeItem(at: harness.inputs.appendingPathComponent("photo.jpg"))
        try HEIFEncoder.encode(try pixels(photo), iccProfile: nil, exif: nil, settings: HEIFEncodeSettings(quality: 50, preset: "ultrafast"),
                               to: heic.path, thumbnail: try pixels(green))

        // Read at once: a later run of the same step replaces the earlier run's output.
        func thumbnail(_ size: Int) throws -> Image {
            let report = try harness.run(steps: "  - thumbnail: { size: \(size), output: \"\(size)/{name}.jpg\" }\n")
            XCTAssertEqual(report.failures, [])
            return try Image.open(harness.library.appendingPathComponent("\(size)/marked.jpg").path).materialized()
        }
        let small = try thumbnail(200)
        let large = try thumbnail(400)
        XCTAssertEqual([small.width, small.height, large.width, large.height], [200, 150, 400, 300])
        XCTAssertGreaterThan(try small.extractBand(1).average() - small.extractBand(0).average(), 150, "200 px: the green item")
        XCTAssertLessThan(try large.extractBand(1).average() - large.extractBand(0).average(), 100, "400 px: the photo")
    }

    /// Thumbnails regenerated from a library's own HEICs (through the catalog, as
    /// `regenerate-thumbnails.yaml` does) look like those made from the originals: same size, same
    /// orientation, a small mean pixel difference.
    func testRegeneratedThumbnailsMatchThoseFromTheOriginals() throws {
        let harness = try Harness("embedded-regenerate")
        _ = try makePhoto(in: harness, "landscape.jpg")
        try Fixtures.halves(harness.inputs.appendingPathComponent("turned.jpg"), width: 1600, height: 1200,
                            exif: ["-Orientation#=6", "-DateTimeOriginal=2023:02:03 04:05:06"])
        let imported = try harness.run(steps: """
              - exif-date
              - resize
              - heic-encode: { preset: ultrafast }
              - thumbnail: { size: 200 }
            """)
        XCTAssertEqual(imported.failures, [])
        // Read before regenerating: the regeneration's thumbnail step replaces the import's outputs.
        let originals = try ["landscape.jpg", "turned.jpg"].map { name in
            (name, try Image.open(try harness.output(for: name, under: "Thumbnails").path).materialized(),
             try harness.output(for: name, under: "Photos").deletingPathExtension().lastPathComponent)
        }
        let regenerated = try harness.run(steps: """
              - thumbnail: { size: 200, output: "Regenerated/{id}.jpg" }
            """, input: harness.library.appendingPathComponent("Photos"))
        XCTAssertEqual(regenerated.failures, [])
        for (name, original, id) in originals {
            let again = try Image.open(harness.library.appendingPathComponent("Regenerated/\(id).jpg").path)
            XCTAssertEqual([again.width, again.height], [original.width, original.height], name)
            XCTAssertLessThan(try meanDifference(again, original), 6, "\(name): regenerated from the HEIC's item")
        }
    }

    /// The corpus HEIC whose thumbnail item libheif 1.15 cannot decode ("bad image dimensions on
    /// decode"; the phone's 512x236 item): its thumbnail comes from the main image, with a warning.
    func testABrokenEmbeddedThumbnailFallsBackToTheMainImage() throws {
        let corpus = try Corpus.requireRoot()
        let harness = try Harness("embedded-broken")
        try FileManager.default.copyItem(at: corpus.appendingPathComponent("metadata-extractor-images/heic/Issue 437 (dotnet).heic"),
                                         to: harness.inputs.appendingPathComponent("panorama.heic"))
        let report = try harness.run(steps: "  - thumbnail: { size: 200, output: \"{name}.jpg\" }\n")
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.processed, 1)
        let thumbnail = try Image.open(harness.library.appendingPathComponent("panorama.jpg").path)
        XCTAssertEqual([thumbnail.width, thumbnail.height], [200, 92], "4000x1848 fitted to 200")
        XCTAssertGreaterThan(try thumbnail.average(), 10, "real pixels, not a black frame")
        XCTAssertEqual(report.warnings.count, 1)
        XCTAssertTrue(report.warnings.first?.reason.contains("embedded thumbnail unreadable") == true, "\(report.warnings)")
        XCTAssertTrue(report.warnings.first?.path.hasSuffix("panorama.heic") == true)
    }

    // MARK: Helpers

    func makePhoto(in harness: Harness, _ name: String) throws -> URL {
        let url = harness.inputs.appendingPathComponent(name)
        try Fixtures.run("convert", ["-size", "1600x1200", "gradient:#d04020-#2040d0", "-fill", "#f0f0f0",
                                     "-draw", "rectangle 100,100 700,500", "-quality", "92", url.path])
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=2023:02:01 10:00:00", url.path])
        return url
    }

    func pixels(_ image: Image) throws -> RGBPixels {
        RGBPixels(bytes: try image.pixelBytes(), width: image.width, height: image.height, hasAlpha: image.hasAlpha)
    }

    /// The stored thumbnail item and the primary image scaled to the item's size, both rendered by
    /// heif-thumbnailer.
    func renderedByHeifThumbnailer(_ heic: URL, harness: Harness) throws -> (item: Image, primary: Image) {
        let item = harness.folder.path("item.png"), primary = harness.folder.path("primary.png")
        try Fixtures.run("heif-thumbnailer", ["-s", "320", heic.path, item.path])
        try Fixtures.run("heif-thumbnailer", ["-p", "-s", "320", heic.path, primary.path])
        return (try Image.open(item.path).materialized(), try Image.open(primary.path).materialized())
    }

    /// Mean absolute difference of two images' samples at 32 px (0...255).
    func meanDifference(_ a: Image, _ b: Image) throws -> Double {
        let small = { (i: Image) in try i.thumbnail(width: 32, height: 32).eightBitRGB().pixelBytes() }
        let (x, y) = (try small(a), try small(b))
        guard x.count == y.count else { return .infinity }
        return Double(zip(x, y).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(x.count)
    }
}

extension Harness {
    /// Loads `steps` and runs it over `input` instead of the harness's input folder.
    func run(steps: String, input: URL) throws -> RunReport {
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(yaml: "steps:\n" + steps, file: "test.yaml")
        return try Runner(pipeline: pipeline, settings: RunSettings(library: library, timeZone: TimeZone(identifier: "UTC")!, jobs: 2))
            .run(inputs: [input])
    }
}
