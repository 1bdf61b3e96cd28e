import DarkroomCore
import DarkroomStages
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest
import DarkroomOptions

/// What `resize`, `heic-encode` and `thumbnail` promise a user.
final class ImageStageTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    func testHEICIsEightBitFourTwoZeroWithEXIFAndNoUpscale() throws {
        let harness = try Harness("heic")
        try Fixtures.photo(harness.inputs.appendingPathComponent("big.jpg"), width: 3000, height: 2000,
                           exif: ["-DateTimeOriginal=2021:07:04 12:00:00", "-Make=Nikon", "-Model=D750"])
        try Fixtures.photo(harness.inputs.appendingPathComponent("small.jpg"), width: 800, height: 600, seed: 2,
                           exif: ["-DateTimeOriginal=2021:07:05 12:00:00"])
        let report = try harness.run(steps: "  - exif-date\n  - resize\n  - heic-encode: { preset: ultrafast }\n")
        XCTAssertEqual(report.failures, [])
        let big = try HEIFInfoReader.read(try harness.output(for: "big.jpg", under: "Photos/2021/07"))
        XCTAssertEqual([big.info.width, big.info.height], [2048, 1365])
        XCTAssertEqual(big.info.lumaBitDepth, 8)
        XCTAssertEqual(big.exif?.make, "Nikon")
        XCTAssertEqual(big.exif?.dateTimeOriginal, "2021:07:04 12:00:00")
        let small = try HEIFInfoReader.read(try harness.output(for: "small.jpg", under: "Photos/2021/07"))
        XCTAssertEqual([small.info.width, small.info.height], [800, 600], "never upscaled")
        let boxes = try Fixtures.run("heif-info", ["-d", try harness.output(for: "big.jpg", under: "Photos").path])
        XCTAssertTrue(boxes.contains("chroma_format: 1"), "4:2:0 chroma expected:\n\(boxes)")
        XCTAssertTrue(boxes.contains("bit_depth_chroma: 8"), boxes)
        // A second decoder (ImageMagick's HEIC delegate) reads it too.
        let identify = try Fixtures.run("identify", ["-format", "%w %h", try harness.output(for: "big.jpg", under: "Photos").path])
        XCTAssertEqual(identify, "2048 1365")
    }

    func testDisplayP3ProfileIsKeptUnlessConvertingToSRGB() throws {
        let corpus = try Corpus.requireRoot()
        let harness = try Harness("p3")
        try FileManager.default.copyItem(at: corpus.appendingPathComponent("metadata-extractor-images/heic/IMG_2927.HEIC"),
                                         to: harness.inputs.appendingPathComponent("p3.heic"))
        var report = try harness.run(steps: "  - exif-date\n  - resize: { long-edge: 512 }\n  - heic-encode: { preset: ultrafast }\n  - thumbnail\n")
        XCTAssertEqual(report.failures, [])
        let kept = try Image.open(try harness.output(for: "p3.heic", under: "Photos").path)
        let original = try Image.open(harness.inputs.appendingPathComponent("p3.heic").path)
        XCTAssertEqual(kept.iccProfile, original.iccProfile, "the Display P3 profile travels with the pixels")
        XCTAssertNil(try Image.open(try harness.output(for: "p3.heic", under: "Thumbnails").path).iccProfile,
                     "thumbnails are converted to sRGB and stripped")

        report = try harness.run(steps: "  - exif-date\n  - resize: { long-edge: 512, colour: srgb }\n  - heic-encode: { preset: ultrafast }\n")
        XCTAssertEqual(report.failures, [])
        let converted = try Image.open(try harness.output(for: "p3.heic", under: "Photos").path)
        XCTAssertNotEqual(converted.iccProfile, original.iccProfile)
        XCTAssertTrue(String(decoding: converted.iccProfile ?? Data(), as: UTF8.self).contains("sRGB") ||
                      (converted.iccProfile ?? Data()).range(of: Data("s\0R\0G\0B".utf8)) != nil)
    }

    func testThumbnailModesAndFormats() throws {
        let harness = try Harness("thumbs")
        try Fixtures.photo(harness.inputs.appendingPathComponent("wide.jpg"), width: 1600, height: 900,
                           exif: ["-DateTimeOriginal=2020:01:01 08:00:00"])
        let report = try harness.run(steps: """
              - exif-date
              - thumbnail: { size: 200 }
              - thumbnail: { size: 120, mode: square, crop: centre, format: webp, output: "Squares/{id}.webp" }
            """)
        XCTAssertEqual(report.failures, [])
        let fit = try Image.open(try harness.output(for: "wide.jpg", under: "Thumbnails/2020/01").path)
        XCTAssertEqual([fit.width, fit.height], [200, 113])
        XCTAssertEqual(fit.loader, "jpegload")
        XCTAssertNil(fit.exifData, "thumbnails carry no EXIF (no GPS leaks into shared thumbnails)")
        let square = try Image.open(try harness.output(for: "wide.jpg", under: "Squares").path)
        XCTAssertEqual([square.width, square.height], [120, 120])
        XCTAssertEqual(square.loader, "webpload")
    }

    func testStageOptionErrorsPointAtTheKey() {
        let loader = PipelineLoader(registry: BuiltInStages.registry)
        let cases: [(String, String)] = [
            ("  - exif-date\n  - resize: { long-edge: -1 }\n",
             "x.yaml:3:26: error: steps[1].resize.long-edge: expected an integer from 1 to 65535, got -1"),
            ("  - exif-date\n  - resize\n  - heic-encode: { preset: medum }\n",
             "x.yaml:4:28: error: steps[2].heic-encode.preset: expected one of ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, got 'medum' (did you mean 'medium'?)"),
            ("  - exif-date\n  - thumbnail: { mode: sqare }\n",
             "x.yaml:3:24: error: steps[1].thumbnail.mode: expected one of fit, square, got 'sqare' (did you mean 'square'?)"),
            ("  - exif-date\n  - thumbnail: { format: webp, output: 'T/{id}.jpg' }\n",
             "x.yaml:3:40: error: steps[1].thumbnail.output: expected a file name ending in .webp for format webp, got 'T/{id}.jpg'"),
            ("  - exif-date\n  - thumbnail: { mode: square, crop: entropy }\n",
             "x.yaml:3:38: error: steps[1].thumbnail.crop: expected one of centre, attention, got 'entropy'"),
            ("  - exif-date\n  - resize: { long_edge: 100 }\n",
             "x.yaml:3:15: error: steps[1].resize: unknown key 'long_edge' (did you mean 'long-edge'?)"),
            ("  - heic-encode\n",
             "x.yaml:2:5: error: steps[0]: 'heic-encode' needs capture-date, image from an earlier step (add 'exif-date' or 'resize' before it)"),
            // An optional option's refused value is an error, never taken for "not given" (and its default).
            ("  - exif-date\n  - thumbnail: { size: 0 }\n",
             "x.yaml:3:24: error: steps[1].thumbnail.size: expected a positive integer up to 10000, got 0"),
            ("  - exif-date\n  - collage: { font: 'DejaVu Sans 12' }\n",
             "x.yaml:3:22: error: steps[1].collage.font: expected a font name without a size, got 'DejaVu Sans 12'"),
        ]
        for (steps, expected) in cases {
            XCTAssertThrowsError(try loader.load(yaml: "steps:\n" + steps, file: "x.yaml")) { error in
                XCTAssertEqual((error as? Diagnostics)?.items.first?.headline, expected)
            }
        }
    }

    /// `crop` shapes only squares: under `fit`, editing it must not make every thumbnail stale.
    func testThumbnailCropCountsOnlyForSquares() throws {
        let loader = PipelineLoader(registry: BuiltInStages.registry)
        func digest(_ options: String) throws -> String {
            try loader.load(yaml: "steps:\n  - exif-date\n  - thumbnail: \(options)\n", file: "x.yaml").steps[1].configured.optionsDigest
        }
        XCTAssertEqual(try digest("{ mode: fit, crop: centre }"), try digest("{ mode: fit }"))
        XCTAssertNotEqual(try digest("{ mode: square, crop: centre }"), try digest("{ mode: square }"))
    }

    func testEveryStageReadsExactlyTheOptionsItDeclares() {
        // The reader refuses an undeclared read and a declared option left unread, so loading each
        // stage with its defaults checks that what `darkroom stages` prints is what the stage reads.
        for stage in BuiltInStages.all {
            let yaml = "steps:\n  - exif-date\n  - resize\n  - \(stage.name)\n"
            XCTAssertNoThrow(try PipelineLoader(registry: BuiltInStages.registry).load(yaml: yaml, file: "doc.yaml"), stage.name)
        }
    }

    func testTheREADMEStageReferenceIsTheDeclarations() throws {
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md"), encoding: .utf8)
        let begin = "<!-- stage options: darkroom stages --markdown -->\n", end = "<!-- end of stage options -->"
        guard let start = readme.range(of: begin), let stop = readme.range(of: end, range: start.upperBound..<readme.endIndex) else {
            return XCTFail("README.md has no stage options block between '\(begin)' and '\(end)'")
        }
        XCTAssertEqual(String(readme[start.upperBound..<stop.lowerBound]), StageDocumentation.markdown(BuiltInStages.all),
                       "the README's stage options are stale: replace the block with the output of `darkroom stages --markdown`")
    }
}
